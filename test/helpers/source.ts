/** Test helpers: a Source over a fixture folder, and a reader's rows gathered into an array. */
import { cpSync, readdirSync, renameSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentId } from '../../src/core/root-kinds.js';
import type { Row, Source, SourceRole, StoreId } from '../../src/core/row.js';
import { STORE_ROLES } from '../../src/core/stores.js';
import { homeUser, logicalHome } from '../../src/discover/logical-home.js';
import type { Reader } from '../../src/readers/common/rows.js';

/** Absolute path of the repository root. */
export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Absolute path of `fixtures/<...parts>`. */
export function fixture(...parts: string[]): string {
  return path.join(REPO, 'fixtures', ...parts);
}

/** Every regular file under `dir`, recursively, sorted. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = path.join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * Copies a fixture image to `to`, renaming every folder named `dot-git` to `.git`: a nested `.git`
 * cannot be committed, so fixtures hold git folders (checkpoints) under that name.
 */
export function copyImage(from: string, to: string): void {
  cpSync(from, to, { recursive: true });
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const p = path.join(dir, name);
      if (!statSync(p).isDirectory()) continue;
      if (name === 'dot-git') renameSync(p, path.join(dir, '.git'));
      else walk(p);
    }
  };
  walk(to);
}

export interface SourceOptions {
  store: StoreId;
  imageRoot: string;
  /** Absolute store root (globalStorage/saoudrizwan.claude-dev or .cline/data). */
  root: string;
  /** The home's folder in the image, as discovery finds it (default `home/u`); `home` and `user` follow from it as in discovery. */
  home?: string;
  client?: string;
  /** The agent whose store it is (default `cline`; null for the editor's state databases). */
  agent?: AgentId | null;
  /** Default: the store's role in the store specification. */
  role?: SourceRole;
  host?: string;
  /** Files of the source; default: every file under root. */
  files?: string[];
}

/** A Source as discovery would build it, for one fixture folder. */
export function makeSource(opts: SourceOptions): Source {
  const homeFolder = opts.home ?? 'home/u';
  const home = logicalHome(homeFolder);
  return {
    host: opts.host ?? 'test-host',
    store: opts.store,
    role: opts.role ?? STORE_ROLES[opts.store],
    imageRoot: opts.imageRoot,
    home,
    homeFolder,
    user: homeUser(home),
    client: opts.client ?? 'cline',
    agent: opts.agent === undefined ? 'cline' : opts.agent,
    root: opts.root,
    files: (opts.files ?? listFiles(opts.root)).slice().sort(),
  };
}

/** All rows a reader yields for a source. */
export async function collect(reader: Reader, source: Source): Promise<Row[]> {
  const rows: Row[] = [];
  for await (const row of reader(source)) rows.push(row);
  return rows;
}
