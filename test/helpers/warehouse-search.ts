/**
 * Searches of a load's OUT folder for strings, for the secrets tests: the plain-text files (raw bytes)
 * and, decompressed, every Parquet row and every table and view of fleet.duckdb.
 */
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { setFleetVariables } from '../../src/warehouse/build.js';
import { listFiles } from './source.js';

/**
 * `use` run on OUT/fleet.duckdb opened read-only here, with DuckDB alone (not clinetrail's query path),
 * its views pointed at OUT.
 */
export async function withOutWarehouse<T>(out: string, use: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(path.join(out, 'fleet.duckdb'), {
    access_mode: 'READ_ONLY',
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  });
  const conn = await instance.connect();
  try {
    await setFleetVariables(conn, out);
    return await use(conn);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/** Rows of a query on OUT/fleet.duckdb, opened read-only. */
export function queryOut(out: string, sql: string): Promise<unknown[][]> {
  return withOutWarehouse(out, async (conn) => (await conn.runAndReadAll(sql)).getRowsJson() as unknown[][]);
}

/** A SQL string literal. */
const lit = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * `<needle>: <place>` for every needle found anywhere under OUT: in a file's raw bytes (the plain-text
 * files: `_secrets.<gen>.jsonl`, `_files.<gen>.jsonl`, manifests, state), or in the rows of a Parquet part
 * or of a table or view, decompressed (Parquet pages are compressed, so their bytes hide nothing). Empty: none is
 * anywhere. Each file is read once and fleet.duckdb opened once, whatever the number of needles.
 */
export async function whereFound(out: string, needles: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const file of listFiles(out)) {
    const bytes = fs.readFileSync(file);
    for (const needle of needles) if (bytes.includes(needle)) found.push(`${needle}: ${path.relative(out, file)}`);
  }
  const parquet = path.join(out, 'parquet', 'events', '*', '*', '*.parquet');
  const relations = (
    await queryOut(out, "select table_name from information_schema.tables where table_schema = 'main' order by 1")
  ).map(([n]) => String(n));
  const sources = [`read_parquet('${parquet}')`, ...relations.map((n) => `"${n}"`)];
  const values = needles.map((n) => `(${lit(n)})`).join(', ');
  const rows = await queryOut(
    out,
    `with needles(needle) as (values ${values}) ${sources
      .map(
        (s) =>
          `select needle, ${lit(s)}, count(*) from (select cast(t as varchar) as row_text from ${s} as t) join needles on contains(row_text, needle) group by all`,
      )
      .join(' union all ')} order by all`,
  );
  for (const [needle, place, n] of rows) found.push(`${needle}: ${place}: ${n}`);
  return found;
}

/** `<table or Parquet>: <rows>` for every Parquet part and every table and view whose rows contain `needle` (decompressed). */
export async function rowsContaining(out: string, needle: string): Promise<string[]> {
  const like = `'%${needle.replace(/'/g, "''")}%'`;
  const parquet = path.join(out, 'parquet', 'events', '*', '*', '*.parquet');
  const relations = (
    await queryOut(out, "select table_name from information_schema.tables where table_schema = 'main' order by 1")
  ).map(([n]) => String(n));
  const sources = [`read_parquet('${parquet}')`, ...relations.map((n) => `"${n}"`)];
  const counts = await queryOut(
    out,
    sources
      .map((s) => `select '${s.replace(/'/g, "''")}', count(*) from ${s} as t where cast(t as varchar) like ${like}`)
      .join(' union all '),
  );
  return counts.filter(([, n]) => Number(n) > 0).map(([s, n]) => `${s}: ${n}`);
}
