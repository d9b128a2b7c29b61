/**
 * The parts of a `parquet-dataset` export (warehouse/export.ts): their names, and the key-value entry in
 * each part's footer that says clinetrail wrote it. That entry is how `export --force` knows a folder it may
 * replace (cli/output-folder.ts) without a file of its own beside the parts: polars refuses a folder that
 * holds anything but Parquet files, and Spark, Trino and pyarrow would have to be told to skip it.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { openDuckDB } from './duckdb-open.js';
import { sqlString } from './sql-literal.js';

/** The name of each part, numbered in the order the parts hold the rows. */
export const PART_NAME = /^part-\d{5,}\.parquet$/;
/** DuckDB's names of the parts as it writes them (FILENAME_PATTERN 'part-{i}'). */
const DUCKDB_PART = /^part-(\d+)\.parquet$/;

/** The footer entry of every part: key and value. */
const KV_KEY = 'clinetrail';
const KV_VALUE = 'parquet-dataset';

/** The COPY options that name the parts and mark them. */
export const PART_COPY_OPTIONS = `filename_pattern 'part-{i}', kv_metadata {${KV_KEY}: ${sqlString(KV_VALUE)}}`;

/**
 * The parts DuckDB wrote into `dir` (`part-0.parquet`, ..., `part-10.parquet`), renamed with five digits so
 * that their names sort in the order they hold the rows (DuckDB numbers them as it opens them).
 */
export async function numberParts(dir: string): Promise<string[]> {
  await fs.mkdir(dir, { recursive: true });
  const parts: string[] = [];
  for (const name of await fs.readdir(dir)) {
    const i = DUCKDB_PART.exec(name)?.[1];
    if (i === undefined) throw new Error(`export: DuckDB wrote ${name} into the dataset, not a part`);
    const numbered = `part-${i.padStart(5, '0')}.parquet`;
    if (numbered !== name) await fs.rename(path.join(dir, name), path.join(dir, numbered));
    parts.push(numbered);
  }
  return parts.sort();
}

/** The first of `files` that is not a part clinetrail wrote (no Parquet file, or no clinetrail entry), or null. */
export async function firstForeignPart(files: readonly string[]): Promise<string | null> {
  if (files.length === 0) return null;
  const { instance, conn } = await openDuckDB(':memory:', {});
  try {
    for (const file of files) {
      const marked = await conn
        .runAndReadAll(
          `select count(*) from parquet_kv_metadata(${sqlString(file)}) where decode(key) = ${sqlString(KV_KEY)} and decode(value) = ${sqlString(KV_VALUE)}`,
        )
        .then((r) => Number(r.getRows()[0][0]) > 0)
        .catch(() => false);
      if (!marked) return file;
    }
    return null;
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
