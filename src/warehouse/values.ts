/**
 * DuckDB values as clinetrail prints them, whatever the machine's TZ: the rules of docs/CLI.md "Query output".
 * - Times: TIMESTAMPTZ as ISO 8601 UTC with microseconds, `2026-05-01T10:00:00.123000Z`; a TIMESTAMP
 *   without zone the same without `Z`; DATE as `2026-05-01`. The node API's own text of a TIMESTAMPTZ
 *   uses one fixed offset of the local zone (the wrong one across a daylight-saving change).
 * - Numbers: JSON numbers, except what a double cannot hold exactly: an integer beyond ±(2^53−1) is a
 *   string of its exact digits, a DECIMAL of more than 15 digits too. row_id, a UUID, is its text.
 *   NaN and ±Infinity, which JSON has no number for, are the strings `NaN`, `Infinity`, `-Infinity`.
 * - Lists, arrays and structs as JSON arrays and objects; a MAP as a list of {key, value}; anything
 *   else (TIME, INTERVAL, UUID, BLOB, ...) as DuckDB's own text of it.
 */
import {
  DuckDBArrayValue,
  DuckDBDecimalValue,
  DuckDBListValue,
  DuckDBMapValue,
  DuckDBStructValue,
  DuckDBTimestampMillisecondsValue,
  DuckDBTimestampNanosecondsValue,
  DuckDBTimestampSecondsValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  DuckDBUnionValue,
  type DuckDBValue,
} from '@duckdb/node-api';

/** A value as printed: JSON's types. */
export type OutValue = null | boolean | number | string | OutValue[] | { [key: string]: OutValue };

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/** Digits a double holds exactly: a DECIMAL of at most this width is a JSON number. */
const DOUBLE_DIGITS = 15;

/** `micros` since the epoch as `YYYY-MM-DDTHH:MM:SS.ffffff` (UTC), or null outside JS's date range. */
export function isoMicros(micros: bigint): string | null {
  const ms = micros / 1000n - (micros % 1000n < 0n ? 1n : 0n);
  const date = new Date(Number(ms));
  if (Number.isNaN(date.getTime())) return null;
  return `${date.toISOString().slice(0, -1)}${String(micros - ms * 1000n).padStart(3, '0')}`;
}

/** A timestamp of any unit as ISO text (`Z` when it is a TIMESTAMPTZ), or DuckDB's text when infinite. */
function timestamp(micros: bigint, zoned: boolean, fallback: string, nanoDigits = ''): string {
  const iso = isoMicros(micros);
  return iso === null ? fallback : `${iso}${nanoDigits}${zoned ? 'Z' : ''}`;
}

/** One DuckDB value as printed (see the rules above). */
export function outValue(value: DuckDBValue): OutValue {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'bigint') return value >= -SAFE && value <= SAFE ? Number(value) : String(value);
  if (value instanceof DuckDBTimestampTZValue) return timestamp(value.micros, true, String(value));
  if (value instanceof DuckDBTimestampValue) return timestamp(value.micros, false, String(value));
  if (value instanceof DuckDBTimestampSecondsValue) return timestamp(value.seconds * 1_000_000n, false, String(value));
  if (value instanceof DuckDBTimestampMillisecondsValue) return timestamp(value.millis * 1000n, false, String(value));
  if (value instanceof DuckDBTimestampNanosecondsValue) {
    const micros = value.nanos / 1000n - (value.nanos % 1000n < 0n ? 1n : 0n);
    return timestamp(micros, false, String(value), String(value.nanos - micros * 1000n).padStart(3, '0'));
  }
  if (value instanceof DuckDBDecimalValue) return value.width <= DOUBLE_DIGITS ? value.toDouble() : value.toString();
  if (value instanceof DuckDBListValue || value instanceof DuckDBArrayValue) return value.items.map(outValue);
  if (value instanceof DuckDBStructValue)
    return Object.fromEntries(Object.entries(value.entries).map(([k, v]) => [k, outValue(v)]));
  if (value instanceof DuckDBMapValue) return value.entries.map((e) => ({ key: outValue(e.key), value: outValue(e.value) }));
  if (value instanceof DuckDBUnionValue) return outValue(value.value);
  return String(value);
}

/** A value as one text (CSV, table): scalars as printed, lists and structs as their JSON. */
export function outText(value: OutValue): string {
  if (value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
