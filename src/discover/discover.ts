/**
 * Discovery: every Cline store root inside each host image, whatever the OS layout, and the files of
 * each store under it. Reads directory listings only; never follows a link out of the image, never
 * loops on link cycles, never opens anything for writing.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { archiveBaseName, archiveFormatOf } from '../evidence/archive.js';
import type { ArchiveRef, Source, StoreId } from '../core/row.js';
import { rootKindAgent, rootKindsAt, type RootKind, type RootKindId } from '../core/root-kinds.js';
import { STORE_ROLES } from '../core/stores.js';
import type { LogicalListing } from './collection.js';
import { homeAndClient } from './home-client.js';
import { homeUser, logicalHome } from './logical-home.js';
import { folderDepth, folderStore, listsRootFolder, storeOf } from './store-files.js';
import { FOLDER_TREE, listingTree, type ImageTree, type TreeEntry } from './tree.js';

export { homeAndClient } from './home-client.js';

export { folderStore, storeOf } from './store-files.js';

/** One host image: a name and the folder (or archive) holding it. */
export interface HostImage {
  host: string;
  /** The folder or archive as given. */
  root: string;
  /** Set for an archive, or a folder whose member paths a collector encoded: walked as a listing. */
  collection?: CollectionImage;
  /**
   * The host name the image claims (its collection's Hostname, its folder or archive name, or the name
   * given): `host` unless another image of the load claims it too (load/load-inputs.ts).
   */
  hostname?: string;
}

/** An image read through its member listing; its files are copied to `stagingRoot` before they are read. */
export interface CollectionImage {
  archive: Omit<ArchiveRef, 'members' | 'member_sizes'>;
  /** Private folder the members are copied to, under their logical paths: the image root of its sources. */
  stagingRoot: string;
  /** null when the archive could not be listed or is encrypted (`error` says why). */
  listing: LogicalListing | null;
  error: string | null;
  /** The archive is encrypted and no password given opens it: `error` names it and says what to do. */
  encrypted?: boolean;
  /** The password (of `--zip-password-file`) that opens its encrypted members. */
  password?: string;
  /** The client folder of a Velociraptor hunt download the image is (`<Hostname>-<ClientId>`), as stored. */
  folder?: string;
}

/** A path found but not read: a link out of the image, a FIFO, an unreadable folder, ... */
export interface DiscoveryProblem {
  host: string;
  store: StoreId | null;
  /** Absolute path of the problem entry. */
  file: string;
  message: string;
  /** The archive member the problem is about, as stored, when it has no path in the image (a skipped member). */
  member?: string;
}

export interface Discovery {
  sources: Source[];
  problems: DiscoveryProblem[];
  /** The image could not be read at all: an encrypted or unreadable archive, an image not searched. */
  fault?: ImageFault;
}

/** Why an image gave nothing: its status in `hosts` (load/membership.ts). */
export type ImageFault = 'encrypted' | 'unreadable';

/** Folder names never searched for homes: large trees that hold no Cline store. */
const PRUNE = new Set(['node_modules', '.git', '.hg', '.svn', '.npm', '.cache', '.cargo', '.rustup', '__pycache__']);
/** Deepest folder searched below an image root. */
const MAX_DEPTH = 48;

/**
 * Each child of the fleet root that is a folder or an archive (`.zip`, `.tar`, `.tar.gz`, `.tgz`) is one
 * host image, named by the folder name or the archive name without its extension; the load names a
 * collection by its own metadata where it has some (load/collections.ts).
 */
export async function listFleet(fleetRoot: string): Promise<HostImage[]> {
  const entries = await fs.readdir(fleetRoot, { withFileTypes: true });
  const hosts: HostImage[] = [];
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = path.join(fleetRoot, e.name);
    const st = e.isSymbolicLink() ? await fs.stat(p).catch(() => null) : e;
    if (st?.isDirectory()) hosts.push({ host: e.name, root: p });
    else if (st?.isFile() && archiveFormatOf(e.name) !== null) hosts.push({ host: archiveBaseName(e.name), root: p });
  }
  return hosts;
}

interface Walk {
  image: HostImage;
  tree: ImageTree;
  /** The image root the walk starts at: the image folder, or a collection's staging folder. */
  root: string;
  realRoot: string;
  visited: Set<string>;
  out: Discovery;
}

/** Every Cline source of one host image. */
export async function discoverImage(image: HostImage): Promise<Discovery> {
  const collection = image.collection;
  if (collection?.listing === null) {
    const message = collection.encrypted
      ? (collection.error ?? `archive encrypted (${collection.archive.path})`)
      : `archive not readable (${collection.archive.path}): ${collection.error ?? 'unknown error'}`;
    return {
      sources: [],
      problems: [{ host: image.host, store: null, file: image.root, message }],
      fault: collection.encrypted ? 'encrypted' : 'unreadable',
    };
  }
  const tree = collection ? listingTree(collection.stagingRoot, collection.listing) : FOLDER_TREE;
  const root = collection ? collection.stagingRoot : image.root;
  const realRoot = await tree.realpath(root);
  const walk: Walk = { image, tree, root, realRoot, visited: new Set(), out: { sources: [], problems: [] } };
  await walkDir(walk, root, 0);
  if (collection) walk.out.problems.push(...skippedProblems(image, collection));
  walk.out.sources.sort((a, b) => (a.root + a.store < b.root + b.store ? -1 : 1));
  if (collection) for (const source of walk.out.sources) source.archive = archiveRef(source, collection);
  return walk.out;
}

/**
 * The members of a collection that are no path in the image, one problem each, in the host's `discovery`
 * partition: the file is named by the member's whole name percent-encoded (one path component, whatever
 * it holds), the member as stored goes to `files.archive_member`.
 */
function skippedProblems(image: HostImage, collection: CollectionImage): DiscoveryProblem[] {
  return (collection.listing?.skipped ?? []).map(({ member, reason }) => ({
    host: image.host,
    store: null,
    file: path.join(collection.stagingRoot, encodeURIComponent(member.name)),
    // the reason first: a row's text is cut at 300 characters, and `files` has the archive and the whole name
    message: `archive member skipped (${reason}): ${JSON.stringify(member.name)}`,
    member: member.name,
  }));
}

/** The archive of a collection source, with the raw member name of each of its files. */
function archiveRef(source: Source, collection: CollectionImage): ArchiveRef {
  const members: Record<string, string> = {};
  const sizes: Record<string, number> = {};
  for (const file of source.files) {
    const rel = path.relative(collection.stagingRoot, file).split(path.sep).join('/');
    const member = collection.listing?.files.get(rel);
    members[rel] = member?.name ?? rel;
    sizes[rel] = member?.size ?? 0;
  }
  return { ...collection.archive, members, member_sizes: sizes };
}

function inside(realRoot: string, real: string): boolean {
  return real === realRoot || real.startsWith(realRoot + path.sep);
}

/** What an entry is once links are resolved inside the image; null (with a problem) when unusable. */
async function resolveEntry(
  walk: Walk,
  full: string,
  entry: TreeEntry,
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
    const real = await walk.tree.realpath(full).catch(() => null);
    if (real === null) return store ? problem('broken symbolic link, not followed') : null;
    if (!inside(walk.realRoot, real)) return problem(`symbolic link leads out of the image (${real}), not followed`);
    const st = await walk.tree.stat(full);
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

async function readDir(walk: Walk, dir: string, store: StoreId | null): Promise<TreeEntry[]> {
  try {
    return (await walk.tree.readdir(dir)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
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
  const real = await walk.tree.realpath(dir).catch(() => dir);
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
    // each lists only the folders its stores' globs name, so no folder is listed twice. A root is not
    // searched further, but for a kind that holds other roots (`User`: globalStorage/<extension id>).
    const kinds = rootKindsAt(path.basename(dir), entry.name);
    for (const kind of kinds) await addKindRoot(walk, full, kind);
    if (kinds.every((kind) => 'walkInto' in kind && kind.walkInto)) await walkDir(walk, full, depth + 1);
  }
}

/** A folder of a root kind: the store root itself, or its `sub` folder when that is a folder inside the image. */
async function addKindRoot(walk: Walk, folder: string, kind: RootKind & { id: RootKindId }): Promise<void> {
  const isFolderInside = async (p: string): Promise<boolean> => {
    const st = await walk.tree.stat(p);
    return st?.isDirectory() === true && inside(walk.realRoot, await walk.tree.realpath(p));
  };
  if (kind.requires !== undefined && !(await isFolderInside(path.join(folder, kind.requires)))) return;
  if (kind.sub === undefined) return addRoot(walk, folder, kind.id);
  const root = path.join(folder, kind.sub);
  if (await isFolderInside(root)) await addRoot(walk, root, kind.id);
}

async function addRoot(walk: Walk, root: string, kind: RootKindId): Promise<void> {
  const relRoot = path.relative(walk.root, root).split(path.sep).join('/');
  const { home: homeFolder, client } = homeAndClient(relRoot, kind);
  const home = logicalHome(homeFolder);
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
      imageRoot: walk.root,
      home,
      homeFolder,
      user: homeUser(home),
      client,
      agent: rootKindAgent(kind),
      root,
      files: files.sort(),
    });
  }
}
