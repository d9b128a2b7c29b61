/**
 * The reader fixtures as whole-store inputs, for the suites that run every reader directly on mutated
 * copies of its fixture (test/hostile/fuzz.test.ts, test/hostile/deep-values.test.ts): each store, its
 * fixture image, its store root inside the image, and the files of that store under the root.
 */
import * as path from 'node:path';
import { storeOf } from '../../src/discover/discover.js';
import type { StoreId } from '../../src/core/row.js';
import { listFiles } from './source.js';

export interface Target {
  store: StoreId;
  /** Fixture folder name: `fixtures/<img>/img`. */
  img: string;
  /** Store root inside the image, `/` separated. */
  root: string;
  kind: 'globalStorage' | 'cline';
}

const CLINE = 'home/u/.cline/data';

/** One target per store that has files. */
export const TARGETS: Target[] = [
  { store: 'vscode-tasks', img: 'vscode-tasks', root: 'C/Users/alice/AppData/Roaming/Code/User/globalStorage/saoudrizwan.claude-dev', kind: 'globalStorage' },
  { store: 'cline-tasks', img: 'cline-tasks', root: CLINE, kind: 'cline' },
  { store: 'sdk-sessions', img: 'sdk-sessions', root: CLINE, kind: 'cline' },
  { store: 'sessions-db', img: 'sessions-db', root: CLINE, kind: 'cline' },
  { store: 'search-index', img: 'search-index', root: CLINE, kind: 'cline' },
  { store: 'input-history', img: 'input-history', root: CLINE, kind: 'cline' },
  { store: 'hooks-log', img: 'hooks-log', root: CLINE, kind: 'cline' },
  { store: 'sync-queue', img: 'sync-queue', root: 'home/u/.config/Code/User/globalStorage/saoudrizwan.claude-dev', kind: 'globalStorage' },
  { store: 'settings', img: 'settings', root: CLINE, kind: 'cline' },
  { store: 'credentials', img: 'credentials', root: CLINE, kind: 'cline' },
];

/** The files of the target's store under its root in a copy of the image at `imageRoot`, as discovery assigns them. */
export function targetFiles(t: Target, imageRoot: string): { root: string; files: string[] } {
  const root = path.join(imageRoot, ...t.root.split('/'));
  const files = listFiles(root).filter((f) => storeOf(path.relative(root, f).split(path.sep).join('/'), t.kind) === t.store);
  return { root, files };
}
