/**
 * How clinetrail opens DuckDB: every instance with extension autoinstall and autoload off (these machines
 * have no internet), its memory limit (CLINETRAIL_DUCKDB_MEMORY, default 1GB) and two threads.
 * warehouse/build.ts opens the model build and the queries through it; a question's connection
 * (warehouse/query-connection.ts) asks for less: querySettings().
 */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';

/** Environment variable that sets the memory limit of every DuckDB instance (a DuckDB size: 4GB, 512MB). */
export const MEMORY_ENV = 'CLINETRAIL_DUCKDB_MEMORY';

/** DuckDB's memory limit: CLINETRAIL_DUCKDB_MEMORY, or 1GB. */
export function duckdbMemoryLimit(): string {
  return process.env[MEMORY_ENV] ?? '1GB';
}

/**
 * A question's DuckDB (query, export, hunt, report, the MCP server): 600MB unless CLINETRAIL_DUCKDB_MEMORY
 * says otherwise, and one thread. Such a connection binds views over every file of the fleet and streams
 * or sorts what it reads; what it holds beyond that limit spills to its temporary folder, and a thread's
 * buffers count towards the process's memory (docs/CLI.md "Memory of a query", docs/BENCHMARKS.md).
 */
export function queryMemoryLimit(): string {
  return process.env[MEMORY_ENV] ?? '600MB';
}

/** The settings of a question's instance beside every instance's (see queryMemoryLimit). */
export function querySettings(): Record<string, string> {
  return { memory_limit: queryMemoryLimit(), threads: '1' };
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
 * A connection to a new instance with clinetrail's settings. With `footerCache`, Parquet footers are
 * cached (a setting of the Parquet extension, so not an instance option): the build of a batch of hosts'
 * models (warehouse/host-models.ts) scans each of its few parts several times. Nothing else turns it on:
 * the cache keeps every footer it reads for the instance's life, outside the memory limit, so a question or
 * an assembly over every part of the fleet held ~19 KB per part (docs/BENCHMARKS.md "The footer cache").
 */
export async function openDuckDB(
  file: string,
  extra: Record<string, string>,
  options: { footerCache?: boolean } = {},
): Promise<{ instance: DuckDBInstance; conn: DuckDBConnection }> {
  // imported here, not at the top: the library costs RSS (docs/BENCHMARKS.md "Behind the code") that a load needs only after
  // its partitions are written, when the workers' memory is gone
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(file, instanceOptions(extra));
  const conn = await instance.connect();
  if (options.footerCache !== true) return { instance, conn };
  try {
    await conn.run('set parquet_metadata_cache = true');
  } catch (err) {
    conn.closeSync();
    instance.closeSync();
    throw err;
  }
  return { instance, conn };
}
