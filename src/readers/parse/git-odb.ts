/**
 * One repository's object database, read without git: its loose objects (git-loose.ts) and its packs
 * with their indexes (git-pack.ts), found by object id. Every object read whole is checked against its
 * id. A fault is thrown as a GitObjectError naming the file (and pack position) it lies in, so the
 * reader can make it a `parser:` row of that file.
 */
import { type GitObject, type ObjectType, objectId, parseTree, type TreeEntry } from './git-object.js';
import { looseObjectType, readLooseObject } from './git-loose.js';
import { findInIndex } from './git-pack-index.js';
import { type BaseLookup, type PackFile, packObject, packObjectId, packObjectType, packOrdinal } from './git-pack.js';

/** Objects read lately (commits, trees), in bytes, so the trees two checkpoints share are read once. */
const CACHE_BYTES = 32 * 1024 * 1024;
/** Tree entries kept parsed (~150 bytes each), so a tree that diffs meet again is not parsed again. */
const CACHE_TREE_ENTRIES = 100_000;

/** A fault of one object: the file it lies in (null when no file holds it) and its 1-based place in a pack. */
export class GitObjectError extends Error {
  readonly file: string | null;
  readonly ordinal: number | null;
  constructor(file: string | null, ordinal: number | null, message: string) {
    super(message);
    this.name = 'GitObjectError';
    this.file = file;
    this.ordinal = ordinal;
  }
}

export interface ObjectStore {
  /** Loose objects by id: absolute path of each file. */
  loose: Map<string, string>;
  /** Packs whose index and header were read, in file order. */
  packs: PackFile[];
  cache: Map<string, GitObject>;
  cacheBytes: number;
  trees: Map<string, readonly TreeEntry[]>;
  treeEntries: number;
}

/** Where an object lies: a loose file, or a pack and its index position. */
export type ObjectPlace = { pack: null; file: string } | { pack: PackFile; pos: number };

export function newObjectStore(loose: Map<string, string>, packs: PackFile[]): ObjectStore {
  return { loose, packs, cache: new Map(), cacheBytes: 0, trees: new Map(), treeEntries: 0 };
}

/** The place of an object: packs first, as git looks, then loose. */
export function findObject(store: ObjectStore, oid: string): ObjectPlace | null {
  for (const pack of store.packs) {
    const pos = findInIndex(pack.index, oid);
    if (pos !== -1) return { pack, pos };
  }
  const file = store.loose.get(oid);
  return file === undefined ? null : { pack: null, file };
}

/** The file an object lies in and its place there (null for a loose object). */
export function placeOf(place: ObjectPlace): { file: string; ordinal: number | null } {
  return place.pack === null
    ? { file: place.file, ordinal: null }
    : { file: place.pack.file, ordinal: packOrdinal(place.pack, place.pos) };
}

function fault(place: ObjectPlace, oid: string, err: unknown): GitObjectError {
  if (err instanceof GitObjectError) return err;
  const { file, ordinal } = placeOf(place);
  return new GitObjectError(file, ordinal, `object ${oid}: ${(err as Error).message}`);
}

function lookupFor(store: ObjectStore): BaseLookup {
  return {
    type: (oid, depth) => objectType(store, oid, depth),
    object: (oid, depth) => readObject(store, oid, null, depth),
  };
}

/** The type of an object, from as few bytes as its place allows; throws GitObjectError. */
export function objectType(store: ObjectStore, oid: string, depth = 0): ObjectType {
  const place = findObject(store, oid);
  if (place === null) throw new GitObjectError(null, null, `object ${oid} not found`);
  return placeType(store, place, oid, depth);
}

/** The type of the object at a known place; throws GitObjectError. */
export function placeType(store: ObjectStore, place: ObjectPlace, oid: string, depth = 0): ObjectType {
  try {
    if (place.pack !== null) return packObjectType(place.pack, place.pos, lookupFor(store), depth);
    const loose = looseObjectType(place.file, oid);
    if (!loose.ok) throw new Error(loose.message);
    return loose.type;
  } catch (err) {
    throw fault(place, oid, err);
  }
}

/** Reads an object whole and checks its id (and its type, when `want` is given); throws GitObjectError. */
export function readObject(store: ObjectStore, oid: string, want: ObjectType | null = null, depth = 0): GitObject {
  const cached = store.cache.get(oid);
  const place = cached === undefined ? findObject(store, oid) : null;
  if (cached === undefined && place === null) throw new GitObjectError(null, null, `${want ?? 'object'} ${oid} not found`);
  const object = cached ?? readAt(store, place as ObjectPlace, oid, depth);
  if (want !== null && object.type !== want) {
    const where = place === null ? { file: null, ordinal: null } : placeOf(place);
    throw new GitObjectError(where.file, where.ordinal, `object ${oid} is a ${object.type}, not a ${want}`);
  }
  return object;
}

function readAt(store: ObjectStore, place: ObjectPlace, oid: string, depth: number): GitObject {
  let object: GitObject;
  try {
    if (place.pack === null) {
      const loose = readLooseObject(place.file, oid);
      if (!loose.ok) throw new Error(loose.message);
      object = loose.object;
    } else {
      object = packObject(place.pack, place.pos, lookupFor(store), depth);
      const actual = objectId(object.type, object.content);
      if (actual !== oid) throw new Error(`${object.type} content hashes to ${actual}: the pack is damaged`);
    }
  } catch (err) {
    throw fault(place, oid, err);
  }
  remember(store, oid, object);
  return object;
}

/** The entries of a tree, parsed once while they stay in the cache; throws GitObjectError, or `git tree: ...` when malformed. */
export function readTree(store: ObjectStore, oid: string): readonly TreeEntry[] {
  const cached = store.trees.get(oid);
  if (cached !== undefined) return cached;
  const entries = parseTree(readObject(store, oid, 'tree').content);
  if (entries.length <= CACHE_TREE_ENTRIES / 4) {
    store.trees.set(oid, entries);
    store.treeEntries += entries.length;
    for (const [key, old] of store.trees) {
      if (store.treeEntries <= CACHE_TREE_ENTRIES) break;
      store.trees.delete(key);
      store.treeEntries -= old.length;
    }
  }
  return entries;
}

function remember(store: ObjectStore, oid: string, object: GitObject): void {
  if (object.type === 'blob' || object.content.length > CACHE_BYTES / 4) return;
  store.cache.set(oid, object);
  store.cacheBytes += object.content.length;
  for (const [key, old] of store.cache) {
    if (store.cacheBytes <= CACHE_BYTES) break;
    store.cache.delete(key);
    store.cacheBytes -= old.content.length;
  }
}

/** Every object of the store as (id, place), packs in file order then pack order, then loose objects by path. */
export function* everyObject(store: ObjectStore): Generator<{ oid: string; place: ObjectPlace }> {
  for (const pack of store.packs) {
    for (const pos of pack.index.byOffset) yield { oid: packObjectId(pack, pos), place: { pack, pos } };
  }
  const loose = [...store.loose].sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  for (const [oid, file] of loose) yield { oid, place: { pack: null, file } };
}
