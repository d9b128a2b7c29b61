/**
 * How the build of a batch of hosts writes its per-host relations (warehouse/host-models.ts): each as
 * Parquet, one folder per host under the batch's staging folder (`<relation>/clinetrail_host_ix=<i>/`),
 * in memory that does not grow with the texts of the batch.
 *
 * A partitioned COPY holds, for each host and each thread, the rows not yet flushed to its file, and
 * for each open file its writer and the row group it is writing. With DuckDB's defaults and two threads,
 * the copy of the stored timeline held the batch's texts, and the writers of a batch of tiny hosts cost
 * more than their rows (docs/BENCHMARKS.md, "The timeline, stored per host"). So the copies run on one
 * thread, flush after FLUSH_ROWS rows, write row groups of ROW_GROUP_ROWS rows, and a stored view, whose
 * rows are evaluated once into one file, is copied from that file COPY_GROUP_HOSTS hosts at a time.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ModelSchema } from '../core/model-layout.js';
import { sqlIdent, sqlString } from './sql-literal.js';

const FLUSH_ROWS = 256;
const ROW_GROUP_ROWS = 1024;
const COPY_GROUP_HOSTS = 16;

/** DuckDB's 128-bit integers, which Parquet cannot hold. */
const WIDE_INTEGER = /^U?HUGEINT$/;

/** The columns of a per-host relation `t` as stored: a 128-bit integer as its text. */
function storedColumns(columns: Array<[string, string]>): string {
  return columns
    .map(([name, type]) =>
      WIDE_INTEGER.test(type) ? `t.${sqlIdent(name)}::VARCHAR as ${sqlIdent(name)}` : `t.${sqlIdent(name)}`,
    )
    .join(', ');
}

/**
 * The columns of a per-host relation read back from its stored rows: each cast to its type, the inverse
 * of storedColumns. `value` gives the expression read for a column (its quoted name by default).
 */
export function typedColumns(columns: Array<[string, string]>, value: (name: string) => string = sqlIdent): string {
  return columns.map(([name, type]) => `cast(${value(name)} as ${type}) as ${sqlIdent(name)}`).join(', ');
}

/** The `*row_id` column that names the host of a relation without a host column, or null when it has one. */
function rowIdColumn(columns: Array<[string, string]>): string | null {
  if (columns.some(([name]) => name === 'host')) return null;
  return columns.find(([name]) => name.endsWith('row_id'))?.[0] ?? 'row_id';
}

/**
 * The rows of a per-host relation read from `source` (the relation, or a file of its rows), as stored,
 * with the index of their host in the batch (the temp table clinetrail_batch): a relation without a host
 * column names it by its first `*row_id` column, a row of raw_events.
 */
function storedRows(source: string, columns: Array<[string, string]>): string {
  const list = storedColumns(columns);
  const rowColumn = rowIdColumn(columns);
  if (rowColumn === null)
    return `select ${list}, b.ix as clinetrail_host_ix from ${source} as t join clinetrail_batch as b on b.host = t.host`;
  return `select ${list}, b.ix as clinetrail_host_ix from ${source} as t
    join (select row_id, host from raw_events) as r on r.row_id = t.${sqlIdent(rowColumn)}
    join clinetrail_batch as b on b.host = r.host`;
}

/** One partitioned copy of `rows` into `target`, next to the partitions already there. */
async function copyPartitioned(conn: DuckDBConnection, rows: string, target: string): Promise<void> {
  await conn.run(
    `copy (${rows}) to ${sqlString(target)} (format parquet, partition_by (clinetrail_host_ix), row_group_size ${ROW_GROUP_ROWS}, overwrite_or_ignore)`,
  );
}

/** A filter of relation `t` to the rows of `host`: by its host column, or by its first `*row_id` column. */
function ofHost(columns: Array<[string, string]>, host: string): string {
  const rowColumn = rowIdColumn(columns);
  if (rowColumn === null) return `t.host = ${sqlString(host)}`;
  return `t.${sqlIdent(rowColumn)} in (select row_id from raw_events where host = ${sqlString(host)})`;
}

/**
 * A batch of one host, which a host too big to share a batch always is: each relation, a stored view
 * included, is copied straight into the host's folder. A copy to one file holds no rows per host and no
 * writer per file, so it needs neither partitioning nor the spill file (docs/BENCHMARKS.md, "One host,
 * one copy"). It still runs on one thread: two took the big host's batch to 618-645 MB, against 524-580
 * on one. No file for no rows, as a partitioned copy writes none.
 */
async function writeOneHost(conn: DuckDBConnection, schema: ModelSchema, host: string, staging: string): Promise<void> {
  await conn.run('set threads = 1');
  for (const [table, columns] of Object.entries(schema)) {
    const dir = path.join(staging, table, 'clinetrail_host_ix=0');
    await fs.mkdir(dir, { recursive: true });
    const file = path.join(dir, 'data_0.parquet');
    const rows = `select ${storedColumns(columns)} from ${sqlIdent(table)} as t where ${ofHost(columns, host)}`;
    const copied = await conn.runAndReadAll(
      `copy (${rows}) to ${sqlString(file)} (format parquet, row_group_size ${ROW_GROUP_ROWS})`,
    );
    if (Number(copied.getRows()[0]?.[0] ?? 0) === 0) await fs.rm(file);
  }
}

/** The columns of relation `name` on `conn`, with their types. */
export async function columnsOf(conn: DuckDBConnection, name: string): Promise<Array<[string, string]>> {
  const rows = (await conn.runAndReadAll(`describe ${sqlIdent(name)}`)).getRows();
  return rows.map((r) => [String(r[0]), String(r[1])]);
}

/**
 * Evaluates view `view` once into a file of `tempDir`, its rows as stored (a 128-bit integer as its
 * text), and puts in its place a view of the same name, columns and types over that file: what reads it
 * afterwards, the later models and the per-host copy, reads its rows instead of evaluating its joins
 * again (docs/BENCHMARKS.md, "One host, one copy"). Returns the file.
 */
export async function storeViewRows(conn: DuckDBConnection, view: string, tempDir: string): Promise<string> {
  const columns = await columnsOf(conn, view);
  const file = path.join(tempDir, `${view}.parquet`);
  await conn.run(
    `copy (select ${storedColumns(columns)} from ${sqlIdent(view)} as t) to ${sqlString(file)} (format parquet, row_group_size ${ROW_GROUP_ROWS})`,
  );
  await conn.run(
    `create or replace view ${sqlIdent(view)} as select ${typedColumns(columns)} from read_parquet(${sqlString(file)}, hive_partitioning = false)`,
  );
  return file;
}

/**
 * Writes every relation of `schema` for the hosts of the batch (the folder of `hosts[i]` is
 * `clinetrail_host_ix=<i>`) under `staging`. A view of `storedViews` is copied from the file of its rows
 * that storeViewRows wrote, and written into `tempDir` here when it has none yet.
 */
export async function writePerHostRelations(
  conn: DuckDBConnection,
  schema: ModelSchema,
  storedViews: ReadonlyMap<string, string | null>,
  hosts: string[],
  dirs: { staging: string; tempDir: string },
): Promise<void> {
  if (hosts.length === 1) return writeOneHost(conn, schema, hosts[0], dirs.staging);
  await conn.run(`create temp table clinetrail_batch (host VARCHAR, ix INTEGER)`);
  await conn.run(`insert into clinetrail_batch values ${hosts.map((h, ix) => `(${sqlString(h)}, ${ix})`).join(', ')}`);
  // one thread also gives back the caches the build's second thread kept
  await conn.run('set threads = 1');
  await conn.run(`set partitioned_write_flush_threshold = ${FLUSH_ROWS}`);
  for (const [table, columns] of Object.entries(schema)) {
    const target = path.join(dirs.staging, table);
    if (!storedViews.has(table)) {
      await copyPartitioned(conn, storedRows(sqlIdent(table), columns), target);
      continue;
    }
    const file = storedViews.get(table) ?? (await storeViewRows(conn, table, dirs.tempDir));
    const rows = storedRows(`read_parquet(${sqlString(file)})`, columns);
    for (let first = 0; first < hosts.length; first += COPY_GROUP_HOSTS)
      await copyPartitioned(
        conn,
        `select * from (${rows}) where clinetrail_host_ix >= ${first} and clinetrail_host_ix < ${first + COPY_GROUP_HOSTS}`,
        target,
      );
  }
}
