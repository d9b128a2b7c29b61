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

function validity(rows: Row[], name: keyof Row): { bitmap: Uint8Array; nulls: number } {
  const bitmap = new Uint8Array((rows.length + 7) >> 3);
  let nulls = 0;
  for (let i = 0; i < rows.length; i++) {
    const v = rows[i][name];
    if (v === null || v === undefined) nulls++;
    else bitmap[i >> 3] |= 1 << (i & 7);
  }
  return { bitmap, nulls };
}

function utf8Column(rows: Row[], name: keyof Row) {
  const { bitmap, nulls } = validity(rows, name);
  const offsets = new Int32Array(rows.length + 1);
  let capacity = 1024;
  for (const row of rows) {
    const v = row[name];
    if (typeof v === 'string') capacity += v.length * 3;
  }
  const bytes = new Uint8Array(capacity);
  let end = 0;
  for (let i = 0; i < rows.length; i++) {
    const v = rows[i][name];
    if (typeof v === 'string' && v.length > 0) end += encoder.encodeInto(v, bytes.subarray(end)).written;
    offsets[i + 1] = end;
  }
  return makeData({
    type: new Utf8(),
    length: rows.length,
    nullCount: nulls,
    nullBitmap: bitmap,
    valueOffsets: offsets,
    data: bytes.subarray(0, end),
  });
}

function numberColumn(rows: Row[], name: keyof Row, type: ColumnType) {
  const { bitmap, nulls } = validity(rows, name);
  const n = rows.length;
  if (type === 'int64' || type === 'timestamp') {
    const data = new BigInt64Array(n);
    const scale = type === 'timestamp' ? 1000n : 1n; // rows hold epoch ms
    for (let i = 0; i < n; i++) {
      const v = rows[i][name];
      if (typeof v === 'number') data[i] = BigInt(Math.trunc(v)) * scale;
    }
    const t = type === 'int64' ? new Int64() : new TimestampMicrosecond('UTC');
    return makeData({ type: t, length: n, nullCount: nulls, nullBitmap: bitmap, data } as never);
  }
  if (type === 'int32') {
    const data = new Int32Array(n);
    for (let i = 0; i < n; i++) data[i] = (rows[i][name] as number | null) ?? 0;
    return makeData({ type: new Int32(), length: n, nullCount: nulls, nullBitmap: bitmap, data });
  }
  if (type === 'float64') {
    const data = new Float64Array(n);
    for (let i = 0; i < n; i++) data[i] = (rows[i][name] as number | null) ?? 0;
    return makeData({ type: new Float64(), length: n, nullCount: nulls, nullBitmap: bitmap, data });
  }
  const data = new Uint8Array((n + 7) >> 3);
  for (let i = 0; i < n; i++) if (rows[i][name] === true) data[i >> 3] |= 1 << (i & 7);
  return makeData({ type: new Bool(), length: n, nullCount: nulls, nullBitmap: bitmap, data });
}

/** One RecordBatch holding `rows`, column by column. */
export function rowsToRecordBatch(rows: Row[]): RecordBatch {
  const children = COLUMNS.map((c) => (c.type === 'utf8' ? utf8Column(rows, c.name) : numberColumn(rows, c.name, c.type)));
  const data = makeData({ type: new Struct(ROW_SCHEMA.fields), length: rows.length, nullCount: 0, children });
  return new RecordBatch(ROW_SCHEMA, data);
}
