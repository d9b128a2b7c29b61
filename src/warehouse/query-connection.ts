/**
 * The one way clinetrail opens a connection for a question (query, export, hunt, report, the MCP server):
 * a new DuckDB instance (warehouse/duckdb-open.ts) on OUT/fleet.duckdb read-only (warehouse/build.ts
 * withQueryConnection) or in memory over one batch of hosts (warehouse/host-batch-query.ts), its times in
 * UTC whatever TZ is, `prepare` run on it (the variables of fleet.duckdb's views, or a batch's assembly),
 * then closed in the query sandbox (warehouse/query-sandbox.ts): it reads only the warehouse's files and
 * the `allowRead` folders. Spills go to `tempDir`, or to a temporary folder of this query
 * (warehouse/query-temp.ts) removed at the end. Errors come out as one `query: ...` line.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { openDuckDB, querySettings } from './duckdb-open.js';
import { allowedDirectories, queryError, sandboxSettings } from './query-sandbox.js';
import { createQueryTemp } from './query-temp.js';
import { sqlString } from './sql-literal.js';

/** The SQL literal of a setting's value. */
function settingValue(value: string | boolean | readonly string[]): string {
  if (typeof value === 'boolean') return String(value);
  return typeof value === 'string' ? sqlString(value) : `[${value.map(sqlString).join(', ')}]`;
}

/** What a sandboxed connection is opened on, and how it is made ready before the sandbox closes it. */
export interface SandboxedOpen {
  /** The database file, or ':memory:'. */
  file: string;
  /** Settings of the instance beside a question's (warehouse/duckdb-open.ts querySettings): access mode, threads. */
  settings: Record<string, string>;
  /** Folders outside OUT the connection may read too. */
  allowRead?: readonly string[];
  /** Where DuckDB spills; default: a temporary folder of this query. */
  tempDir?: string;
  /** Runs on the connection before the sandbox's settings (which forbid what it may need to do). */
  prepare: (conn: DuckDBConnection) => Promise<void>;
  /** Hears the connection as soon as it exists, so a caller can interrupt it. */
  onOpen?: (conn: DuckDBConnection) => void;
}

/** Runs `use` on a connection opened as `open` says, for OUT `outDir` (see the head of this file). */
export async function withSandboxedConnection<T>(
  outDir: string,
  open: SandboxedOpen,
  use: (conn: DuckDBConnection) => Promise<T>,
): Promise<T> {
  const allowed = await allowedDirectories(outDir, open.allowRead ?? []);
  const temp = open.tempDir ? { dir: open.tempDir, remove: async () => {} } : await createQueryTemp(outDir);
  try {
    const { instance, conn } = await openDuckDB(open.file, { ...querySettings(), ...open.settings, temp_directory: temp.dir });
    open.onOpen?.(conn);
    try {
      await conn.run("set TimeZone = 'UTC'");
      await open.prepare(conn);
      for (const [name, value] of sandboxSettings(allowed)) await conn.run(`set ${name} = ${settingValue(value)}`);
      return await use(conn);
    } catch (err) {
      throw queryError(err);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  } finally {
    await temp.remove();
  }
}
