/**
 * OUT/fleet.duckdb is never written in place: queries may hold it open read-only, and DuckDB lets no
 * writer in beside them. A writer (the model build, `clinetrail hunt`) fills a new file in OUT/tmp, empty
 * or a copy of the current one, and renames it over fleet.duckdb: a query that opened the old file reads
 * on, and a failure leaves the old file as it was, with no half-written one beside it.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { openDuckDB } from './duckdb-open.js';

/**
 * Fills `OUT/tmp/<prefix>.<pid>.duckdb` with `fill` and renames it over OUT/fleet.duckdb. `from`:
 * start from an empty file or a copy of the current warehouse. The caller holds the OUT lock, so any other
 * `<prefix>.<number>.duckdb` in OUT/tmp is a killed writer's leftover and is removed first.
 */
export async function replaceWarehouse<T>(
  outDir: string,
  prefix: string,
  from: 'empty' | 'current',
  fill: (conn: DuckDBConnection) => Promise<T>,
): Promise<T> {
  const tmpDir = path.join(outDir, 'tmp');
  await fs.mkdir(path.join(tmpDir, 'duckdb'), { recursive: true });
  const leftover = new RegExp(`^${prefix.replace(/\./g, '\\.')}\\.\\d+\\.duckdb(\\.wal)?$`);
  for (const name of await fs.readdir(tmpDir)) {
    if (leftover.test(name)) await fs.rm(path.join(tmpDir, name), { force: true });
  }
  const final = path.join(outDir, 'fleet.duckdb');
  const tmp = path.join(tmpDir, `${prefix}.${process.pid}.duckdb`);
  if (from === 'current') await fs.copyFile(final, tmp);
  const { instance, conn } = await openDuckDB(tmp, { temp_directory: path.join(tmpDir, 'duckdb') });
  let result: T;
  try {
    result = await fill(conn);
  } catch (err) {
    conn.closeSync();
    instance.closeSync();
    await Promise.all([fs.rm(tmp, { force: true }), fs.rm(`${tmp}.wal`, { force: true })]);
    throw err;
  }
  conn.closeSync();
  instance.closeSync();
  await fs.rename(tmp, final);
  await fs.rm(`${final}.wal`, { force: true });
  return result;
}
