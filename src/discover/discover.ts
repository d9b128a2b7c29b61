/**
 * Discovery: every Cline store root inside each host image, whatever the OS layout, and the files of
 * each store under it. Reads directory listings only; never follows a link out of the image, never
 * loops on link cycles, never opens anything for writing.
 */
import { promises as fs, type Dirent } from 'node:fs';
import * as path from 'node:path';
import type { Source, StoreId } from '../core/row.js';
import { rootKindsAt, type RootKind, type RootKindId } from '../core/root-kinds.js';
import { STORE_ROLES } from '../core/stores.js';
import { folderDepth, folderStore, listsRootFolder, storeOf } from './store-files.js';

export { folderStore, storeOf } from './store-files.js';

/** One host image: a name and the folder holding it. */
export interface HostImage {
  host: string;
  root: string;
}

/** A path found but not read: a link out of the image, a FIFO, an unreadable folder, ... */
export interface DiscoveryProblem {
  host: string;
  store: StoreId | null;
  /** Absolute path of the problem entry. */
  file: string;
  message: string;
}

export interface Discovery {
  sources: Source[];
  problems: DiscoveryProblem[];
}

/** Folder names never searched for homes: large trees that hold no Cline store. */
const PRUNE = new Set(['node_modules', '.git', '.hg', '.svn', '.npm', '.cache', '.cargo', '.rustup', '__pycache__']);
/** Deepest folder searched below an image root. */
const MAX_DEPTH = 48;

/** Each child folder of the fleet root is one host image named by the folder name. */
export async function listFleet(fleetRoot: string): Promise<HostImage[]> {
  const entries = await fs.readdir(fleetRoot, { withFileTypes: true });
  const hosts: HostImage[] = [];
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = path.join(fleetRoot, e.name);
    if (e.isDirectory()) hosts.push({ host: e.name, root: p });
    else if (e.isSymbolicLink()) {
      const st = await fs.stat(p).catch(() => null);
      if (st?.isDirectory()) hosts.push({ host: e.name, root: p });
    }
  }
  return hosts;
}

interface Walk {
  image: HostImage;
  realRoot: string;
  visited: Set<string>;
  out: Discovery;
}

/** Every Cline source of one host image. */
export async function discoverImage(image: HostImage): Promise<Discovery> {
  const realRoot = await fs.realpath(image.root);
  const walk: Walk = { image, realRoot, visited: new Set(), out: { sources: [], problems: [] } };
  await walkDir(walk, image.root, 0);
  walk.out.sources.sort((a, b) => (a.root + a.store < b.root + b.store ? -1 : 1));
  return walk.out;
}

function inside(realRoot: string, real: string): boolean {
  return real === realRoot || real.startsWith(realRoot + path.sep);
}

/** What an entry is once links are resolved inside the image; null (with a problem) when unusable. */
async function resolveEntry(
  walk: Walk,
  full: string,
  entry: Dirent,
  store: StoreId | null,
  owner: StoreId | null = store,
): Promise<'dir' | 'file' | null> {
  if (entry.isDirectory()) return 'dir';
  if (entry.isFile()) return 'file';
  const problem = (message: string) => {
    walk.out.problems.push({ host: walk.image.host, store: store ?? owner, file: full, message });
    return null;
  };
  if (entry.isSymbolicLink()) {
    const real = await fs.realpath(full).catch(() => null);
    if (real === null) return store ? problem('broken symbolic link, not followed') : null;
    if (!inside(walk.realRoot, real)) return problem(`symbolic link leads out of the image (${real}), not followed`);
    const st = await fs.stat(full).catch(() => null);
    if (st?.isDirectory()) return 'dir';
    if (st?.isFile()) return 'file';
    return store ? problem('symbolic link to a special file, not read') : null;
  }
  if (store === null) return null;
  const kind = entry.isFIFO()
    ? 'FIFO'
    : entry.isSocket()
      ? 'socket'
      : entry.isCharacterDevice() || entry.isBlockDevice()
        ? 'device file'
        : 'special file';
  return problem(`${kind}, not read`);
}

async function readDir(walk: Walk, dir: string, store: StoreId | null): Promise<Dirent[]> {
  try {
    return (await fs.readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (err) {
    walk.out.problems.push({
      host: walk.image.host,
      store,
      file: dir,
      message: `folder not readable: ${(err as Error).message}`,
    });
    return [];
  }
}

async function walkDir(walk: Walk, dir: string, depth: number): Promise<void> {
  const real = await fs.realpath(dir).catch(() => dir);
  if (walk.visited.has(real)) return;
  walk.visited.add(real);
  if (depth > MAX_DEPTH) {
    walk.out.problems.push({
      host: walk.image.host,
      store: null,
      file: dir,
      message: `folder deeper than ${MAX_DEPTH} levels, not searched`,
    });
    return;
  }
  for (const entry of await readDir(walk, dir, null)) {
    const full = path.join(dir, entry.name);
    if (PRUNE.has(entry.name)) continue;
    if ((await resolveEntry(walk, full, entry, null)) !== 'dir') continue;
    // A folder of several root kinds (`.cline`: cline-home, and cline-data below it) is a root of each;
    // each lists only the folders its stores' globs name, so no folder is listed twice.
    const kinds = rootKindsAt(path.basename(dir), entry.name);
    for (const kind of kinds) await addKindRoot(walk, full, kind);
    if (kinds.length === 0) await walkDir(walk, full, depth + 1);
  }
}

/** A folder of a root kind: the store root itself, or its `sub` folder when that is a folder inside the image. */
async function addKindRoot(walk: Walk, folder: string, kind: RootKind & { id: RootKindId }): Promise<void> {
  const isFolderInside = async (p: string): Promise<boolean> => {
    const st = await fs.stat(p).catch(() => null);
    return st?.isDirectory() === true && inside(walk.realRoot, await fs.realpath(p));
  };
  if (kind.requires !== undefined && !(await isFolderInside(path.join(folder, kind.requires)))) return;
  if (kind.sub === undefined) return addRoot(walk, folder, kind.id);
  const root = path.join(folder, kind.sub);
  if (await isFolderInside(root)) await addRoot(walk, root, kind.id);
}

/** Home folder and client of a store root, from its image-relative path. */
export function homeAndClient(relRoot: string, kind: RootKindId): { home: string; client: string } {
  const segs = relRoot.split('/');
  if (kind === 'cline-data') return { home: segs.slice(0, -2).join('/'), client: 'cline' };
  if (kind === 'cline-home') return { home: segs.slice(0, -1).join('/'), client: 'cline' };
  if (kind === 'documents-cline') {
    // `<home>/Documents/Cline` or `<home>/OneDrive.../Documents/Cline`; every Cline client shares it
    let homeEnd = segs.length - 2;
    if (homeEnd > 0 && /^OneDrive\b/.test(segs[homeEnd - 1])) homeEnd -= 1;
    return { home: segs.slice(0, homeEnd).join('/'), client: '-' };
  }
  const user = segs.lastIndexOf('User');
  const editorIdx = user - 1;
  const editor = segs[editorIdx] ?? '';
  const server = segs.findIndex((s, i) => i < user && /^\.[\w.-]+-server(-insiders)?$/.test(s));
  if (server !== -1) return { home: segs.slice(0, server).join('/'), client: segs[server].slice(1) };
  const anchors: Array<[string, string?]> = [['AppData'], ['Library', 'Application Support'], ['.config'], ['.var'], ['.local']];
  for (const [a, b] of anchors) {
    const i = segs.lastIndexOf(a, user);
    if (i !== -1 && i < user && (b === undefined || segs[i + 1] === b))
      return { home: segs.slice(0, i).join('/'), client: clientName(editor) };
  }
  return { home: segs.slice(0, Math.max(0, editorIdx - 1)).join('/'), client: clientName(editor) };
}

function clientName(editor: string): string {
  const known: Record<string, string> = {
    Code: 'vscode',
    'Code - Insiders': 'vscode-insiders',
    'Code - OSS': 'code-oss',
    'code-server': 'code-server',
  };
  return known[editor] ?? (editor.toLowerCase().replace(/\s+/g, '-') || 'unknown');
}

async function addRoot(walk: Walk, root: string, kind: RootKindId): Promise<void> {
  const relRoot = path.relative(walk.image.root, root).split(path.sep).join('/');
  const { home, client } = homeAndClient(relRoot, kind);
  const byStore = new Map<StoreId, string[]>();
  const visit = async (dir: string, rel: string, depth: number): Promise<void> => {
    for (const entry of await readDir(walk, dir, rel === '' ? null : folderStore(rel, kind))) {
      const full = path.join(dir, entry.name);
      const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (depth === 0 && !listsRootFolder(kind, entry.name)) {
        const store = storeOf(childRel, kind);
        if (store && (await resolveEntry(walk, full, entry, store)) === 'file') push(store, full);
        continue;
      }
      const store = storeOf(childRel, kind);
      const what = await resolveEntry(walk, full, entry, store, folderStore(childRel, kind));
      if (what === 'file' && store) push(store, full);
      else if (what === 'dir' && depth < folderDepth(kind, childRel.split('/')[0])) await visit(full, childRel, depth + 1);
    }
  };
  const push = (store: StoreId, file: string) => {
    const list = byStore.get(store) ?? [];
    list.push(file);
    byStore.set(store, list);
  };
  const problemsBefore = walk.out.problems.length;
  await visit(root, '', 0);
  // A store whose only entries are problems (a FIFO hooks.jsonl) still gets a source, so its problems
  // become rows of its own partition.
  for (const problem of walk.out.problems.slice(problemsBefore)) {
    if (problem.store && !byStore.has(problem.store)) byStore.set(problem.store, []);
  }
  for (const [store, files] of byStore) {
    walk.out.sources.push({
      host: walk.image.host,
      store,
      role: STORE_ROLES[store],
      imageRoot: walk.image.root,
      home,
      client,
      root,
      files: files.sort(),
    });
  }
}
