/**
 * Reading the tables of one SQLite store's private copy record by record, for the stores whose rows are
 * one table record each (hub-runs, teams-db, tasks-db, cron-db, connectors-db, locks): only the columns a
 * table has are selected (an older schema reads its absent columns as null), records come in stored
 * order (rowid, or the primary key of a `WITHOUT ROWID` table), and `source_line` is the rowid (the
 * 1-based position in key order without one). Several tables of one file may share a `source_line`; the
 * row's text names its table.
 *
 * A database with none of the tables is one `parser:` row; a table that fails mid-read (a malformed page)
 * is one `parser:` row after the rows read so far, and the next table is read. A fault of our own copy
 * (core/own-fault.ts) is thrown on.
 */
import * as path from 'node:path';
import type { Row, RowFields, Source } from '../../core/row.js';
import { columnsOf, hasTable, ident, type PrivateCopy, storedOrder } from '../../evidence/sqlite-copy.js';
import { parserRow, rowFor } from './rows.js';
import { epochMs, show } from './values.js';

/** What one record gives: the fields of a row, or a problem that becomes a `parser:` row at the record's line. */
export type RecordRow = RowFields | { problem: string; fields?: Partial<RowFields> };

/** One table to read: its name, the columns its rows use, and the rows of one record (columns absent read as null). */
export interface TableSpec {
  table: string;
  columns: readonly string[];
  rows: (record: Record<string, unknown>) => Iterable<RecordRow>;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The rows of every table of `tables` the copy has, table after table. */
export async function* readTables(
  source: Source,
  copy: PrivateCopy,
  file: string,
  tables: readonly TableSpec[],
): AsyncGenerator<Row> {
  let present: TableSpec[];
  try {
    present = tables.filter((t) => hasTable(copy.db, t.table));
  } catch (err) {
    const own = copy.ownFault(err);
    if (own) throw own;
    yield parserRow(source, file, null, `reading the schema failed: ${message(err)}`);
    return;
  }
  if (present.length === 0) {
    const names = tables.map((t) => t.table).join(', ');
    yield parserRow(source, file, null, `none of the tables ${names} (unknown schema; ${path.basename(file)})`);
    return;
  }
  for (const spec of present) yield* readTable(source, copy, file, spec);
}

function* readTable(source: Source, copy: PrivateCopy, file: string, spec: TableSpec): Generator<Row> {
  let last: number | null = null;
  let byRowid = true;
  try {
    const have = columnsOf(copy.db, spec.table);
    const cols = spec.columns.filter((c) => have.has(c));
    const order = storedOrder(copy.db, spec.table);
    byRowid = order === 'rowid';
    const select = [...(byRowid ? ['rowid AS "__rowid"'] : []), ...cols.map(ident)];
    const stmt = copy.db.prepare(
      `SELECT ${select.length > 0 ? select.join(', ') : '1'} FROM ${ident(spec.table)} ORDER BY ${order}`,
    );
    let position = 0;
    for (const raw of stmt.iterate() as IterableIterator<Record<string, unknown>>) {
      position += 1;
      const line = byRowid ? Number(raw.__rowid) : position;
      last = line;
      const record: Record<string, unknown> = {};
      for (const c of spec.columns) record[c] = raw[c] ?? null;
      let seq = 0;
      for (const r of spec.rows(record)) {
        if ('problem' in r) {
          yield parserRow(source, file, line, `${spec.table}: ${r.problem}`, { ...r.fields, source_seq: seq++ });
        } else {
          yield rowFor(source, file, { ...r, source_line: line, source_seq: seq++ });
        }
      }
    }
  } catch (err) {
    const own = copy.ownFault(err);
    if (own) throw own;
    const where = last === null ? '' : ` after ${byRowid ? 'rowid' : 'row'} ${last}`;
    yield parserRow(source, file, null, `reading ${spec.table} failed${where}: ${message(err)}`);
  }
}

// ---------------------------------------------------------------------------------------------------
// Column values: SQLite gives text, numbers, blobs or null whatever the declared type.

/** A column as text: strings as they are ('' as null), numbers as digits, a blob by its size. */
export function textOf(value: unknown): string | null {
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (value instanceof Uint8Array) return `[${value.length}-byte blob]`;
  return null;
}

/** `name=value` for a text column, `-` when absent. */
export function field(name: string, value: unknown): string {
  return `${name}=${show(textOf(value))}`;
}

/** `name=<ISO time>` for a time column (epoch ms or an ISO string), else the value as found, `-` when absent. */
export function timeField(name: string, value: unknown): string {
  const ms = epochMs(value);
  return `${name}=${ms === null ? show(textOf(value)) : new Date(ms).toISOString()}`;
}

/** `name=true|false` for a 0/1 column, else the value as found. */
export function flagField(name: string, value: unknown): string {
  return `${name}=${value === 1 ? 'true' : value === 0 ? 'false' : show(textOf(value))}`;
}

/** A JSON text column parsed: the value (null for an empty or absent column), or why it could not be. */
export function jsonColumn(value: unknown, column: string): { value: unknown } | { problem: string } {
  if (value === null || value === '') return { value: null };
  if (typeof value !== 'string')
    return { problem: `${column} is not text (${value instanceof Uint8Array ? 'blob' : typeof value})` };
  try {
    return { value: JSON.parse(value) };
  } catch (err) {
    return { problem: `${column} is not valid JSON: ${message(err)}` };
  }
}
