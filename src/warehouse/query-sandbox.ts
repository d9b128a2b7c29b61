/**
 * The sandbox of `clinetrail query`: a query reads the warehouse and nothing else, and writes nothing.
 * Two layers, because neither holds alone:
 * - DuckDB's own file sandbox on the query connection: `allowed_directories` lists the folders the
 *   views read (OUT/parquet/events, OUT/records, OUT/state/runs, OUT/models) and the folders given with
 *   `--allow-read`;
 *   `enable_external_access = false` closes every other path, extension installs and loads;
 *   `lock_configuration = true` stops any statement from opening it again. DuckDB also lets the
 *   database file and the query's own temporary folder through.
 * - A statement check, since DuckDB's allowed folders are open for writing too (a COPY into a partition
 *   folder works in the sandbox): the text must be exactly one statement, which parses as a query
 *   (`json_serialize_sql` parses without binding: binding a COPY can already create files), and
 *   prepares as a SELECT, or an EXPLAIN of a query that passed the same check. It may not call the
 *   table functions that change the connection from inside a SELECT (enable_logging, enable_profiling,
 *   ...: they can write files in the allowed folders) or run SQL text (query()).
 * Any error of the check refuses the text, and nothing of it runs.
 */
import type { DuckDBConnection, DuckDBPreparedStatement, DuckDBResultReader } from '@duckdb/node-api';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { eventsDir, recordsDir, runsDir } from '../core/layout.js';
import { modelsDir } from '../core/model-layout.js';
import { MEMORY_ENV, queryMemoryLimit } from './duckdb-open.js';

/** Environment variable that sets the size limit of a query's temporary folder (a DuckDB size: 8GB, 500MB). */
export const TEMP_MAX_ENV = 'CLINETRAIL_QUERY_TEMP_MAX';
export const TEMP_MAX_DEFAULT = '8GB';

/** The size limit of a query's temporary folder: CLINETRAIL_QUERY_TEMP_MAX, or 8GB. */
export function queryTempMax(): string {
  return process.env[TEMP_MAX_ENV] || TEMP_MAX_DEFAULT;
}

/** A folder as given (made absolute) and as resolved through links, when that differs. */
async function aliases(dir: string): Promise<string[]> {
  const given = path.resolve(dir);
  const real = await fs.realpath(given).catch(() => given);
  return real === given ? [given] : [given, real];
}

/**
 * The folders a query may read: the Parquet dataset (`parquet/events`) and the partitions' records
 * (`records`), `state/runs` and `models` (the hosts' models, core/model-layout.ts) of OUT, under OUT as
 * given and as resolved through links, plus the `allowRead` folders. Each ends with a separator, so
 * `/x/iocs` does not open `/x/iocs-old`. The two partition roots, not each partition's folders: nothing
 * else lives in them, and DuckDB holds every entry of the list in each connection: a list of every
 * partition grew each question's memory with the fleet (docs/BENCHMARKS.md, "A question's floor").
 */
export async function allowedDirectories(outDir: string, allowRead: readonly string[]): Promise<string[]> {
  const roots = await aliases(outDir);
  const inside = [eventsDir(roots[0]), recordsDir(roots[0]), runsDir(roots[0]), modelsDir(roots[0])].map((dir) =>
    path.relative(roots[0], dir),
  );
  const dirs = roots.flatMap((root) => inside.map((rel) => path.join(root, rel)));
  for (const dir of allowRead) dirs.push(...(await aliases(dir)));
  return [...new Set(dirs.map((d) => (d.endsWith(path.sep) ? d : d + path.sep)))];
}

/**
 * How far DuckDB runs a streaming result ahead of its reader: one chunk. DuckDB 1.5.6 counts a text by its
 * 16-byte header, not its bytes, so its default (976 KiB) let `select repeat('x', 100000) from range(20000)`
 * buffer the whole 2 GB result before the first chunk was read. ('1B' hangs a sorted result; 1KB does not.)
 */
const STREAM_BUFFER = '1KB';

/**
 * The settings that close the query connection, in the order they must be set: the last one locks
 * the others. max_temp_directory_size is set here, not as an instance option: DuckDB 1.5.6 reports an
 * instance option but does not enforce it when temp_directory is an instance option too.
 */
export function sandboxSettings(allowed: readonly string[]): Array<[string, string | boolean | readonly string[]]> {
  return [
    ['allowed_directories', allowed],
    ['max_temp_directory_size', queryTempMax()],
    ['streaming_buffer_size', STREAM_BUFFER],
    ['allow_community_extensions', false],
    ['enable_external_access', false],
    ['lock_configuration', true],
  ];
}

const QUERIES = 'select, from, with, values, table, describe, show, summarize, and explain of those';

/**
 * A query's error. `message` is the one line `clinetrail query` prints; `quoted` is the part of it that is
 * DuckDB's own text (between `before` and `after`), which may quote the SQL text and values of the
 * evidence. The MCP server keeps that part apart from its own words.
 */
export class QueryError extends Error {
  constructor(
    readonly before: string,
    readonly quoted: string | null = null,
    readonly after = '',
  ) {
    super(`${before}${quoted ?? ''}${after}`);
  }
}

/** The error of a refused text: one line that says why, and that nothing ran. */
function refused(why: string, quoted: string | null = null): QueryError {
  return quoted === null
    ? new QueryError(`query: ${why}; nothing was run`)
    : new QueryError(`query: ${why}: `, quoted, '; nothing was run');
}

/** Blanks and comments before the first keyword of a statement. */
const LEADING = String.raw`^(?:\s|--[^\n]*(?:\n|$)|/\*[\s\S]*?\*/)*`;
/** A text of blanks, comments and semicolons only (extractStatements fails on it without a message). */
const EMPTY = new RegExp(`${LEADING.replace('(?:', '(?:;|')}$`);

/** The first keyword of a statement, for a message ("COPY"). */
function firstWord(sql: string): string {
  const word = new RegExp(`${LEADING}([A-Za-z_]+)`).exec(sql)?.[1];
  return word ? word.toUpperCase() : 'this statement';
}

function notAQuery(what: string): Error {
  return refused(`the warehouse is read-only: only queries (${QUERIES}) run, and ${what} is not one`);
}

/** `explain`, `explain analyze` or `explain (analyze, format json)` at the start of a text. */
const EXPLAIN = new RegExp(String.raw`${LEADING}explain\b\s*(?:(analyze)\b|\(([^()]*)\))?`, 'i');
const EXPLAIN_OPTION = /^(?:analyze|format\s+[a-z]+)$/i;

/**
 * Splits an EXPLAIN into the EXPLAIN prefix to run, rebuilt from its known options, and the statement
 * it explains (which must pass the check as a query); null when the text is no EXPLAIN.
 */
function splitExplain(sql: string): { prefix: string; explained: string } | null {
  const m = EXPLAIN.exec(sql);
  if (!m) return null;
  const options = m[1] ? ['analyze'] : (m[2]?.split(',').map((o) => o.trim().replace(/\s+/g, ' ').toLowerCase()) ?? []);
  for (const option of options) {
    if (!EXPLAIN_OPTION.test(option))
      throw new QueryError(
        "query: explain option '",
        option,
        "' is not supported (use explain, explain analyze, explain (analyze, format json)); nothing was run",
      );
  }
  return { prefix: options.length ? `explain (${options.join(', ')}) ` : 'explain ', explained: sql.slice(m[0].length) };
}

/** The error of json_serialize_sql for a statement that is not a query (CREATE, COPY, SET, ...). */
const NOT_A_QUERY = 'Only SELECT statements can be serialized to json!';

/**
 * Functions a query may not call. Called from a SELECT, they change the connection despite
 * lock_configuration, and logging and profiling then write files inside the allowed folders (measured
 * with DuckDB 1.5.6); query() and json_execute_serialized_sql() run SQL text this check does not see.
 */
const REFUSED_FUNCTIONS = new Set([
  'enable_logging',
  'disable_logging',
  'truncate_duckdb_logs',
  'write_log',
  'enable_profiling',
  'disable_profiling',
  'enable_peg_parser',
  'disable_peg_parser',
  'checkpoint',
  'force_checkpoint',
  'query',
  'json_execute_serialized_sql',
]);

/** Every function name (scalar, aggregate, table) in a parsed statement tree. */
function functionNames(tree: unknown, found: string[] = []): string[] {
  if (Array.isArray(tree)) for (const item of tree) functionNames(item, found);
  else if (tree && typeof tree === 'object') {
    const { function_name: name } = tree as { function_name?: unknown };
    if (typeof name === 'string') found.push(name.toLowerCase());
    for (const value of Object.values(tree)) functionNames(value, found);
  }
  return found;
}

/** The answer of json_serialize_sql: the parsed statements, or the parser's error. */
interface Serialized {
  error: boolean;
  error_message?: string;
  statements?: unknown[];
}

/** DuckDB's parse of `text`, without binding (json_serialize_sql). */
async function serialize(conn: DuckDBConnection, text: string): Promise<Serialized> {
  const check = await conn.prepare('select json_serialize_sql($1::varchar)');
  try {
    check.bindVarchar(1, text);
    return JSON.parse(String((await check.runAndReadAll()).getRowsJson()[0][0])) as Serialized;
  } finally {
    check.destroySync();
  }
}

/** Refuses `text` unless it parses, without binding, as exactly one query that calls no refused function. */
async function assertOneQuery(conn: DuckDBConnection, text: string): Promise<void> {
  const parsed = await serialize(conn, text);
  if (parsed.error)
    throw parsed.error_message === NOT_A_QUERY
      ? notAQuery(firstWord(text))
      : refused('the text does not parse as a query', parsed.error_message ?? '');
  const count = parsed.statements?.length ?? 0;
  if (count !== 1) throw refused(`the text holds ${count} queries, not one`);
  const banned = functionNames(parsed.statements).find((name) => REFUSED_FUNCTIONS.has(name));
  if (banned)
    throw refused(`${banned}() is not allowed in a query: it changes the connection or runs SQL text that is not checked`);
}

/**
 * Checks a query text and returns it prepared, ready to run; throws `query: ...` when it is refused.
 * A syntax error is DuckDB's own message.
 */
export async function prepareQuery(conn: DuckDBConnection, sql: string): Promise<DuckDBPreparedStatement> {
  const { StatementType } = await import('@duckdb/node-api');
  if (EMPTY.test(sql)) throw refused('the text holds no statement');
  const statements = await conn.extractStatements(sql);
  if (statements.count !== 1) {
    throw refused(
      `one statement per query: DuckDB reads ${statements.count} in this text; run each with its own clinetrail query (a PIVOT without an IN list is several: list its values)`,
    );
  }
  const explain = splitExplain(sql);
  await assertOneQuery(conn, explain ? explain.explained : sql);
  const prepared = explain ? await conn.prepare(explain.prefix + explain.explained) : await statements.prepare(0);
  const wanted = explain ? StatementType.EXPLAIN : StatementType.SELECT;
  if (prepared.statementType !== wanted) {
    prepared.destroySync();
    throw notAQuery(`a ${StatementType[prepared.statementType] ?? prepared.statementType} statement`);
  }
  return prepared;
}

/**
 * The text of a checked query without the semicolons (and blanks and comments) that end it, so that it
 * can stand inside parentheses. A cut is kept only where DuckDB parses what is left into the same
 * statement: a `;` inside a string or a comment can look like the end (`select '; --'`).
 */
export async function statementBody(conn: DuckDBConnection, sql: string): Promise<string> {
  const ends: number[] = [];
  for (let at = sql.indexOf(';'); at !== -1; at = sql.indexOf(';', at + 1)) if (EMPTY.test(sql.slice(at))) ends.push(at);
  if (ends.length === 0) return sql;
  const whole = JSON.stringify((await serialize(conn, sql)).statements);
  for (const end of ends) {
    const body = sql.slice(0, end);
    const parsed = await serialize(conn, body);
    if (!parsed.error && JSON.stringify(parsed.statements) === whole) return body;
  }
  return sql;
}

/** Checks a query text (prepareQuery), runs it and reads its whole result; the prepared statement is freed. */
export async function readQuery(conn: DuckDBConnection, sql: string): Promise<DuckDBResultReader> {
  const prepared = await prepareQuery(conn, sql);
  try {
    return await prepared.runAndReadAll();
  } finally {
    prepared.destroySync();
  }
}

/**
 * A query's error as one `query: ...` line (a QueryError: DuckDB's text kept apart), with what to do for
 * the sandbox's own refusals. Errors clinetrail wrote itself (`query: ...`) pass as they are.
 */
export function queryError(err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof QueryError || message.startsWith('query: ')) return err as Error;
  // @duckdb/node-api puts this before the parser's message
  const first = message.split('\n')[0].replace(/^Failed to extract statements: /, '');
  if (first.startsWith('Permission Error')) {
    return new QueryError(
      'query: ',
      first,
      ' (a query reads only the warehouse; --allow-read DIR opens a folder of your own, e.g. an IOC list)',
    );
  }
  if (message.includes('max_temp_directory_size')) {
    return new QueryError(
      `query: the query needs more temporary disk than its limit of ${queryTempMax()} (set ${TEMP_MAX_ENV} to change it): `,
      first,
    );
  }
  if (first.startsWith('Out of Memory Error')) {
    return new QueryError(
      'query: ',
      first,
      ` (DuckDB's memory limit is ${queryMemoryLimit()}: set ${MEMORY_ENV} higher, e.g. 4GB, or select fewer rows or columns; the ordered events view sorts every row it returns, texts included)`,
    );
  }
  return new QueryError('query: ', first);
}
