/**
 * Small, total conversions from untrusted JSON values: each returns null instead of throwing,
 * so a wrongly typed field costs that field, never the record.
 */

/** The value if it is a non-empty string, else null. */
export function nonEmptyString(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The value if it is a finite number (or a numeric string), else null. */
export function finiteNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** An integer count (tokens, pids), else null. */
export function wholeNumber(value: unknown): number | null {
  const n = finiteNumber(value);
  return n === null ? null : Math.trunc(n);
}

/** The value if it is a boolean, else null. */
export function booleanOrNull(value: unknown): boolean | null {
  return typeof value === 'boolean' ? value : null;
}

/** The value if it is a plain object (not an array, not null), else null. */
export function plainObject(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** Latest instant a row may carry: 9999-12-31T23:59:59.999Z. Earlier than 0001-01-01 is refused too. */
const MAX_MS = 253402300799999;
const MIN_MS = -62135596800000;

/** Epoch milliseconds from a ms number or an ISO 8601 string; null when absent or out of range. */
export function epochMs(value: unknown): number | null {
  let ms: number | null = null;
  if (typeof value === 'number') ms = Number.isFinite(value) ? Math.trunc(value) : null;
  else if (typeof value === 'string' && value !== '') {
    ms = /^-?\d+$/.test(value) ? Number(value) : Date.parse(value);
    if (!Number.isFinite(ms)) ms = null;
  }
  if (ms === null || ms > MAX_MS || ms < MIN_MS) return null;
  return ms;
}

/** Parses a JSON string held inside a record (ClineSayTool, ClineApiReqInfo); null when it is not JSON. */
export function parseEmbeddedJson(text: unknown): unknown {
  if (typeof text !== 'string' || text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A short printable rendering of a value for `key=value` texts: strings as they are, others as JSON. */
export function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? '-';
  } catch (err) {
    // JSON.stringify recurses: a value nested thousands of levels deep (a hostile 100,000-level nesting)
    // overflows the stack, a RangeError caught here, which is what bounds it. String() of a deep array
    // recurses as well, so it is not the fallback for those: show() must never throw.
    if (err instanceof RangeError)
      return Array.isArray(value) ? '[array nested too deeply to show]' : '[value nested too deeply to show]';
    return String(value);
  }
}

/**
 * `String(value)` for a value of any type that names a kind or a discriminator; objects and arrays as
 * JSON cut to 100 characters, since String() of an array recurses (and overflows on a deep one) and
 * String() of an object says nothing.
 */
export function label(value: unknown): string {
  return typeof value === 'object' && value !== null ? show(value).slice(0, 100) : String(value);
}
