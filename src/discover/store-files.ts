/**
 * Discovery's file matching, derived from the store specification (core/stores.ts): which store a file
 * under a store root belongs to, which store a folder there holds files of, which folders are listed
 * and how deep.
 */
import { globsRegExp } from '../core/glob.js';
import { ROOT_KINDS, type RootKindId } from '../core/root-kinds.js';
import { STORES, type StoreId, type StoreSpec } from '../core/stores.js';

interface StoreMatcher {
  store: StoreId;
  files: RegExp;
  except: RegExp | null;
}

interface KindFiles {
  /** In the specification's order: the first match wins. */
  matchers: StoreMatcher[];
  /** First folder of each glob → the stores whose files it holds. */
  folders: Map<string, Set<StoreId>>;
  /** First folder of each glob → the most path segments of the globs under it. */
  segments: Map<string, number>;
  /** A glob `**` lists every folder of the root (but the `pruned` ones), DEEPEST segments deep. */
  everyFolder: boolean;
  /** Folders directly under the root never listed: the first folder of each `<folder>/**` except of a `**` store. */
  pruned: Set<string>;
}

/** How deep a `**` glob lists. */
const DEEPEST = 16;

function kindFiles(kind: RootKindId): KindFiles {
  const out: KindFiles = { matchers: [], folders: new Map(), segments: new Map(), everyFolder: false, pruned: new Set() };
  for (const spec of STORES as readonly StoreSpec[]) {
    const globs = spec.files[kind];
    if (!globs || globs.length === 0) continue;
    const store = spec.id as StoreId;
    out.matchers.push({ store, files: globsRegExp(globs), except: spec.except ? globsRegExp(spec.except) : null });
    for (const glob of globs) {
      const segs = glob.split('/');
      if (segs[0] === '**') {
        out.everyFolder = true;
        for (const except of spec.except ?? []) if (except.endsWith('/**')) out.pruned.add(except.split('/')[0]);
        continue;
      }
      if (segs.length === 1) continue;
      if (/[*{}]/.test(segs[0])) throw new Error(`store ${store}: the first folder of ${glob} must be a plain name`);
      out.segments.set(segs[0], Math.max(out.segments.get(segs[0]) ?? 0, segs.length));
      const stores = out.folders.get(segs[0]) ?? new Set<StoreId>();
      stores.add(store);
      out.folders.set(segs[0], stores);
    }
  }
  return out;
}

const BY_KIND = new Map<RootKindId, KindFiles>(ROOT_KINDS.map((k) => [k.id, kindFiles(k.id)]));

function filesOf(kind: RootKindId): KindFiles {
  return BY_KIND.get(kind)!;
}

/** Which store a file under a store root belongs to (root-relative path), or null when not read. */
export function storeOf(rel: string, kind: RootKindId): StoreId | null {
  for (const m of filesOf(kind).matchers) {
    if (m.files.test(rel) && !m.except?.test(rel)) return m.store;
  }
  return null;
}

/**
 * The store whose files a folder under a store root holds (root-relative path, by its first folder), so
 * a problem found there (a link out of the image, an unreadable folder) is reported with that store;
 * null when several stores share the folder, or none.
 */
export function folderStore(rel: string, kind: RootKindId): StoreId | null {
  const stores = filesOf(kind).folders.get(rel.split('/')[0]);
  return stores?.size === 1 ? [...stores][0] : null;
}

/** Whether discovery lists a folder directly under a store root: one that holds files of some store. */
export function listsRootFolder(kind: RootKindId, name: string): boolean {
  const files = filesOf(kind);
  return files.everyFolder ? !files.pruned.has(name) : files.folders.has(name);
}

/**
 * How many folder levels below the root discovery lists in the tree of `first`, a folder directly under
 * the root: the folders of the deepest glob that starts with it. Per folder, so that a store whose files
 * lie deep (the checkpoints' git folders) does not make discovery list the other stores' trees as deep.
 */
export function folderDepth(kind: RootKindId, first: string): number {
  const files = filesOf(kind);
  const segments = files.segments.get(first) ?? 1;
  return Math.max(0, (files.everyFolder ? Math.max(DEEPEST, segments) : segments) - 1);
}
