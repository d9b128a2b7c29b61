/**
 * The rows of the report's queries as plain cells, and the helpers its readers share (report/read.ts,
 * report/read-drill.ts): each query runs through the sandbox's statement check on the report's one
 * read-only connection.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { readQuery } from '../warehouse/query-sandbox.js';
import type { Cell, TimelineRow, TimeUnit } from './data.js';

export type Row = Record<string, Cell>;

/** A value of a report query as a cell: the queries return only scalars (times already as text). */
function cell(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return String(value);
}

export async function select(conn: DuckDBConnection, sql: string): Promise<Row[]> {
  const reader = await readQuery(conn, sql);
  return reader.getRowObjects().map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, cell(v)])));
}

export const textOrNull = (v: Cell): string | null => (v === null ? null : String(v));
export const numberOrZero = (v: Cell): number => (typeof v === 'number' ? v : v === null ? 0 : Number(v));
export const total = (rows: Row[]): number => (rows.length > 0 ? numberOrZero(rows[0].total) : 0);

const DAY_MS = 86_400_000;
const MAX_BARS = 60;

/** The smallest bucket width that gives at most MAX_BARS bars over the span. */
export function chooseUnit(firstUtc: string | null, lastUtc: string | null): TimeUnit {
  if (firstUtc === null || lastUtc === null) return 'day';
  const days = (Date.parse(lastUtc) - Date.parse(firstUtc)) / DAY_MS + 1;
  const units: [TimeUnit, number][] = [
    ['day', 1],
    ['week', 7],
    ['month', 30.44],
    ['quarter', 91.3],
  ];
  for (const [unit, width] of units) if (days / width <= MAX_BARS) return unit;
  return 'year';
}

/** A timeline row of a query that selects the columns of sessionRowsSql (time_utc, turn_type, ..., source). */
export function timelineRow(r: Row): TimelineRow {
  return {
    timeUtc: textOrNull(r.time_utc),
    turnType: textOrNull(r.turn_type),
    kind: textOrNull(r.kind),
    toolName: textOrNull(r.tool_name),
    text: textOrNull(r.text),
    textLength: numberOrZero(r.text_length),
    isError: r.is_error === true,
    source: textOrNull(r.source),
  };
}
