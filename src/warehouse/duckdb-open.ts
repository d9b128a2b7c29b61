/**
 * How clinetrail opens DuckDB: every instance with extension autoinstall and autoload off (these machines
 * have no internet), its memory limit (CLINETRAIL_DUCKDB_MEMORY, default 1GB), two threads and the
 * Parquet footer cache. warehouse/build.ts opens the model build and the queries through it.
 */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';

/** Environment variable that sets the memory limit of every DuckDB instance (a DuckDB size: 4GB, 512MB). */
export const MEMORY_ENV = 'CLINETRAIL_DUCKDB_MEMORY';

/** DuckDB's memory limit: CLINETRAIL_DUCKDB_MEMORY, or 1GB. */
export function duckdbMemoryLimit(): string {
  return process.env[MEMORY_ENV] ?? '1GB';
}

/** Settings of every DuckDB instance clinetrail opens, plus `extra` (access mode, temporary folder). */
function instanceOptions(extra: Record<string, string>): Record<string, string> {
  return {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    memory_limit: duckdbMemoryLimit(),
    threads: '2',
    // Local Parquet parts gain nothing from DuckDB's cache of file bytes, which held a sixth to a
    // quarter of the model build's memory (docs/BENCHMARKS.md "Behind the code").
    enable_external_file_cache: 'false',
    ...extra,
  };
}

/**
 * A connection to a new instance with clinetrail's settings. Parquet footers are cached (a setting of
 * the Parquet extension, so not an instance option): the models scan every part several times, and a
 * fleet of 1,000 tiny homes has 1,000 parts.
 */
export async function openDuckDB(
  file: string,
  extra: Record<string, string>,
): Promise<{ instance: DuckDBInstance; conn: DuckDBConnection }> {
  // imported here, not at the top: the library costs RSS (docs/BENCHMARKS.md "Behind the code") that a load needs only after
  // its partitions are written, when the workers' memory is gone
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(file, instanceOptions(extra));
  const conn = await instance.connect();
  try {
    await conn.run('set parquet_metadata_cache = true');
  } catch (err) {
    conn.closeSync();
    instance.closeSync();
    throw err;
  }
  return { instance, conn };
}
