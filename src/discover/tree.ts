/**
 * The tree discovery walks: a folder on disk, or the member listing of an archive (or of a collection
 * whose paths a collector encoded) laid out under the folder its members will be copied to. One walk
 * (discover/discover.ts) serves both, so a store is found the same way in either.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { LogicalListing } from './collection.js';

/** What the walk asks of a folder entry (a Dirent answers it). */
export interface TreeEntry {
  name: string;
  isDirectory(): boolean;
  isFile(): boolean;
  isSymbolicLink(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}

/** What the walk asks of a path once links are followed. */
export interface TreeStat {
  isDirectory(): boolean;
  isFile(): boolean;
}

export interface ImageTree {
  /** The entries of a folder; throws when it cannot be read. */
  readdir(dir: string): Promise<TreeEntry[]>;
  /** The path with links resolved; throws when it leads nowhere. */
  realpath(p: string): Promise<string>;
  /** What is at a path, following links; null when nothing is. */
  stat(p: string): Promise<TreeStat | null>;
}

/** A folder on disk. */
export const FOLDER_TREE: ImageTree = {
  readdir: (dir) => fs.readdir(dir, { withFileTypes: true }),
  realpath: (p) => fs.realpath(p),
  stat: (p) => fs.stat(p).catch(() => null),
};

type Kind = 'dir' | 'file' | 'other';

function entry(name: string, kind: Kind): TreeEntry {
  return {
    name,
    isDirectory: () => kind === 'dir',
    isFile: () => kind === 'file',
    isSymbolicLink: () => false,
    isFIFO: () => false,
    isSocket: () => false,
    isCharacterDevice: () => false,
    isBlockDevice: () => false,
  };
}

/** A listing's logical paths laid out under `root` (absolute): folders and files only, no links. */
export function listingTree(root: string, listing: LogicalListing): ImageTree {
  const children = new Map<string, Map<string, Kind>>([['', new Map()]]);
  const kinds = new Map<string, Kind>([['', 'dir']]);
  const add = (rel: string, kind: Kind) => {
    kinds.set(rel, kind);
    const slash = rel.lastIndexOf('/');
    const parent = slash === -1 ? '' : rel.slice(0, slash);
    if (!children.has(parent)) children.set(parent, new Map());
    children.get(parent)!.set(rel.slice(slash + 1), kind);
    if (kind === 'dir' && !children.has(rel)) children.set(rel, new Map());
  };
  for (const dir of listing.dirs) add(dir, 'dir');
  for (const file of listing.files.keys()) add(file, 'file');
  for (const other of listing.others.keys()) if (!kinds.has(other)) add(other, 'other');
  const relOf = (p: string): string | null => {
    const rel = path.relative(root, p).split(path.sep).join('/');
    return rel.startsWith('..') || path.isAbsolute(rel) ? null : rel;
  };
  return {
    readdir: async (dir) => {
      const list = children.get(relOf(dir) ?? '\0');
      if (!list) throw new Error(`no such folder in the listing: ${dir}`);
      return [...list].map(([name, kind]) => entry(name, kind));
    },
    realpath: async (p) => {
      const rel = relOf(p);
      if (rel === null || !kinds.has(rel)) throw new Error(`not in the listing: ${p}`);
      return p;
    },
    stat: async (p) => {
      const kind = kinds.get(relOf(p) ?? '\0');
      return kind === undefined ? null : { isDirectory: () => kind === 'dir', isFile: () => kind === 'file' };
    },
  };
}
