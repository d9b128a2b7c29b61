/**
 * `clinetrail export`: a selection of the warehouse written to a file by DuckDB itself (`COPY (...) TO`),
 * which streams it in bounded memory whatever its size, spilling a sort into the export's own folder.
 * The selection is the `events` view (filtered by `where`) or any query (`sql`), checked first as
 * `query` checks it (warehouse/query-sandbox.ts); clinetrail then wraps the checked text in its own COPY,
 * which must parse as that one COPY statement, and runs it on the same sandboxed connection, whose only
 * writable folder beside OUT's is the export's staging folder.
 * Values follow the query output rules (warehouse/values.ts) in jsonl and csv: TIMESTAMPTZ as ISO 8601 UTC
 * (`...Z`), integers beyond ±(2^53−1) and DECIMALs of more than 15 digits as strings (jsonl), NaN and
 * ±Infinity as strings. Parquet keeps DuckDB's types but those no reader gets back exactly (parquetColumn).
 * A UUID (row_id) is its text in every format. Timesketch lines: see timesketchColumns; an undated row is
 * placed at its file's modification time, saying so in timestamp_desc (left out, counted, when the
 * selection does not name its file). `parquet-dataset`
 * writes a folder of parts of a size, in the selection's order, for engines that pay per file.
 */
import { type DuckDBConnection, type DuckDBType, DuckDBTypeId, StatementType } from '@duckdb/node-api';
import { withQueryConnection } from './build.js';
import { numberParts, PART_COPY_OPTIONS } from './dataset-parts.js';
import { prepareQuery } from './query-sandbox.js';
import { sqlIdent, sqlString } from './sql-literal.js';

export const EXPORT_FORMATS = ['timesketch', 'jsonl', 'csv', 'parquet', 'parquet-dataset'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** The format written as a folder (cli/output-folder.ts), not as one file. */
export const FOLDER_FORMAT = 'parquet-dataset' satisfies ExportFormat;

/** The size at which a part of a `parquet-dataset` is closed, unless told (export --part-size). */
export const PART_BYTES_DEFAULT = 128 * 1024 * 1024;

/** What to export and where the staging folder is (the file is written in it, then renamed by the caller). */
export interface ExportRequest {
  outDir: string;
  format: ExportFormat;
  /** A filter of the events view (an SQL expression); `sql` replaces the events view. */
  where?: string;
  sql?: string;
  /** The file DuckDB writes, inside `stagingDir` (a folder, for `parquet-dataset`). */
  file: string;
  /** `parquet-dataset`: a part is closed at the first row group that brings it to this many bytes. */
  partBytes?: number;
  stagingDir: string;
  /** Where DuckDB spills. */
  spillDir: string;
  allowRead?: readonly string[];
}

/** Rows written, and rows of the selection left out (undated rows of a Timesketch export). */
export interface ExportCounts {
  written: number;
  leftOut: number;
  /** Timesketch: the undated rows written at their file's modification time (timestamp_desc says so). */
  atFileTime: number;
  /** `parquet-dataset`: the parts written, in the selection's order. */
  parts: string[];
}

/** The column a Timesketch export dates its lines by. */
export const TIME_COLUMN = 'timestamp_utc';
/** Fields a Timesketch line must have; a selected column of one of these names is renamed `<name>_original`. */
const TIMESKETCH_FIELDS = ['message', 'datetime', 'timestamp', 'timestamp_desc'];
/** Characters of `text` in a Timesketch message (the whole text is in its own field). */
const MESSAGE_CHARS = 1000;
const SAFE = '9007199254740991';

interface Column {
  name: string;
  type: DuckDBType;
}

/** The selection: the events view, filtered, or the query as given (a trailing `;` dropped). */
export function selectionSql(where: string | undefined, sql: string | undefined): string {
  if (sql !== undefined) return sql.replace(/[\s;]+$/, '');
  return where === undefined ? 'select * from events' : `select * from events where (\n${where}\n)`;
}

/** A column as the JSON and CSV rules print it (see the header). */
function textRuleColumn(c: Column, json: boolean): string {
  const q = `q.${sqlIdent(c.name)}`;
  const as = ` as ${sqlIdent(c.name)}`;
  switch (c.type.typeId) {
    case DuckDBTypeId.TIMESTAMP_TZ:
      return `strftime(${q}, '%Y-%m-%dT%H:%M:%S.%fZ')${as}`;
    case DuckDBTypeId.TIMESTAMP:
      return `strftime(${q}, '%Y-%m-%dT%H:%M:%S.%f')${as}`;
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.HUGEINT:
      return json ? `case when ${q} between -${SAFE} and ${SAFE} then to_json(${q}) else to_json(${q}::varchar) end${as}` : q;
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.UHUGEINT:
      return json ? `case when ${q} <= ${SAFE} then to_json(${q}) else to_json(${q}::varchar) end${as}` : q;
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
      return json ? `case when isfinite(${q}) then to_json(${q}) else to_json(${q}::varchar) end${as}` : q;
    case DuckDBTypeId.DECIMAL:
      return json && (c.type as unknown as { width: number }).width > 15 ? `${q}::varchar${as}` : q;
    default:
      return q;
  }
}

/**
 * A column as Parquet holds it: a UUID (row_id) as its text, which a Parquet UUID is not to pandas and
 * polars (16 bytes); a HUGEINT or UHUGEINT as the text of its digits, since Parquet has no 128-bit integer
 * and DuckDB would write a DOUBLE, rounded. Every other column as DuckDB writes it.
 */
function parquetColumn(c: Column): string {
  const q = `q.${sqlIdent(c.name)}`;
  const wide = [DuckDBTypeId.UUID, DuckDBTypeId.HUGEINT, DuckDBTypeId.UHUGEINT] as DuckDBTypeId[];
  return wide.includes(c.type.typeId) ? `${q}::varchar as ${sqlIdent(c.name)}` : q;
}

/**
 * Rows per row group of a `parquet-dataset`: DuckDB closes a part only after the row group that brings
 * it to `partBytes`, so a part holds up to a group more. A group is sized by rows only:
 * row_group_size_bytes needs preserve_insertion_order off, which would lose the selection's order. At
 * `partBytes` / 4 KiB rows (32,768 at 128 MiB, from 2,048, DuckDB's least) a group is a quarter of a part
 * while the rows take at most 4 KiB each, compressed: a row of events compresses to about 320 bytes on the
 * interop fleet (47,523 events in 15 MB), so a 128 MiB part stays well below 256 MiB.
 */
export function rowGroupRows(partBytes: number): number {
  return Math.min(122_880, Math.max(2_048, Math.floor(partBytes / 4096)));
}

/**
 * `timestamp_desc` of a Timesketch line: what its time is, by the row's timestamp_source (core/columns.ts)
 * when the selection has it; an undated row placed at its file's modification time says so.
 */
const TIMESKETCH_DESC = {
  recorded: 'Cline record time',
  local_clock: 'Cline record time (local clock read in the host time zone, hosts.time_zone)',
  derived: "Cline record time (taken from another record: the session's start)",
  file_mtime: 'File modified time (the file records no time)',
  undated: 'File modified time (the row records no time)',
} as const;

/** The column that holds a row's place in the selection while its file's time is joined to it. */
const PLACE = '__clinetrail_place';

/** The columns that name a row's evidence file in `files`: with them an undated row takes its file's time. */
const FILE_KEY = ['host', 'store', 'source_file'];

/** The time of a Timesketch line: the row's own, else (the selection naming its file) its file's mtime. */
function timesketchTime(columns: readonly Column[]): { time: string; join: string } {
  const own = `q.${sqlIdent(TIME_COLUMN)}`;
  if (!FILE_KEY.every((k) => columns.some((c) => c.name === k))) return { time: own, join: '' };
  const on = FILE_KEY.map((k) => `f.${k} = q.${k}`).join(' and ');
  return { time: `coalesce(${own}, f.mtime_utc)`, join: ` left join files f on ${own} is null and ${on}` };
}

/**
 * A Timesketch line (its JSONL importer's fields): `message` (`[kind tool_name] ` and the first 1,000
 * characters of the row's text), `datetime` (ISO 8601 UTC, `2026-05-01T10:00:00.123000+00:00`), `timestamp`
 * (epoch microseconds, a number), `timestamp_desc` (TIMESKETCH_DESC), then every other column of the row
 * as jsonl writes it (host, store, session_id, tool_name, source_file, ..., row_id as a string).
 */
function timesketchColumns(columns: readonly Column[]): string[] {
  const has = (name: string) => columns.some((c) => c.name === name);
  const tags = ['kind', 'tool_name'].filter(has).map((name) => `q.${name}`);
  const label = tags.length ? `'[' || nullif(concat_ws(' ', ${tags.join(', ')}), '') || ']'` : 'null';
  const message = `trim(concat_ws(' ', ${label}, ${has('text') ? `left(q.text, ${MESSAGE_CHARS})` : 'null'}))`;
  const t = timesketchTime(columns).time;
  const source = has('timestamp_source') ? 'q.timestamp_source' : `'recorded'`;
  const desc = `case when q.${sqlIdent(TIME_COLUMN)} is null then ${sqlString(TIMESKETCH_DESC.undated)} ${Object.entries(
    TIMESKETCH_DESC,
  )
    .filter(([k]) => k !== 'undated')
    .map(([k, v]) => `when ${source} = ${sqlString(k)} then ${sqlString(v)}`)
    .join(' ')} else ${sqlString(TIMESKETCH_DESC.recorded)} end`;
  return [
    `coalesce(nullif(${message}, ''), 'Cline record') as message`,
    `strftime(${t}, '%Y-%m-%dT%H:%M:%S.%f+00:00') as datetime`,
    `epoch_us(${t}) as "timestamp"`,
    `${desc} as timestamp_desc`,
    ...columns
      .filter((c) => c.name !== TIME_COLUMN)
      .map((c) => {
        const rule = textRuleColumn(c, true);
        return TIMESKETCH_FIELDS.includes(c.name)
          ? `${rule.replace(/ as "[^"]*"$/, '')} as ${sqlIdent(`${c.name}_original`)}`
          : rule;
      }),
  ];
}

/** The checked selection's columns; refuses an EXPLAIN (no rows to export). */
async function selectionColumns(conn: DuckDBConnection, selection: string): Promise<Column[]> {
  const prepared = await prepareQuery(conn, selection);
  try {
    if (prepared.statementType !== StatementType.SELECT)
      throw new Error('query: export writes the rows of a query; an explain has none to write');
    return Array.from({ length: prepared.columnCount }, (_, i) => ({
      name: prepared.columnName(i),
      type: prepared.columnType(i),
    }));
  } finally {
    prepared.destroySync();
  }
}

/** The COPY statement of an export. */
function copyStatement(request: ExportRequest, selection: string, columns: readonly Column[]): string {
  const { format, file } = request;
  const from = `from (\n${selection}\n) q`;
  const to = `to ${sqlString(file)}`;
  const parquet = `select ${columns.map(parquetColumn).join(', ')} ${from}`;
  if (format === 'parquet') return `copy (${parquet}) ${to} (format parquet, compression zstd)`;
  if (format === 'parquet-dataset') {
    const bytes = request.partBytes ?? PART_BYTES_DEFAULT;
    return `copy (${parquet}) ${to} (format parquet, compression zstd, file_size_bytes ${bytes}, row_group_size ${rowGroupRows(bytes)}, ${PART_COPY_OPTIONS})`;
  }
  if (format === 'csv')
    return `copy (select ${columns.map((c) => textRuleColumn(c, false)).join(', ')} ${from}) ${to} (format csv, header true)`;
  if (format === 'jsonl')
    return `copy (select ${columns.map((c) => textRuleColumn(c, true)).join(', ')} ${from}) ${to} (format json)`;
  const { time, join } = timesketchTime(columns);
  if (join === '')
    return `copy (select ${timesketchColumns(columns).join(', ')} ${from} where ${time} is not null) ${to} (format json)`;
  // the join does not keep the selection's order: each row's place in it is kept and sorted on
  const placed = `from (select *, row_number() over () as ${PLACE} from (\n${selection}\n)) q`;
  return `copy (select ${timesketchColumns(columns).join(', ')} ${placed}${join} where ${time} is not null order by q.${PLACE}) ${to} (format json)`;
}

/** Runs an export into `request.file`; resolves to the rows written and left out. */
export async function exportSelection(request: ExportRequest): Promise<ExportCounts> {
  const selection = selectionSql(request.where, request.sql);
  // preserve_insertion_order stays on, so the file keeps the selection's order (the events timeline):
  // turning it off changed neither peak RSS nor the smallest memory limit a sorted export needs (measured)
  // one thread for parts of a size: with two, DuckDB fills a part with row groups out of order (measured)
  const options = {
    allowRead: [...(request.allowRead ?? []), request.stagingDir],
    tempDir: request.spillDir,
    threads: request.format === FOLDER_FORMAT ? (1 as const) : undefined,
  };
  return withQueryConnection(request.outDir, options, async (conn) => {
    const columns = await selectionColumns(conn, selection);
    if (request.format === 'timesketch') {
      const time = columns.find((c) => c.name === TIME_COLUMN);
      if (time?.type.typeId !== DuckDBTypeId.TIMESTAMP_TZ)
        throw new Error(
          `query: a timesketch export dates each line by a ${TIME_COLUMN} column (TIMESTAMPTZ); this selection has none`,
        );
    }
    const copy = copyStatement(request, selection, columns);
    // the checked text must stay inside clinetrail's COPY: one statement, a COPY
    const statements = await conn.extractStatements(copy).catch(() => null);
    const prepared = statements?.count === 1 ? await statements.prepare(0) : null;
    if (prepared?.statementType !== StatementType.COPY)
      throw new Error('query: the selection does not fit in one COPY statement (end it without a comment after a ;)');
    const written = Number((await prepared.runAndReadAll()).getRows()[0]?.[0] ?? 0);
    prepared.destroySync();
    if (request.format === FOLDER_FORMAT) return { written, leftOut: 0, atFileTime: 0, parts: await numberParts(request.file) };
    if (request.format !== 'timesketch') return { written, leftOut: 0, atFileTime: 0, parts: [] };
    const { time, join } = timesketchTime(columns);
    const undated = await conn.runAndReadAll(
      `select count(*) filter (where ${time} is null), count(*) filter (where ${time} is not null) from (\n${selection}\n) q${join} where q.${sqlIdent(TIME_COLUMN)} is null`,
    );
    const [left, atFileTime] = undated.getRows()[0];
    return { written, leftOut: Number(left), atFileTime: Number(atFileTime), parts: [] };
  });
}
