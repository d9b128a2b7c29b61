/**
 * The DuckDB side: build `fleet.duckdb` from the hosts' models (warehouse/host-models.ts builds those of
 * each host whose partitions changed, batch by batch) by running the model files of `sql/` in name order
 * into a new database file that is renamed into place, each per-host table a view over its hosts'
 * Parquet files; and open it read-only for queries and exports, in the sandbox of
 * warehouse/query-sandbox.ts. Every instance is opened by warehouse/duckdb-open.ts, with extension
 * autoinstall and autoload off: these machines have no internet.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { noWarehouseError, warehouseFile } from '../core/layout.js';
import { hostModelDir, type HostModelsRecord, type ModelSchema } from '../core/model-layout.js';
import { buildHostModels, buildOnlyTables, hostModelsCurrent, hostSources } from './host-models.js';
import { classify, codeOf, type ModelStatement } from './model-statements.js';
import { type FileLists, outFiles, outRelative, partitionFiles, placeholders, runModels, setOutStatement } from './model-run.js';
import { modelsVersion } from './models-version.js';
import { mergedGroups } from './part-schemas.js';
import { replaceWarehouse } from './warehouse-swap.js';
import { readQuery } from './query-sandbox.js';
import { withSandboxedConnection } from './query-connection.js';
import { BINDING_FILES_STATEMENT, FILES_STATEMENT, setFleetVariables, storeFileLists } from './file-lists.js';
import { typedColumns } from './per-host-copy.js';
import { sqlIdent } from './sql-literal.js';

export { setFleetVariables } from './file-lists.js';
export { runModels, setOutStatement } from './model-run.js';

/** The files of the per-host table `table` of the fleet, relative to OUT: those of its hosts' records. */
function perHostFiles(outDir: string, table: string, records: HostModelsRecord[]): string[] {
  return records.flatMap((r) =>
    (r.relations[table] ?? []).map((name) => outRelative(outDir, `${hostModelDir(outDir, table, r.host)}/${name}`)),
  );
}

/**
 * The per-host relation `table` of the fleet: its hosts' files (the list `models.<table>` of `lists`, or a
 * literal list without), each column cast back to its type (a 128-bit integer is stored as text,
 * warehouse/host-models.ts), or no row with those columns.
 */
function perHostRelation(table: string, columns: Array<[string, string]>, files: string[], lists?: FileLists): string {
  if (files.length === 0) return `select ${typedColumns(columns, () => 'null')} limit 0`;
  return `select ${typedColumns(columns)} from read_parquet(${outFiles(files, lists, `models.${table}`)}, hive_partitioning = false)`;
}

/**
 * How the assembly of fleet.duckdb runs the model files: a per-host table (or a view the host build
 * stores, STORED_VIEWS) becomes a view over its hosts' files and the inserts that filled it are skipped,
 * as is every statement on a table only the host build uses (one a model file drops); the rest (views
 * over the partitions, macros, the fleet's own tables, comments) runs as written. With `lists`, the
 * per-host tables' lists of files are put in it at once, so that they are stored (warehouse/file-lists.ts)
 * before the views that name them are made, and a statement that may read rows runs between
 * FILES_STATEMENT and BINDING_FILES_STATEMENT (readsRows).
 */
export function assembly(
  outDir: string,
  schema: ModelSchema,
  records: HostModelsRecord[],
  buildOnly: Set<string>,
  lists?: FileLists,
) {
  const files = new Map(Object.keys(schema).map((table) => [table, perHostFiles(outDir, table, records)] as const));
  if (lists !== undefined) for (const [table, names] of files) if (names.length > 0) lists.set(`models.${table}`, names);
  const rewrite = (s: ModelStatement): string | null => {
    if (s.target === null) return s.sql;
    if (buildOnly.has(s.target) && s.kind !== 'other') return null;
    const columns = schema[s.target];
    if (columns === undefined) return s.sql;
    if (s.kind === 'create-table' || s.kind === 'create-view')
      return `create or replace view ${sqlIdent(s.target)} as ${perHostRelation(s.target, columns, files.get(s.target) ?? [], lists)}`;
    return s.kind === 'insert' || s.kind === 'drop-table' ? null : s.sql;
  };
  // without lists (a batch of a hunt, warehouse/host-batch-query.ts) the views name their files in literals
  if (lists === undefined) return rewrite;
  return (s: ModelStatement): string | null => {
    const sql = rewrite(s);
    return sql === null || !readsRows(sql) ? sql : `${FILES_STATEMENT};\n${sql};\n${BINDING_FILES_STATEMENT}`;
  };
}

/**
 * Whether a statement the assembly runs may read rows: all but views (bound, not run), comments, macros
 * and tables of constants (`stores`, `int_duplicate_rules`: no FROM or JOIN names a relation or function,
 * string literals aside). The assembly binds its views with only the first file of each list
 * (BINDING_FILES_STATEMENT); a statement that reads rows runs with every file (FILES_STATEMENT), so it
 * sees the whole fleet. Setting every list costs memory that grows with the fleet (docs/BENCHMARKS.md,
 * "The assembly's file lists"), so a table of constants does without.
 */
function readsRows(sql: string): boolean {
  const { kind } = classify(sql);
  if (kind === 'create-view' || kind === 'comment') return false;
  const code = codeOf(sql);
  if (/^create\s+(?:or\s+replace\s+)?(?:temp(?:orary)?\s+)?macro\s/i.test(code.trim())) return false;
  // a relation or function after the word FROM or JOIN, with or without a space between: `from"t"`,
  // `from read_csv(`; not a subquery's `(`, nor a function named from_...
  return /\b(?:from|join)\b\s*(?![\s(])/i.test(code);
}

/** What a build found that a load reports. */
export interface BuildSummary {
  /** Rows of `duplicates`: the secondary rows the duplicate rule dropped from events. */
  duplicatesDropped: number;
  /** The hosts whose models this build made (none current on disk): after a split, those no shard built. */
  hostsBuilt: string[];
}

/**
 * Builds OUT/fleet.duckdb: first the models of every host whose partitions or models version changed,
 * in batches (warehouse/host-models.ts), then the fleet's file, into a new file renamed over the old one.
 * `onHostModels` hears which hosts' models were built (none current on disk) and in how long.
 * `afterModels` runs on the new file's connection once the models are committed, before the rename (the
 * load runs the hunt pack there: hunt/build-hunts.ts), so what it adds is in place the moment the
 * warehouse is.
 */
export async function buildWarehouse(
  outDir: string,
  afterModels: (conn: DuckDBConnection) => Promise<void> = async () => {},
  onHostModels: (built: readonly string[], ms: number) => void = () => {},
): Promise<BuildSummary> {
  const version = await modelsVersion();
  const hosts = await hostSources(outDir);
  const t0 = Date.now();
  const { schema, built } = await buildHostModels(outDir, hosts, version);
  onHostModels(built, Date.now() - t0);
  const records = hosts.map((h) => {
    const r = hostModelsCurrent(outDir, h, version);
    if (r === null) throw new Error(`warehouse: the models of host ${h.host} were not written`);
    return r;
  });
  records.sort((a, b) => (a.host < b.host ? -1 : a.host > b.host ? 1 : 0));
  const files = await partitionFiles(outDir);
  // the parts of the hosts' records are those of their current manifests (hostModelsCurrent)
  const lists: FileLists = new Map();
  const vars = placeholders(outDir, { ...files, parquetGroups: mergedGroups(records.map((r) => r.event_parts)) }, true, lists);
  const buildOnly = await buildOnlyTables(vars);
  const rewrite = assembly(outDir, schema, records, buildOnly, lists);
  return replaceWarehouse(outDir, 'fleet', 'empty', async (conn) => {
    // One transaction for the whole build: a model file is many statements (every column's comment is
    // one), and each committed alone cost a WAL write; the new file is all or nothing anyway (renamed
    // into place).
    await conn.run(setOutStatement(outDir));
    await conn.run('begin transaction');
    // the views read their lists of files from a variable set from a table of the file, and are bound
    // with the first file of each (warehouse/file-lists.ts); what follows the models reads every file
    await storeFileLists(conn, lists);
    await conn.run(BINDING_FILES_STATEMENT);
    await runModels(conn, vars, rewrite);
    await conn.run(FILES_STATEMENT);
    await conn.run('commit');
    await conn.run('checkpoint');
    // counted on the build's own connection: a second instance on the new file cost a load 0.3 s
    const [[dropped]] = (await conn.runAndReadAll('select count(*) from duplicates')).getRows();
    await afterModels(conn);
    return { duplicatesDropped: Number(dropped), hostsBuilt: built };
  });
}

/** Result of a query: column names and rows as JSON-safe values. */
export interface QueryResult {
  columns: string[];
  rows: unknown[][];
}

/** Options of a query. */
export interface QueryOptions {
  /** Folders outside OUT the query may read too (`query --allow-read`), e.g. one that holds an IOC list. */
  allowRead?: readonly string[];
  /** Where DuckDB spills (an export's staging folder); default: a folder of this query (query-temp.ts). */
  tempDir?: string;
  /**
   * DuckDB's threads (default 1, warehouse/duckdb-open.ts querySettings). `export --format parquet-dataset`
   * asks for 1 whatever the default: a COPY into parts of a size with two threads fills its parts with row
   * groups out of the selection's order (measured).
   */
  threads?: 1 | 2;
}

/**
 * Runs `use` on a connection to OUT/fleet.duckdb, opened read-only in the query sandbox
 * (warehouse/query-connection.ts), its views' variables set first (warehouse/file-lists.ts): it reads
 * only the warehouse's files and the `allowRead` folders. Errors come out as one `query: ...` line.
 */
export async function withQueryConnection<T>(
  outDir: string,
  options: QueryOptions,
  use: (conn: DuckDBConnection) => Promise<T>,
): Promise<T> {
  const missing = noWarehouseError(outDir);
  if (missing !== null) throw new Error(`query: ${missing}`);
  const settings: Record<string, string> = { access_mode: 'READ_ONLY' };
  if (options.threads !== undefined) settings.threads = String(options.threads);
  return withSandboxedConnection(
    outDir,
    {
      file: warehouseFile(outDir),
      settings,
      allowRead: options.allowRead,
      tempDir: options.tempDir,
      // before the sandbox's lock: the views name OUT's files relative to OUT (sql/00_out_files.sql)
      prepare: (conn) => setFleetVariables(conn, outDir),
    },
    use,
  );
}

/** Runs one query (checked by the sandbox) on OUT/fleet.duckdb and reads its whole result, for tests and the load. */
export async function queryWarehouse(outDir: string, sql: string, options: QueryOptions = {}): Promise<QueryResult> {
  return withQueryConnection(outDir, options, async (conn) => {
    const reader = await readQuery(conn, sql);
    return { columns: reader.columnNames(), rows: reader.getRowsJson() as unknown[][] };
  });
}
