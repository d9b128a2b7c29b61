/**
 * A fingerprint of a whole warehouse: every table and view of `OUT/fleet.duckdb` (the models, the raw
 * views, the load records), each as its row count and an order-independent hash of its rows, so two
 * warehouses built from the same evidence can be compared table by table: before and after a change of
 * the readers, four shard loads against one plain load, loads one by one against one load.
 *
 * The hash of a table is the sum, mod 2^64, of DuckDB's 64-bit `hash()` of each row (a struct of the
 * columns kept, in their catalog order): independent of the row order, and unlike a xor it counts a row
 * that appears twice. DuckDB's hash, so compare fingerprints made by one DuckDB version. The md5 of the
 * sorted md5s of the rows' text, the other way, took 24 s for a 19,000-row generated warehouse against
 * 2 s (md5 of long texts is slow in DuckDB).
 *
 * Left out are only the columns that differ between two loads of the same evidence by design, listed
 * in EXCLUDED with the reason; everything else (paths of the evidence, row ids, times of the records)
 * must be equal. No table or view holds an OUT path or a partition's generation (the views name files
 * relative to OUT, sql/00_out_files.sql), so none is left out for them: test/e2e/shards.test.ts compares
 * two OUTs with every column but these.
 */
import { withQueryConnection } from '../../src/warehouse/build.js';

/** The hash and row count of one table or view. */
export interface TableHash {
  rows: number;
  hash: string;
}

/** Columns left out of the hash, by table, each with its reason. */
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
  hunt_runs: {
    ran_at_utc: 'when the hunt pack ran (every build runs it)',
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
  // one read-only connection in the query sandbox for every table: an instance per query cost ~1 s each
  return withQueryConnection(out, {}, async (conn) => {
    const rowsOf = async (sql: string) => (await conn.runAndReadAll(sql)).getRowsJson() as unknown[][];
    const columns = (await rowsOf(
      `select c.table_name, c.column_name from information_schema.columns as c
       join information_schema.tables as t using (table_catalog, table_schema, table_name)
       where c.table_schema = 'main' order by c.table_name, c.ordinal_position`,
    )) as Array<[string, string]>;
    const byTable = new Map<string, string[]>();
    for (const [table, column] of columns) {
      if (skip.has(table)) continue;
      const excluded = EXCLUDED[table] ?? {};
      const list = byTable.get(table) ?? [];
      if (!(column in excluded)) list.push(column);
      byTable.set(table, list);
    }
    const hashes = new Map<string, TableHash>();
    for (const [table, kept] of byTable) {
      const row = kept.length > 0 ? `row(${kept.map(quote).join(', ')})` : `''`;
      const [[rows, hash]] = (await rowsOf(
        `select count(*), coalesce(sum(hash(${row})::hugeint) % 18446744073709551616, 0)::varchar from ${quote(table)}`,
      )) as Array<[unknown, string]>;
      hashes.set(table, { rows: Number(rows), hash });
    }
    return hashes;
  });
}

/** The tables whose hash or row count differs between two fingerprints, or that only one has. */
export function differingTables(a: Map<string, TableHash>, b: Map<string, TableHash>): string[] {
  const names = [...new Set([...a.keys(), ...b.keys()])].sort();
  return names.filter((n) => a.get(n)?.hash !== b.get(n)?.hash || a.get(n)?.rows !== b.get(n)?.rows);
}
