/**
 * Where the model files are and the version of the models: a hash of the files of `sql/` and of the
 * build code's module graph (warehouse/build.ts and what it imports). A load compares it with the one
 * recorded for fleet.duckdb (load/state.ts) without loading the build module, which loads DuckDB.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { folderVersion, moduleGraphVersion } from '../core/code-version.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** `.ts` when run from the sources (the tests), `.js` from dist/. */
const EXTENSION = path.extname(fileURLToPath(import.meta.url));

/** `sql/` beside `src/`, from the sources (src/warehouse) or from `dist/src/warehouse`. */
export const SQL_DIR =
  [path.resolve(HERE, '..', '..', 'sql'), path.resolve(HERE, '..', '..', '..', 'sql')].find((d) => existsSync(d)) ??
  path.resolve(HERE, '..', '..', 'sql');

/** Hash of the model files and of the build code: a change means fleet.duckdb must be rebuilt. */
export async function modelsVersion(): Promise<string> {
  const sql = await folderVersion(SQL_DIR, /^\d\d_.+\.sql$/);
  const code = await moduleGraphVersion(path.resolve(HERE, '..'), [`warehouse/build${EXTENSION}`]);
  return `${sql}-${code}`;
}
