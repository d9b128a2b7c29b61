/**
 * write/arrow-batch.ts: every value of every column comes back from the record batch as the row held it,
 * and from the Parquet part written from it: texts repeated row after row (copied, not encoded again),
 * short and long, ASCII or not, lone surrogates, texts that outgrow the column's first buffer, nulls and
 * empty texts, whole numbers beyond 32 bits and beyond 2^53, negative ones, timestamps.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import * as parquet from 'parquet-wasm/node';
import { afterAll, describe, expect, it } from 'vitest';
import { COLUMNS } from '../../src/core/records.js';
import type { Row } from '../../src/core/row.js';
import { rowFor } from '../../src/readers/common/rows.js';
import { rowsToRecordBatch } from '../../src/write/arrow-batch.js';
import { PartWriter } from '../../src/write/parquet-file.js';
import { makeSource } from '../helpers/source.js';

const source = makeSource({
  store: 'vscode-tasks',
  imageRoot: '/img',
  root: '/img/home/ann/.vscode',
  home: 'home/ann',
  files: [],
});

const TEXTS = [
  'plain ascii',
  'plain ascii',
  'é',
  'naïve café '.repeat(3),
  '🚀 emoji',
  'lone \ud800 surrogate',
  `${'x'.repeat(64)}`,
  `${'x'.repeat(63)}é`,
  `${'y'.repeat(65)}`,
  `${'日本語のテキスト'.repeat(25_000)}`, // 3 bytes per unit: outgrows a buffer of one byte per unit
  'naïve café '.repeat(3),
  '',
  null,
  'a',
];

const NUMBERS = [
  0,
  1,
  -1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 32 + 5,
  -(2 ** 40) - 3,
  2 ** 53 - 1,
  -(2 ** 53) + 1,
  2 ** 60,
  -(2 ** 62),
  12.9,
  -12.9,
  null,
];

function rows(): Row[] {
  return TEXTS.map((text, i) => {
    const row = rowFor(source, '/img/home/ann/.vscode/t.json', {
      source_line: NUMBERS[i % NUMBERS.length],
      source_seq: i,
      timestamp_utc: i === 0 ? null : 1_760_000_000_123 + i * 1_000_001,
      turn_type: 'assistant',
      kind: i % 3 === 0 ? 'say:text' : 'say:tool',
      text,
      model: i < 5 ? 'm-1' : i < 9 ? null : 'm-2',
      tokens_in: NUMBERS[(i + 3) % NUMBERS.length],
      cost_usd: i / 7,
      is_error: i % 4 === 0 ? true : i % 4 === 1 ? false : null,
    });
    row.file_row = i + 1;
    return row;
  });
}

/** What a column should hold for `v`: int64 whole numbers as BigInt; Arrow JS reads timestamps back as epoch ms. */
function expected(type: string, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (type === 'int64') return BigInt(Math.trunc(v as number));
  if (type === 'timestamp') return Math.trunc(v as number);
  if (type === 'utf8') return Buffer.from(v as string, 'utf8').toString('utf8'); // lone surrogates as U+FFFD
  return v;
}

function check(table: { getChild(name: string): { get(i: number): unknown } | null }, input: Row[]): void {
  for (const c of COLUMNS) {
    const col = table.getChild(c.name);
    expect(col, c.name).not.toBeNull();
    const got = input.map((_, i) => col?.get(i));
    expect(got, c.name).toEqual(input.map((r) => expected(c.type, r[c.name])));
  }
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('rowsToRecordBatch', () => {
  it('holds every value of every row, column by column', () => {
    const input = rows();
    const batch = rowsToRecordBatch(input);
    expect(batch.numRows).toBe(input.length);
    check(batch, input);
  });

  it('gives a Parquet part that reads back the same values', async () => {
    const input = rows();
    const dir = mkdtempSync(path.join(tmpdir(), 'arrow-batch-'));
    dirs.push(dir);
    const file = path.join(dir, 'part.parquet');
    const writer = new PartWriter(file);
    await writer.write(rowsToRecordBatch(input.slice(0, 5)));
    await writer.write(rowsToRecordBatch(input.slice(5)));
    await writer.close();
    const wasmTable = parquet.readParquet(new Uint8Array(readFileSync(file)));
    const table = tableFromIPC(wasmTable.intoIPCStream());
    expect(table.numRows).toBe(input.length);
    check(table, input);
  });
});
