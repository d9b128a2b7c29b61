/**
 * Searches of a load's OUT folder for a string, for the secrets tests: the plain-text files (raw bytes)
 * and, decompressed, every Parquet row and every table and view of fleet.duckdb.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { listFiles } from './source.js';

/** Rows of a query on OUT/fleet.duckdb, opened read-only. */
export async function queryOut(out: string, sql: string): Promise<unknown[][]> {
  const instance = await DuckDBInstance.create(path.join(out, 'fleet.duckdb'), {
    access_mode: 'READ_ONLY',
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  });
  const conn = await instance.connect();
  try {
    return (await conn.runAndReadAll(sql)).getRowsJson() as unknown[][];
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/**
 * Files under OUT whose raw bytes contain `needle`. This sees the plain-text files (`_secrets.<gen>.jsonl`,
 * `_files.<gen>.jsonl`, manifests, state); Parquet pages are compressed, so rowsContaining reads them decompressed.
 */
export function filesContaining(out: string, needle: string): string[] {
  return listFiles(out)
    .filter((f) => fs.readFileSync(f).includes(needle))
    .map((f) => path.relative(out, f));
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
