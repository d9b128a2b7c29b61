/**
 * A hand-made Arrow builder over typed arrays: rows in, one RecordBatch of the row schema out.
 * apache-arrow's `vectorFromArray` costs about 4x more (../shared/feasibility.md, arrow_fast).
 */
import {
  Bool,
  Field,
  Float64,
  Int32,
  Int64,
  makeData,
  RecordBatch,
  Schema,
  Struct,
  TimestampMicrosecond,
  Utf8,
  type DataType,
} from 'apache-arrow';
import type { Row } from '../core/row.js';
import { COLUMNS, type ColumnType } from '../core/records.js';

function arrowType(type: ColumnType): DataType {
  switch (type) {
    case 'utf8':
      return new Utf8();
    case 'int64':
      return new Int64();
    case 'int32':
      return new Int32();
    case 'float64':
      return new Float64();
    case 'bool':
      return new Bool();
    case 'timestamp':
      // microseconds, UTC-adjusted: the unit Spark, Trino and Iceberg all read (Iceberg has no milliseconds)
      return new TimestampMicrosecond('UTC');
  }
}

/** The Arrow schema of raw rows. */
export const ROW_SCHEMA = new Schema(COLUMNS.map((c) => new Field(c.name, arrowType(c.type), true)));

const encoder = new TextEncoder();

/**
 * Texts up to this many UTF-16 units are copied byte by byte while they are ASCII, without the call and
 * the `subarray` view per value of `encodeInto`; most columns hold only such texts.
 */
const SHORT_TEXT = 64;

/** Validity bitmap of a column: a bit per row, set where the value is neither null nor undefined. */
function validity(values: unknown[]): { bitmap: Uint8Array; nulls: number } {
  const bitmap = new Uint8Array((values.length + 7) >> 3);
  let nulls = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) nulls++;
    else bitmap[i >> 3] |= 1 << (i & 7);
  }
  return { bitmap, nulls };
}

/**
 * The UTF-8 bytes of a column's texts, back to back. Sized for one byte per UTF-16 unit (exact for
 * ASCII) and grown when a text does not fit: a buffer of three bytes per unit, zeroed by the allocation,
 * cost more than the encoding itself (docs/BENCHMARKS.md "Issue 30 point 3").
 */
class TextBytes {
  bytes: Uint8Array;
  end = 0;
  /** Where the last text written starts and ends, and the text: a repeat is copied, not encoded. */
  private last: string | null = null;
  private lastStart = 0;
  private lastEnd = 0;

  constructor(units: number) {
    this.bytes = new Uint8Array(units + (units >> 4) + 1024);
  }

  private grow(need: number): void {
    const bigger = new Uint8Array(Math.max(need, this.bytes.length + (this.bytes.length >> 1)));
    bigger.set(this.bytes.subarray(0, this.end));
    this.bytes = bigger;
  }

  /** Appends `v` (non-empty). */
  add(v: string): void {
    if (v === this.last) {
      // host, store, home, source_file, session_id, kind, model, ... repeat row after row
      const length = this.lastEnd - this.lastStart;
      if (this.end + length > this.bytes.length) this.grow(this.end + length);
      this.bytes.copyWithin(this.end, this.lastStart, this.lastEnd);
      this.lastStart = this.end;
      this.end += length;
      this.lastEnd = this.end;
      return;
    }
    this.last = v;
    this.lastStart = this.end;
    if (v.length <= SHORT_TEXT) {
      if (this.end + 3 * v.length > this.bytes.length) this.grow(this.end + 3 * v.length);
      const bytes = this.bytes;
      const at = this.end;
      let i = 0;
      for (; i < v.length; i++) {
        const c = v.charCodeAt(i);
        if (c >= 0x80) break;
        bytes[at + i] = c;
      }
      if (i === v.length) {
        this.end = this.lastEnd = at + i;
        return;
      }
    }
    let done = encoder.encodeInto(v, this.bytes.subarray(this.end));
    if (done.read < v.length) {
      // did not fit: room for the worst case, and the text encoded again from its start
      this.grow(this.end + 3 * v.length);
      done = encoder.encodeInto(v, this.bytes.subarray(this.end));
    }
    this.end = this.lastEnd = this.end + done.written;
  }
}

function utf8Column(values: unknown[]) {
  const n = values.length;
  const bitmap = new Uint8Array((n + 7) >> 3);
  const offsets = new Int32Array(n + 1);
  let nulls = 0;
  let units = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v === null || v === undefined) nulls++;
    else {
      bitmap[i >> 3] |= 1 << (i & 7);
      if (typeof v === 'string') units += v.length;
    }
  }
  const text = new TextBytes(units);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (typeof v === 'string' && v.length > 0) text.add(v);
    offsets[i + 1] = text.end;
  }
  return makeData({
    type: new Utf8(),
    length: n,
    nullCount: nulls,
    nullBitmap: bitmap,
    valueOffsets: offsets,
    data: text.bytes.subarray(0, text.end),
  });
}

/** Whether this machine stores the low 32-bit word of an int64 first (every platform Node ships for but s390x). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * A safe integer into slot `i` of the int64 array `words` views as 32-bit words, without a BigInt per
 * value: the high word is the floor of v / 2^32, the low word the rest (stored modulo 2^32).
 */
function setInt64(words: Int32Array, i: number, v: number): void {
  const hi = Math.floor(v / 4294967296);
  words[LITTLE_ENDIAN ? 2 * i : 2 * i + 1] = v - hi * 4294967296;
  words[LITTLE_ENDIAN ? 2 * i + 1 : 2 * i] = hi;
}

function numberColumn(values: unknown[], type: ColumnType) {
  const { bitmap, nulls } = validity(values);
  const n = values.length;
  if (type === 'int64' || type === 'timestamp') {
    const data = new BigInt64Array(n);
    const words = new Int32Array(data.buffer);
    const scale = type === 'timestamp' ? 1000 : 1; // rows hold epoch ms
    for (let i = 0; i < n; i++) {
      const v = values[i];
      if (typeof v === 'number') {
        const whole = Math.trunc(v);
        const scaled = whole * scale;
        if (Number.isSafeInteger(scaled)) setInt64(words, i, scaled);
        else data[i] = BigInt(whole) * BigInt(scale);
      }
    }
    const t = type === 'int64' ? new Int64() : new TimestampMicrosecond('UTC');
    return makeData({ type: t, length: n, nullCount: nulls, nullBitmap: bitmap, data } as never);
  }
  if (type === 'int32') {
    const data = new Int32Array(n);
    for (let i = 0; i < n; i++) data[i] = (values[i] as number | null) ?? 0;
    return makeData({ type: new Int32(), length: n, nullCount: nulls, nullBitmap: bitmap, data });
  }
  if (type === 'float64') {
    const data = new Float64Array(n);
    for (let i = 0; i < n; i++) data[i] = (values[i] as number | null) ?? 0;
    return makeData({ type: new Float64(), length: n, nullCount: nulls, nullBitmap: bitmap, data });
  }
  const data = new Uint8Array((n + 7) >> 3);
  for (let i = 0; i < n; i++) if (values[i] === true) data[i >> 3] |= 1 << (i & 7);
  return makeData({ type: new Bool(), length: n, nullCount: nulls, nullBitmap: bitmap, data });
}

const NAMES: readonly (keyof Row)[] = COLUMNS.map((c) => c.name);

/**
 * Each column's values, taken in one pass over the rows: each row object is read once, while its fields
 * are in the cache, instead of once or twice per column (docs/BENCHMARKS.md "Issue 30 point 3").
 */
function columnValues(rows: Row[]): unknown[][] {
  const values = NAMES.map(() => new Array<unknown>(rows.length));
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    for (let c = 0; c < NAMES.length; c++) values[c][i] = row[NAMES[c]];
  }
  return values;
}

/** One RecordBatch holding `rows`, column by column. */
export function rowsToRecordBatch(rows: Row[]): RecordBatch {
  const values = columnValues(rows);
  const children = COLUMNS.map((c, i) => (c.type === 'utf8' ? utf8Column(values[i]) : numberColumn(values[i], c.type)));
  const data = makeData({ type: new Struct(ROW_SCHEMA.fields), length: rows.length, nullCount: 0, children });
  return new RecordBatch(ROW_SCHEMA, data);
}
