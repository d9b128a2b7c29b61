/**
 * The reader fixtures as whole-store inputs, for the suites that run every reader directly on mutated
 * copies of its fixture (test/hostile/fuzz.test.ts, test/hostile/deep-values.test.ts): each store of the
 * store specification (core/stores.ts) that has files, its fixture image `fixtures/<store>/img`, the
 * root in it of the store's first root kind found there, and the files of that store under the root.
 */
import { readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { ROOT_KINDS, rootKindsAt, type RootKindId } from '../../src/core/root-kinds.js';
import { STORES, type StoreId, type StoreSpec } from '../../src/core/stores.js';
import { storeOf } from '../../src/discover/discover.js';
import { fixture, listFiles } from './source.js';

export interface Target {
  store: StoreId;
  /** Fixture folder name: `fixtures/<img>/img`. */
  img: string;
  /** Store root inside the image, `/` separated. */
  root: string;
  kind: RootKindId;
}

/** The first store root of `kind` in the image (folders in name order, breadth first), image-relative; null when none. */
function findRoot(imageRoot: string, kind: RootKindId): string | null {
  const spec = ROOT_KINDS.find((k) => k.id === kind)!;
  const sub: string | undefined = 'sub' in spec ? spec.sub : undefined;
  let level = [imageRoot];
  while (level.length > 0) {
    const next: string[] = [];
    for (const dir of level) {
      for (const name of readdirSync(dir).sort()) {
        const full = path.join(dir, name);
        if (!statSync(full).isDirectory()) continue;
        if (rootKindsAt(path.basename(dir), name).some((k) => k.id === kind)) {
          const root = sub === undefined ? full : path.join(full, sub);
          return path.relative(imageRoot, root).split(path.sep).join('/');
        }
        next.push(full);
      }
    }
    level = next;
  }
  return null;
}

function targetOf(spec: StoreSpec): Target {
  const imageRoot = fixture(spec.id, 'img');
  for (const kind of Object.keys(spec.files) as RootKindId[]) {
    const root = findRoot(imageRoot, kind);
    if (root !== null) return { store: spec.id as StoreId, img: spec.id, root, kind };
  }
  throw new Error(`fixtures/${spec.id}/img holds no store root of ${Object.keys(spec.files).join(', ')}`);
}

/** One target per store that has files. */
export const TARGETS: Target[] = (STORES as readonly StoreSpec[]).filter((s) => Object.keys(s.files).length > 0).map(targetOf);

/** The files of the target's store under its root in a copy of the image at `imageRoot`, as discovery assigns them. */
export function targetFiles(t: Target, imageRoot: string): { root: string; files: string[] } {
  const root = path.join(imageRoot, ...t.root.split('/'));
  const files = listFiles(root).filter((f) => storeOf(path.relative(root, f).split(path.sep).join('/'), t.kind) === t.store);
  return { root, files };
}
