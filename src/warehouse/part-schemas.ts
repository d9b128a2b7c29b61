/**
 * The Parquet parts of the partitions grouped by their schema, so that raw_events reads each group without
 * `union_by_name`. With it, DuckDB opens every part's footer each time a query binds the view (and every
 * view over it binds it again): on 500 tiny hosts (3,000 parts) 20 binds took 98 s and 1.4 GB, against 3.4 s
 * and 174 MB for one read by position (measured, issue 26). Parts of one schema read by position give what
 * union_by_name gives; the groups (one per clinetrail version that wrote parts still kept) are joined
 * `union all by name` (warehouse/model-run.ts eventsSource), so a part written before a column existed still
 * gives null there. Each host's groups are found when its models are built (warehouse/host-models.ts) and
 * kept in its commit record, so the assembly of fleet.duckdb opens no part.
 */
import * as path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlString } from './sql-literal.js';

/** Parts (paths relative to OUT) by the hash of their schema. */
export type PartGroups = Record<string, string[]>;

/** The schema hash of each of `parts` (relative to OUT), read from their footers on `conn`. */
export async function partGroups(conn: DuckDBConnection, outDir: string, parts: readonly string[]): Promise<PartGroups> {
  const groups: PartGroups = {};
  if (parts.length === 0) return groups;
  const byAbsolute = new Map(parts.map((p) => [path.resolve(outDir, p), p]));
  const list = `[${[...byAbsolute.keys()].map(sqlString).join(', ')}]`;
  const rows = (
    await conn
      .runAndReadAll(
        `select file_name, md5(string_agg(concat_ws(' ', name, duckdb_type, repetition_type, num_children), ',' order by column_id))
         from parquet_schema(${list}) group by file_name`,
      )
      .catch((err: unknown) => {
        throw new Error(`warehouse: reading the parts' schemas failed: ${(err as Error).message}`);
      })
  ).getRows();
  for (const [file, hash] of rows) {
    const part = byAbsolute.get(String(file));
    if (part === undefined) throw new Error(`warehouse: parquet_schema named ${String(file)}, no part of the build`);
    (groups[String(hash)] ??= []).push(part);
  }
  return groups;
}

/** The groups of several hosts together, each group's parts sorted, in the order of their hashes. */
export function mergedGroups(all: ReadonlyArray<PartGroups>): string[][] {
  const merged: PartGroups = {};
  for (const groups of all) for (const [hash, parts] of Object.entries(groups)) (merged[hash] ??= []).push(...parts);
  return Object.keys(merged)
    .sort()
    .map((hash) => merged[hash].sort());
}
