/**
 * A fingerprint of a whole warehouse: every table and view of `OUT/fleet.duckdb` (the models, the raw
 * views, the load records), each as its row count and an order-independent hash of its rows, so two
 * warehouses built from the same evidence can be compared table by table: before and after a change of
 * the readers, four shard loads against one plain load, loads one by one against one load.
 *
 * The hash of a table is the md5 of the sorted md5s of its rows' text (`row::varchar` of the columns
 * kept, in their catalog order): independent of the row order, and unlike a xor of row hashes it counts
 * a row that appears twice. Compared within one DuckDB version (the text of a value is DuckDB's).
 *
 * Left out are only the columns that differ between two loads of the same evidence by design, listed
 * in EXCLUDED with the reason; everything else (paths of the evidence, row ids, times of the records)
 * must be equal. No table or view holds an OUT path or a partition's generation (the views name files
 * relative to OUT, sql/00_out_files.sql), so none is left out for them: test/e2e/shards.test.ts compares
 * two OUTs with every column but these.
 */
import { queryWarehouse } from '../../src/warehouse/build.js';

/** The hash and row count of one table or view. */
export interface TableHash {
  rows: number;
  hash: string;
}

/** Columns left out of the hash, by table (or `*` for every table that has the column), each with its reason. */
const EXCLUDED: Record<string, Record<string, string>> = {
  raw_runs: {
    run_id: 'a random id per run',
    started_at: 'when the run ran',
    ended_at: 'when the run ran',
    finished_at: 'when the run ran',
  },
  load_runs: {
    run_id: 'a random id per run',
    started_at_utc: 'when the run ran',
    ended_at_utc: 'when the run ran',
    finished_at_utc: 'when the run ran',
  },
  hosts: {
    first_seen_at_utc: 'the start of a run',
    first_loaded_at_utc: 'the start of a run',
    last_loaded_at_utc: 'the start of a run',
    last_seen_at_utc: 'the start of a run',
  },
};

/** Options of tableHashes. */
export interface TableHashOptions {
  /**
   * Tables or views to leave out entirely, by name, for a comparison where they differ by design (the
   * run records of N shard loads against one load): the caller says why.
   */
  skip?: readonly string[];
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Every table and view of OUT/fleet.duckdb (schema main) with its row count and hash, by name. */
export async function tableHashes(out: string, options: TableHashOptions = {}): Promise<Map<string, TableHash>> {
  const skip = new Set(options.skip ?? []);
  const columns = (
    await queryWarehouse(
      out,
      `select c.table_name, c.column_name from information_schema.columns as c
       join information_schema.tables as t using (table_catalog, table_schema, table_name)
       where c.table_schema = 'main' order by c.table_name, c.ordinal_position`,
    )
  ).rows as Array<[string, string]>;
  const byTable = new Map<string, string[]>();
  for (const [table, column] of columns) {
    if (skip.has(table)) continue;
    const excluded = { ...EXCLUDED['*'], ...EXCLUDED[table] };
    const list = byTable.get(table) ?? [];
    if (!(column in excluded)) list.push(column);
    byTable.set(table, list);
  }
  const hashes = new Map<string, TableHash>();
  for (const [table, kept] of byTable) {
    const row = kept.length > 0 ? `row(${kept.map(quote).join(', ')})::varchar` : `''`;
    const [[rows, hash]] = (
      await queryWarehouse(
        out,
        `select count(*), md5(coalesce(string_agg(h, '' order by h), '')) from (select md5(${row}) as h from ${quote(table)})`,
      )
    ).rows as Array<[unknown, string]>;
    hashes.set(table, { rows: Number(rows), hash });
  }
  return hashes;
}

/** The tables whose hash or row count differs between two fingerprints, or that only one has. */
export function differingTables(a: Map<string, TableHash>, b: Map<string, TableHash>): string[] {
  const names = [...new Set([...a.keys(), ...b.keys()])].sort();
  return names.filter((n) => a.get(n)?.hash !== b.get(n)?.hash || a.get(n)?.rows !== b.get(n)?.rows);
}
