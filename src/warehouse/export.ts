/**
 * `clinetrail export`: a selection of the warehouse written to a file by DuckDB itself (`COPY (...) TO`),
 * which streams it in bounded memory whatever its size, spilling a sort into the export's own folder.
 * The selection is the `events` view (filtered by `where`) or any query (`sql`), checked first as
 * `query` checks it (warehouse/query-sandbox.ts); clinetrail then wraps the checked text in its own COPY,
 * which must parse as that one COPY statement, and runs it on the same sandboxed connection, whose only
 * writable folder beside OUT's is the export's staging folder.
 * Values follow the query output rules (warehouse/values.ts) in jsonl and csv: TIMESTAMPTZ as ISO 8601 UTC
 * (`...Z`), integers beyond ±(2^53−1) and DECIMALs of more than 15 digits as strings (jsonl), NaN and
 * ±Infinity as strings. Parquet keeps DuckDB's types. Timesketch lines: see timesketchColumns.
 */
import { type DuckDBConnection, type DuckDBType, DuckDBTypeId, StatementType } from '@duckdb/node-api';
import { withQueryConnection } from './build.js';
import { prepareQuery } from './query-sandbox.js';
import { sqlString } from './sql-literal.js';

export const EXPORT_FORMATS = ['timesketch', 'jsonl', 'csv', 'parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** What to export and where the staging folder is (the file is written in it, then renamed by the caller). */
export interface ExportRequest {
  outDir: string;
  format: ExportFormat;
  /** A filter of the events view (an SQL expression); `sql` replaces the events view. */
  where?: string;
  sql?: string;
  /** The file DuckDB writes, inside `stagingDir`. */
  file: string;
  stagingDir: string;
  /** Where DuckDB spills. */
  spillDir: string;
  allowRead?: readonly string[];
}

/** Rows written, and rows of the selection left out (undated rows of a Timesketch export). */
export interface ExportCounts {
  written: number;
  leftOut: number;
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

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The selection: the events view, filtered, or the query as given (a trailing `;` dropped). */
export function selectionSql(where: string | undefined, sql: string | undefined): string {
  if (sql !== undefined) return sql.replace(/[\s;]+$/, '');
  return where === undefined ? 'select * from events' : `select * from events where (\n${where}\n)`;
}

/** A column as the JSON and CSV rules print it (see the header). */
function textRuleColumn(c: Column, json: boolean): string {
  const q = `q.${ident(c.name)}`;
  const as = ` as ${ident(c.name)}`;
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
 * A Timesketch line (its JSONL importer's fields): `message` (`[kind tool_name] ` and the first 1,000
 * characters of the row's text), `datetime` (ISO 8601 UTC, `2026-05-01T10:00:00.123000+00:00`), `timestamp`
 * (epoch microseconds, a number), `timestamp_desc`, then every other column of the row as jsonl writes
 * it (host, store, session_id, tool_name, source_file, ..., row_id as a string).
 */
function timesketchColumns(columns: readonly Column[]): string[] {
  const has = (name: string) => columns.some((c) => c.name === name);
  const tags = ['kind', 'tool_name'].filter(has).map((name) => `q.${name}`);
  const label = tags.length ? `'[' || nullif(concat_ws(' ', ${tags.join(', ')}), '') || ']'` : 'null';
  const message = `trim(concat_ws(' ', ${label}, ${has('text') ? `left(q.text, ${MESSAGE_CHARS})` : 'null'}))`;
  const t = `q.${ident(TIME_COLUMN)}`;
  return [
    `coalesce(nullif(${message}, ''), 'Cline record') as message`,
    `strftime(${t}, '%Y-%m-%dT%H:%M:%S.%f+00:00') as datetime`,
    `epoch_us(${t}) as "timestamp"`,
    `'Cline record time' as timestamp_desc`,
    ...columns
      .filter((c) => c.name !== TIME_COLUMN)
      .map((c) => {
        const rule = textRuleColumn(c, true);
        return TIMESKETCH_FIELDS.includes(c.name)
          ? `${rule.replace(/ as "[^"]*"$/, '')} as ${ident(`${c.name}_original`)}`
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
function copyStatement(format: ExportFormat, selection: string, columns: readonly Column[], file: string): string {
  const from = `from (\n${selection}\n) q`;
  const to = `to ${sqlString(file)}`;
  if (format === 'parquet') return `copy (select q.* ${from}) ${to} (format parquet, compression zstd)`;
  if (format === 'csv')
    return `copy (select ${columns.map((c) => textRuleColumn(c, false)).join(', ')} ${from}) ${to} (format csv, header true)`;
  if (format === 'jsonl')
    return `copy (select ${columns.map((c) => textRuleColumn(c, true)).join(', ')} ${from}) ${to} (format json)`;
  return `copy (select ${timesketchColumns(columns).join(', ')} ${from} where q.${ident(TIME_COLUMN)} is not null) ${to} (format json)`;
}

/** Runs an export into `request.file`; resolves to the rows written and left out. */
export async function exportSelection(request: ExportRequest): Promise<ExportCounts> {
  const selection = selectionSql(request.where, request.sql);
  // preserve_insertion_order stays on, so the file keeps the selection's order (the events timeline):
  // turning it off changed neither peak RSS nor the smallest memory limit a sorted export needs (measured)
  const options = { allowRead: [...(request.allowRead ?? []), request.stagingDir], tempDir: request.spillDir };
  return withQueryConnection(request.outDir, options, async (conn) => {
    const columns = await selectionColumns(conn, selection);
    if (request.format === 'timesketch') {
      const time = columns.find((c) => c.name === TIME_COLUMN);
      if (time?.type.typeId !== DuckDBTypeId.TIMESTAMP_TZ)
        throw new Error(
          `query: a timesketch export dates each line by a ${TIME_COLUMN} column (TIMESTAMPTZ); this selection has none`,
        );
    }
    const copy = copyStatement(request.format, selection, columns, request.file);
    // the checked text must stay inside clinetrail's COPY: one statement, a COPY
    const statements = await conn.extractStatements(copy).catch(() => null);
    const prepared = statements?.count === 1 ? await statements.prepare(0) : null;
    if (prepared?.statementType !== StatementType.COPY)
      throw new Error('query: the selection does not fit in one COPY statement (end it without a comment after a ;)');
    const written = Number((await prepared.runAndReadAll()).getRows()[0]?.[0] ?? 0);
    prepared.destroySync();
    if (request.format !== 'timesketch') return { written, leftOut: 0 };
    const undated = await conn.runAndReadAll(`select count(*) from (\n${selection}\n) q where q.${ident(TIME_COLUMN)} is null`);
    return { written, leftOut: Number(undated.getRows()[0][0]) };
  });
}
