/**
 * Row count and content hash of every table and view of a warehouse, to show that a change of code
 * leaves the warehouse the same: `node dist/bench/warehouse-hash.js OUT > before.json`, change the code,
 * load again, then `node dist/bench/warehouse-hash.js OUT2 before.json` prints `same` or `DIFF` per
 * table, hashing only the columns the first warehouse had (a new column does not count as a change).
 * The hash is the MD5 of the sorted MD5s of the rows (every value cast to text), so row order does not
 * matter and repeated rows do.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { setFleetVariables } from '../src/warehouse/build.js';

interface TableHash {
  rows: number;
  columns: string[];
  hash: string | null;
}

const [out, beforeFile] = process.argv.slice(2);
if (!out) {
  process.stderr.write('usage: node dist/bench/warehouse-hash.js OUT [before.json]\n');
  process.exit(2);
}
const before: Record<string, TableHash> | null = beforeFile ? JSON.parse(readFileSync(beforeFile, 'utf8')) : null;
const instance = await DuckDBInstance.create(path.join(out, 'fleet.duckdb'), {
  access_mode: 'READ_ONLY',
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
});
const conn = await instance.connect();
// the views name OUT's files relative to OUT (sql/00_out_files.sql)
await setFleetVariables(conn, out);
const rowsOf = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjects();
const tables = (await rowsOf(`select table_name from information_schema.tables where table_schema = 'main' order by 1`)).map(
  (r) => String(r.table_name),
);
const result: Record<string, TableHash> = {};
for (const table of tables) {
  const all = (
    await rowsOf(
      `select column_name from information_schema.columns where table_schema = 'main' and table_name = '${table}' order by ordinal_position`,
    )
  ).map((r) => String(r.column_name));
  const columns = before?.[table] ? before[table].columns.filter((c) => all.includes(c)) : all;
  const row = columns.map((c) => `coalesce(cast("${c}" as varchar), '∅')`).join(` || '|' || `);
  const [r] = await rowsOf(
    `select count(*)::bigint as n, md5(string_agg(h, ',' order by h)) as hash from (select md5(${row}) as h from "${table}")`,
  );
  result[table] = { rows: Number(r.n), columns, hash: r.hash === null ? null : String(r.hash) };
}
if (before === null) {
  process.stdout.write(`${JSON.stringify(result, null, 1)}\n`);
} else {
  for (const table of [...new Set([...Object.keys(before), ...Object.keys(result)])].sort()) {
    const [a, b] = [before[table], result[table]];
    const same = a !== undefined && b !== undefined && a.rows === b.rows && a.hash === b.hash;
    process.stdout.write(
      `${same ? 'same' : 'DIFF'}\t${table}\t${a?.rows ?? '-'} -> ${b?.rows ?? '-'} rows\t${b?.columns.length ?? 0} columns compared\n`,
    );
  }
}
conn.closeSync();
instance.closeSync();
