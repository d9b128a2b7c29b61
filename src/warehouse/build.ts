/**
 * The DuckDB side: build `fleet.duckdb` by running the model files of `sql/` in name order into a new
 * database file that is renamed into place, and open it read-only for queries and exports, in the
 * sandbox of warehouse/query-sandbox.ts. Every instance is opened by warehouse/duckdb-open.ts, with
 * extension autoinstall and autoload off: these machines have no internet.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { fileDirOf, noWarehouseError, partitionDirs, warehouseFile } from '../core/layout.js';
import { readManifest } from '../core/manifest.js';
import { COLUMNS, columnList, FILE_SHAPE, RUN_SHAPE, SECRET_SHAPE } from '../core/records.js';
import { SQL_DIR } from './models-version.js';
import { createQueryTemp } from './query-temp.js';
import { openDuckDB as open } from './duckdb-open.js';
import { replaceWarehouse } from './warehouse-swap.js';
import { recordCommentPlaceholders } from './record-comments.js';
import { sqlString } from './sql-literal.js';
import { specPlaceholders } from './stores-table.js';
import { testStop } from '../core/test-stops.js';
import { allowedDirectories, queryError, readQuery, sandboxSettings } from './query-sandbox.js';

type ColumnList = ReadonlyArray<readonly [string, string]>;

/** An empty relation with the given columns, for a warehouse with nothing of that kind yet. */
function emptyRelation(columns: ColumnList): string {
  return `(select ${columns.map(([name, type]) => `null::${type} as ${name}`).join(', ')} limit 0)`;
}

/** The `columns = {...}` argument of read_json for a column list. */
function jsonColumns(columns: ColumnList): string {
  return `{${columns.map(([name, type]) => `${name}: '${type}'`).join(', ')}}`;
}

/** Columns of the records beside the rows (core/records.ts). */
const FILE_COLUMNS = columnList(FILE_SHAPE);
const SECRET_COLUMNS = columnList(SECRET_SHAPE);
const RUN_COLUMNS = columnList(RUN_SHAPE);

/**
 * The variable that holds the absolute OUT on clinetrail's connections: the macros of sql/00_out_files.sql
 * put it before the paths relative to OUT that the views hold.
 */
export const OUT_VARIABLE = 'clinetrail_out';

/** The statement that points a connection's views at `outDir` (sql/00_out_files.sql). */
export function setOutStatement(outDir: string): string {
  return `set variable ${OUT_VARIABLE} = ${sqlString(path.resolve(outDir))}`;
}

/** A path of OUT's, relative to OUT with `/` separators: what the views hold (sql/00_out_files.sql). */
function outRelative(outDir: string, file: string): string {
  return path.relative(outDir, file).split(path.sep).join('/');
}

/**
 * The files of the current generation of every partition (core/manifest.ts), relative to OUT, sorted.
 * Older generations and partitions without a manifest are left out: they belong to the previous warehouse.
 */
async function partitionFiles(outDir: string): Promise<{ parquet: string[]; inventory: string[]; secrets: string[] }> {
  const found = { parquet: [] as string[], inventory: [] as string[], secrets: [] as string[] };
  const rel = (dir: string, name: string) => outRelative(outDir, path.join(fileDirOf(dir, name), name));
  for (const dir of await partitionDirs(outDir)) {
    const m = readManifest(dir);
    if (m === null) continue;
    found.parquet.push(...m.parts.map((f) => rel(dir, f.name)));
    found.inventory.push(rel(dir, m.inventory.name));
    if (m.secrets_file) found.secrets.push(rel(dir, m.secrets_file.name));
  }
  for (const files of Object.values(found)) files.sort();
  return found;
}

/** A DuckDB list of file paths. */
function fileList(files: string[]): string {
  return `[${files.map(sqlString).join(', ')}]`;
}

/** The row schema's columns (core/columns.ts), in its order. */
const EVENT_COLUMNS: ColumnList = COLUMNS.map((c) => [c.name, c.sql] as const);

/**
 * The rows of the Parquet parts, with the row schema's columns in its order, matched by name: a part
 * written before a column existed gives null there. Every partition of a host given to a load is read
 * again when the code changes (load/state.ts), but a host absent from the input, or kept after an empty
 * or encrypted image, keeps its parts as an older clinetrail wrote them; read by position, the first
 * part's schema would drop the new column from every row, or fail on the next part.
 */
function eventsSource(parquet: string[]): string {
  const parts = `read_parquet(${outFiles(parquet)}, hive_partitioning = false, union_by_name = true)`;
  return `(select * from ${emptyRelation(EVENT_COLUMNS)} union all by name select * from ${parts})`;
}

/** The files of OUT at `files` (relative to OUT), through the macro of sql/00_out_files.sql. */
function outFiles(files: string[]): string {
  return `out_files(${fileList(files)})`;
}

/**
 * The placeholders model files may use, resolved to the files under OUT, named relative to OUT
 * (sql/00_out_files.sql). The partitions' files are listed by name rather than by a glob: each scan of
 * a glob lists every partition folder again, and the models scan raw_events several times. fleet.duckdb
 * is rebuilt whenever a partition changes (load/models.ts), so the list is never out of date. The store specification gives the rest
 * (warehouse/stores-table.ts specPlaceholders).
 */
async function placeholders(outDir: string): Promise<Record<string, string>> {
  const runs = path.join(outDir, 'state', 'runs');
  const files = await partitionFiles(outDir);
  return {
    events_source: files.parquet.length ? eventsSource(files.parquet) : emptyRelation(EVENT_COLUMNS),
    files_source: files.inventory.length
      ? `read_json(${outFiles(files.inventory)}, format = 'newline_delimited', columns = ${jsonColumns(FILE_COLUMNS)})`
      : emptyRelation(FILE_COLUMNS),
    secrets_source: files.secrets.length
      ? `read_json(${outFiles(files.secrets)}, format = 'newline_delimited', columns = ${jsonColumns(SECRET_COLUMNS)})`
      : emptyRelation(SECRET_COLUMNS),
    ...specPlaceholders(),
    ...recordCommentPlaceholders(),
    runs_source: existsSync(runs)
      ? `read_json(out_file(${sqlString('state/runs/*.json')}), format = 'newline_delimited', columns = ${jsonColumns(RUN_COLUMNS)})`
      : emptyRelation(RUN_COLUMNS),
  };
}

/** Model files of `sql/`, in name order. */
export async function modelFiles(): Promise<string[]> {
  return (await fs.readdir(SQL_DIR)).filter((f) => /^\d\d_.+\.sql$/.test(f)).sort();
}

/** The text of one model file with its `{{name}}` placeholders substituted. */
export async function modelSql(file: string, vars: Record<string, string>): Promise<string> {
  return (await fs.readFile(path.join(SQL_DIR, file), 'utf8')).replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    if (!(name in vars)) throw new Error(`warehouse: ${file} uses unknown placeholder {{${name}}}`);
    return vars[name];
  });
}

/**
 * The first line of a model file that runs in rounds: the build runs it again and again, with `{{round}}`
 * = 1, 2, ..., until one run of its statements inserts (or changes) no row. There is no cap: such a
 * file must insert only rows that make the next run's input smaller (the duplicate rule's files pair rows
 * that no earlier round paired, sql/21).
 */
export const REPEAT_LINE = '-- repeat: until a run inserts no row';

/** Runs each statement of `text` in turn; returns the rows they inserted, updated or deleted. */
async function runCountingRows(conn: DuckDBConnection, text: string): Promise<number> {
  const statements = await conn.extractStatements(text);
  let changed = 0;
  for (let i = 0; i < statements.count; i++) {
    const result = await (await statements.prepare(i)).run();
    changed += result.rowsChanged;
  }
  return changed;
}

/** Runs every model file against `conn` in name order. A file starting with REPEAT_LINE runs until a run changes no row. */
export async function runModels(conn: DuckDBConnection, vars: Record<string, string>): Promise<void> {
  for (const file of await modelFiles()) {
    try {
      const repeats = (await fs.readFile(path.join(SQL_DIR, file), 'utf8')).startsWith(`${REPEAT_LINE}\n`);
      if (!repeats) {
        await conn.run(await modelSql(file, vars));
        continue;
      }
      for (let round = 1; ; round++) {
        if ((await runCountingRows(conn, await modelSql(file, { ...vars, round: String(round) }))) === 0) break;
      }
    } catch (err) {
      throw new Error(`warehouse: model ${file} failed: ${(err as Error).message}`);
    }
    testStop('during-models');
  }
}

/** What a build found that a load reports. */
export interface BuildSummary {
  /** Rows of `duplicates`: the secondary rows the duplicate rule dropped from events. */
  duplicatesDropped: number;
}

/**
 * Builds OUT/fleet.duckdb from the partitions: into a new file, then renamed over the old one. `afterModels`
 * runs on the new file's connection once the models are committed, before the rename (the load runs the hunt
 * pack there: hunt/build-hunts.ts), so what it adds is in place the moment the warehouse is.
 */
export async function buildWarehouse(
  outDir: string,
  afterModels: (conn: DuckDBConnection) => Promise<void> = async () => {},
): Promise<BuildSummary> {
  return replaceWarehouse(outDir, 'fleet', 'empty', async (conn) => {
    // One transaction for the whole build: a model file is many statements (every column's comment is
    // one), and each committed alone cost a WAL write; the new file is all or nothing anyway (renamed
    // into place). Faster for a few MB more of RSS (docs/BENCHMARKS.md "Behind the code").
    await conn.run(setOutStatement(outDir));
    await conn.run('begin transaction');
    await runModels(conn, await placeholders(outDir));
    await conn.run('commit');
    await conn.run('checkpoint');
    // counted on the build's own connection: a second instance on the new file cost a load 0.3 s
    const [[dropped]] = (await conn.runAndReadAll('select count(*) from duplicates')).getRows();
    await afterModels(conn);
    return { duplicatesDropped: Number(dropped) };
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
   * DuckDB's threads (default 2): 1 for a COPY into parts of a size (export --format parquet-dataset), which
   * with two threads fills its parts with row groups out of the selection's order (measured).
   */
  threads?: 1 | 2;
}

/** The SQL literal of a setting's value. */
function settingValue(value: string | boolean | readonly string[]): string {
  if (typeof value === 'boolean') return String(value);
  return typeof value === 'string' ? sqlString(value) : fileList([...value]);
}

/**
 * Runs `use` on a connection to OUT/fleet.duckdb, opened read-only in the query sandbox
 * (warehouse/query-sandbox.ts): it reads only the warehouse's files and the `allowRead` folders, and
 * DuckDB formats times in UTC whatever TZ is. Spills go to `tempDir`, or to a temporary folder of this
 * query (warehouse/query-temp.ts) removed at the end. Errors come out as one `query: ...` line.
 */
export async function withQueryConnection<T>(
  outDir: string,
  options: QueryOptions,
  use: (conn: DuckDBConnection) => Promise<T>,
): Promise<T> {
  const missing = noWarehouseError(outDir);
  if (missing !== null) throw new Error(`query: ${missing}`);
  const file = warehouseFile(outDir);
  const allowed = await allowedDirectories(outDir, options.allowRead ?? []);
  const temp = options.tempDir ? { dir: options.tempDir, remove: async () => {} } : await createQueryTemp(outDir);
  try {
    const settings: Record<string, string> = { access_mode: 'READ_ONLY', temp_directory: temp.dir };
    if (options.threads !== undefined) settings.threads = String(options.threads);
    const { instance, conn } = await open(file, settings);
    try {
      // before the sandbox's lock: the views name OUT's files relative to OUT (sql/00_out_files.sql)
      await conn.run(setOutStatement(outDir));
      await conn.run("set TimeZone = 'UTC'");
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

/** Runs one query (checked by the sandbox) on OUT/fleet.duckdb and reads its whole result, for tests and the load. */
export async function queryWarehouse(outDir: string, sql: string, options: QueryOptions = {}): Promise<QueryResult> {
  return withQueryConnection(outDir, options, async (conn) => {
    const reader = await readQuery(conn, sql);
    return { columns: reader.columnNames(), rows: reader.getRowsJson() as unknown[][] };
  });
}
