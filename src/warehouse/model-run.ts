/**
 * How the model files of `sql/` run: their placeholders resolved to the files a build reads, then each
 * file's statements in name order, those after a REPEAT_LINE again and again until a round changes
 * no row. The same files run in three ways: as written over the whole fleet (the tests'
 * in-memory databases), as written over a batch of hosts (warehouse/host-models.ts), and as the assembly
 * of fleet.duckdb, which turns the relations the hosts' builds wrote into views over their files
 * (warehouse/build.ts): the assembly passes its own `rewrite` of a statement.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { fileDirOf, partitionDirs, runsDir } from '../core/layout.js';
import { readManifest } from '../core/manifest.js';
import { COLUMNS, columnList, FILE_SHAPE, RUN_SHAPE, SECRET_SHAPE } from '../core/records.js';
import { testStop } from '../core/test-stops.js';
import { type ModelStatement, modelStatements } from './model-statements.js';
import { SQL_DIR } from './models-version.js';
import { recordCommentPlaceholders } from './record-comments.js';
import { sqlString } from './sql-literal.js';
import { specPlaceholders } from './stores-table.js';

export type ColumnList = ReadonlyArray<readonly [string, string]>;

/** An empty relation with the given columns, for a warehouse with nothing of that kind yet. */
export function emptyRelation(columns: ColumnList): string {
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
export function outRelative(outDir: string, file: string): string {
  return path.relative(outDir, file).split(path.sep).join('/');
}

/** The partitions' files a build reads, relative to OUT: Parquet parts, inventories and secrets files. */
export interface SourceFiles {
  parquet: string[];
  /** `parquet` grouped by schema (warehouse/part-schemas.ts), when known: each group is read by position. */
  parquetGroups?: string[][];
  inventory: string[];
  secrets: string[];
}

/**
 * The files of the current generation of every partition (core/manifest.ts), relative to OUT, sorted.
 * Older generations and partitions without a manifest are left out: they belong to the previous warehouse.
 */
export async function partitionFiles(outDir: string): Promise<SourceFiles> {
  const found: SourceFiles = { parquet: [], inventory: [], secrets: [] };
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

/** Named lists of files relative to OUT, filled as a build writes its views' text (warehouse/file-lists.ts). */
export type FileLists = Map<string, string[]>;

/** A DuckDB list of file paths. */
function fileList(files: string[]): string {
  return `[${files.map(sqlString).join(', ')}]`;
}

/**
 * The files of OUT at `files` (relative to OUT), through a macro of sql/00_out_files.sql: with `lists`, as
 * the list `name` of them, which the build stores in fleet.duckdb (warehouse/file-lists.ts); without, as
 * a literal list.
 */
export function outFiles(files: string[], lists?: FileLists, name?: string): string {
  if (lists === undefined || name === undefined) return `out_files(${fileList(files)})`;
  lists.set(name, files);
  return `out_list(${sqlString(name)})`;
}

/** The row schema's columns (core/columns.ts), in its order. */
const EVENT_COLUMNS: ColumnList = COLUMNS.map((c) => [c.name, c.sql] as const);

/**
 * The rows of the Parquet parts, with the row schema's columns in its order, matched by name: a part
 * written before a column existed gives null there. Every partition of a host given to a load is read
 * again when the code changes (load/state.ts), but a host absent from the input, or kept after an empty
 * or encrypted image, keeps its parts as an older clinetrail wrote them; read by position, the first
 * part's schema would drop the new column from every row, or fail on the next part. A build that knows
 * the parts' schemas (`groups`, warehouse/part-schemas.ts) reads each group by position instead: binding
 * union_by_name opens every part, on every query.
 */
function eventsSource(parquet: string[], groups: string[][] | undefined, lists?: FileLists): string {
  const reads =
    groups === undefined
      ? [`read_parquet(${outFiles(parquet, lists, 'parquet')}, hive_partitioning = false, union_by_name = true)`]
      : groups.map((g, i) => `read_parquet(${outFiles(g, lists, `parquet.${i}`)}, hive_partitioning = false)`);
  return `(select * from ${emptyRelation(EVENT_COLUMNS)}${reads.map((r) => ` union all by name select * from ${r}`).join('')})`;
}

/**
 * The placeholders model files may use, resolved to the given files under OUT, named relative to OUT
 * (sql/00_out_files.sql). The partitions' files are listed by name rather than by a glob: each scan of
 * a glob lists every partition folder again, and the models scan raw_events several times. A build
 * follows every partition change (load/models.ts), so the list is never out of date. `runs`: whether
 * `raw_runs` reads OUT/state/runs; the build of a batch of hosts gives it no run, so no model of a
 * host can depend on the fleet's run records. The store specification gives the rest
 * (warehouse/stores-table.ts specPlaceholders). With `lists`, the files are named by lists it is given
 * (`outFiles`), as fleet.duckdb names them.
 */
export function placeholders(outDir: string, files: SourceFiles, runs: boolean, lists?: FileLists): Record<string, string> {
  return {
    events_source: files.parquet.length ? eventsSource(files.parquet, files.parquetGroups, lists) : emptyRelation(EVENT_COLUMNS),
    files_source: files.inventory.length
      ? `read_json(${outFiles(files.inventory, lists, 'inventory')}, format = 'newline_delimited', columns = ${jsonColumns(FILE_COLUMNS)})`
      : emptyRelation(FILE_COLUMNS),
    secrets_source: files.secrets.length
      ? `read_json(${outFiles(files.secrets, lists, 'secrets')}, format = 'newline_delimited', columns = ${jsonColumns(SECRET_COLUMNS)})`
      : emptyRelation(SECRET_COLUMNS),
    ...specPlaceholders(),
    ...recordCommentPlaceholders(),
    runs_source:
      runs && existsSync(runsDir(outDir))
        ? `read_json(out_file(${sqlString('state/runs/*.json')}), format = 'newline_delimited', columns = ${jsonColumns(RUN_COLUMNS)})`
        : emptyRelation(RUN_COLUMNS),
  };
}

/** Model files of `dir` (`sql/`, or a copy the SQL lint checks), in name order: `NN_name.sql`. */
export async function modelFiles(dir: string = SQL_DIR): Promise<string[]> {
  return (await fs.readdir(dir)).filter((f) => /^\d\d_.+\.sql$/.test(f)).sort();
}

/** `text` (of model file `file`) with its `{{name}}` placeholders substituted. */
export function substituted(file: string, text: string, vars: Record<string, string>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    if (!(name in vars)) throw new Error(`warehouse: ${file} uses unknown placeholder {{${name}}}`);
    return vars[name];
  });
}

/**
 * The line of a model file after which its statements run in rounds: the build runs them again and
 * again, with `{{round}}` = 1, 2, ..., until one run of them inserts (or changes) no row; the statements
 * before it run once. There is no cap: the statements after it must insert only rows that make the next
 * run's input smaller (the duplicate rule's passes pair rows that no earlier round paired, sql/22).
 */
export const REPEAT_LINE = '-- repeat: until a run inserts no row';

/**
 * A line right after REPEAT_LINE, `-- for each row of: <query>`: the rounds run for each row the query
 * gives, in its order, each to its end before the next row's, the row's columns as placeholders (SQL
 * literals) beside `{{round}}`. So a rule kept as rows of a table (sql/21_int_duplicate_rules) runs
 * from one file.
 */
export const FOR_EACH_PREFIX = '-- for each row of: ';

/**
 * A model file: the statements that run once (from its line 1), and those that run in rounds
 * (REPEAT_LINE), if any, from the line after it (`line`, counted from 1).
 */
export interface ModelFile {
  name: string;
  once: string;
  repeated: { text: string; forEach: string | null; line: number } | null;
}

/** Reads and splits one model file of `dir`. */
export async function readModelFile(name: string, dir: string = SQL_DIR): Promise<ModelFile> {
  const lines = (await fs.readFile(path.join(dir, name), 'utf8')).split('\n');
  const at = lines.indexOf(REPEAT_LINE);
  if (at < 0) return { name, once: lines.join('\n'), repeated: null };
  const rest = lines.slice(at + 1);
  const forEach = rest[0]?.startsWith(FOR_EACH_PREFIX) ? rest[0].slice(FOR_EACH_PREFIX.length) : null;
  return { name, once: lines.slice(0, at).join('\n'), repeated: { text: rest.join('\n'), forEach, line: at + 2 } };
}

/**
 * The placeholders of the statements that run in rounds (`text`), as a plan reads them: those of the
 * first round, a for-each query's columns left as `null`.
 */
export function firstRoundVars(text: string, vars: Record<string, string>): Record<string, string> {
  const unset: Record<string, string> = { ...vars, round: '1' };
  for (const [, placeholder] of text.matchAll(/\{\{(\w+)\}\}/g)) unset[placeholder] ??= 'null';
  return unset;
}

/** A value of a query's row as a SQL literal. */
function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(sqlLiteral).join(', ')}]`;
  if (typeof value === 'string') return sqlString(value);
  return String(value);
}

/** The placeholders of each round set: one empty set, or one per row of the for-each query. */
async function roundSets(
  conn: DuckDBConnection,
  file: ModelFile,
  vars: Record<string, string>,
): Promise<Array<Record<string, string>>> {
  const query = file.repeated?.forEach;
  if (query === undefined || query === null) return [{}];
  const rows = (await conn.runAndReadAll(substituted(file.name, query, vars))).getRowObjectsJS();
  return rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, sqlLiteral(v)])));
}

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

/**
 * What a build makes of one statement of a model file: the text to run instead (its own text, or a
 * view in its place), or null to skip it.
 */
export type StatementRewrite = (statement: ModelStatement) => string | null;

/** The text of a model file after `rewrite`, statement by statement; the text as written without one. */
function rewritten(text: string, rewrite: StatementRewrite | undefined): string {
  if (rewrite === undefined) return text;
  return modelStatements(text)
    .map(rewrite)
    .filter((s): s is string => s !== null)
    .map((s) => `${s};\n`)
    .join('');
}

/**
 * Runs every model file against `conn` in name order, each statement through `rewrite` when given: the
 * statements before a REPEAT_LINE once, those after it until a run changes no row (for each row of its
 * for-each query, if it has one). `afterFile` runs after each file, before the next.
 */
export async function runModels(
  conn: DuckDBConnection,
  vars: Record<string, string>,
  rewrite?: StatementRewrite,
  afterFile?: () => Promise<void>,
): Promise<void> {
  for (const name of await modelFiles()) {
    try {
      const file = await readModelFile(name);
      const once = rewritten(substituted(name, file.once, vars), rewrite);
      if (modelStatements(once).length > 0) await conn.run(once);
      if (file.repeated !== null) {
        for (const set of await roundSets(conn, file, vars)) {
          for (let round = 1; ; round++) {
            const text = rewritten(substituted(name, file.repeated.text, { ...vars, ...set, round: String(round) }), rewrite);
            if (text.trim() === '' || (await runCountingRows(conn, text)) === 0) break;
          }
        }
      }
      await afterFile?.();
    } catch (err) {
      throw new Error(`warehouse: model ${name} failed: ${(err as Error).message}`);
    }
    testStop('during-models');
  }
}

/**
 * The statements of every model file (placeholders resolved with `vars`), for a build to plan from: what
 * each creates, inserts into or drops; the statements that run in rounds as those of the first round, a
 * for-each query's columns left as `null`.
 */
export async function allModelStatements(vars: Record<string, string>): Promise<ModelStatement[]> {
  const found: ModelStatement[] = [];
  for (const name of await modelFiles()) {
    const file = await readModelFile(name);
    found.push(...modelStatements(substituted(name, file.once, vars)));
    if (file.repeated === null) continue;
    found.push(...modelStatements(substituted(name, file.repeated.text, firstRoundVars(file.repeated.text, vars))));
  }
  return found;
}
