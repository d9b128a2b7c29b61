/**
 * Issue 12, item 4: OUT is relocatable. A copy of OUT answers every query the same as OUT did when it
 * was copied, after the original is loaded again with a host removed, loses a Parquet part, and is
 * then deleted; its `events` reads the copy's own files; no object of its fleet.duckdb names the
 * original (or any absolute) path (sql/00_out_files.sql). Queries go through clinetrail's own query
 * path (queryWarehouse, the sandbox included); one more opens the copy as another client would,
 * with `file_search_path` and the one line docs/OUT.md gives other clients (the variable of the views'
 * file lists, warehouse/file-lists.ts), and nothing else of clinetrail's.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryWarehouse } from '../../src/warehouse/build.js';
import { REPO } from '../helpers/source.js';
import { assertBuilt, describeRun, lit, load, runCli, workDir } from '../hostile/harness.js';

const work = workDir('relocatable');
const fleet = path.join(work, 'fleet');
const original = path.join(work, 'out');
const copy = path.join(work, 'elsewhere', 'copy-of-out');
/** The host the original loses before its second load: copied, not linked, so removing it touches no fixture. */
const REMOVED = 'lnx-u01';

/** Row count and content hash of each table and view of the warehouse at `out` (as bench/warehouse-hash.ts). */
type Hashes = Record<string, { rows: number; hash: string | null }>;

/** The SQL of one table's row count and hash: MD5 of the sorted MD5s of its rows, every value as text. */
function hashSql(table: string, columns: string[]): string {
  const row = columns.map((c) => `coalesce(cast("${c}" as varchar), '∅')`).join(` || '|' || `);
  return `select count(*)::INTEGER, md5(string_agg(h, ',' order by h)) from (select md5(${row}) as h from "${table}")`;
}

/** Every table and view of `out`'s warehouse hashed, each through clinetrail's query path. */
async function hashesVia(run: (sql: string) => Promise<unknown[][]>): Promise<Hashes> {
  const columns = new Map<string, string[]>();
  for (const [table, column] of await run(
    `select table_name, column_name from information_schema.columns where table_schema = 'main' order by table_name, ordinal_position`,
  )) {
    columns.set(String(table), [...(columns.get(String(table)) ?? []), String(column)]);
  }
  const result: Hashes = {};
  for (const [table, cols] of columns) {
    const [[rows, hash]] = await run(hashSql(table, cols));
    result[table] = { rows: Number(rows), hash: hash === null ? null : String(hash) };
  }
  return result;
}

/** The line docs/OUT.md tells another client to run first: the views read their file lists from it. */
const OTHER_CLIENT_LINE = 'SET VARIABLE clinetrail_files = (SELECT map(list(name), list(files)) FROM clinetrail.file_lists)';

const viaClinetrail = (out: string) => async (sql: string) => (await queryWarehouse(out, sql)).rows;

/** The same hashes, read as another client would: DuckDB alone, `file_search_path` = OUT, cwd elsewhere. */
async function hashesAsAnotherClient(out: string): Promise<Hashes> {
  const instance = await DuckDBInstance.create(path.join(out, 'fleet.duckdb'), {
    access_mode: 'READ_ONLY',
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  });
  const conn = await instance.connect();
  try {
    await conn.run(`set file_search_path = ${lit(out)}`);
    await conn.run(OTHER_CLIENT_LINE);
    return await hashesVia(async (sql) => (await conn.runAndReadAll(sql)).getRowsJson() as unknown[][]);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/** The definition texts of the warehouse: views, tables, macros, and every comment. */
const DEFINITIONS = `
  select 'view ' || view_name, sql from duckdb_views() where not internal
  union all select 'table ' || table_name, sql from duckdb_tables() where not internal
  union all select 'macro ' || function_name, coalesce(macro_definition, '') from duckdb_functions() where not internal and macro_definition is not null
  union all select 'comment ' || table_name || '.' || column_name, coalesce(comment, '') from duckdb_columns() where not internal
  union all select 'comment ' || view_name, coalesce(comment, '') from duckdb_views() where not internal
  union all select 'comment ' || table_name, coalesce(comment, '') from duckdb_tables() where not internal`;

let before: Hashes;

beforeAll(async () => {
  assertBuilt();
  mkdirSync(fleet, { recursive: true });
  const demo = path.join(REPO, 'fixtures', 'fleet');
  for (const host of readdirSync(demo, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    if (host.name === REMOVED) cpSync(path.join(demo, host.name), path.join(fleet, host.name), { recursive: true });
    else symlinkSync(path.join(demo, host.name), path.join(fleet, host.name));
  }
  const first = await load(fleet, original);
  expect(first.code, describeRun(first)).toBe(0);
  before = await hashesVia(viaClinetrail(original));
  mkdirSync(path.dirname(copy), { recursive: true });
  cpSync(original, copy, { recursive: true });
}, 300_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a copy of OUT', () => {
  it('holds every model, with rows', () => {
    for (const name of ['raw_events', 'events', 'sessions', 'files', 'duplicates', 'load_runs', 'raw_runs']) {
      expect(before[name], name).toBeDefined();
      expect(before[name].rows, name).toBeGreaterThan(0);
    }
  });

  it('answers as before when the original is loaded again without a host and loses a Parquet part', async () => {
    rmSync(path.join(fleet, REMOVED), { recursive: true });
    // --prune: a host no longer in the input is kept otherwise (load/membership.ts)
    const second = await runCli(['load', '--fleet', fleet, '--out', original, '--full', '--prune']);
    expect(second.code, describeRun(second)).toBe(0);
    const changed = await hashesVia(viaClinetrail(original));
    // the original did change: events, sessions and the rest no longer match
    expect(changed.events.hash).not.toBe(before.events.hash);
    expect(changed.sessions.hash).not.toBe(before.sessions.hash);
    // one of the original's current Parquet parts goes: the original's raw_events can no longer be read
    const part = readdirSync(path.join(original, 'parquet', 'events', '0042'), { recursive: true })
      .map(String)
      .find((f) => f.endsWith('.parquet'));
    expect(part).toBeDefined();
    rmSync(path.join(original, 'parquet', 'events', '0042', part!));
    await expect(queryWarehouse(original, 'select count(*) from raw_events')).rejects.toThrow(/No files found|No such file/);
    expect(await hashesVia(viaClinetrail(copy))).toEqual(before);
  });

  it('gives other clients, in docs/OUT.md, the line this test runs as one', () => {
    expect(readFileSync(path.join(REPO, 'docs', 'OUT.md'), 'utf8')).toContain(OTHER_CLIENT_LINE);
  });

  it('answers as before once the original is gone, through clinetrail and as another client', async () => {
    rmSync(original, { recursive: true, force: true });
    expect(existsSync(original)).toBe(false);
    expect(await hashesVia(viaClinetrail(copy))).toEqual(before);
    expect(await hashesAsAnotherClient(copy)).toEqual(before);
  });

  it('reads only its own Parquet: every file its views name is under the copy', async () => {
    const [[sql]] = await viaClinetrail(copy)(`select sql from duckdb_views() where view_name = 'raw_events'`);
    // raw_events names its lists of parts (warehouse/file-lists.ts), which the table holds relative to OUT
    expect(String(sql)).toContain("out_list('parquet.0')");
    const listed = (await viaClinetrail(copy)('select name, unnest(files) from clinetrail.file_lists')).map(([n, f]) => [
      String(n),
      String(f),
    ]);
    const named = listed.filter(([n]) => n.startsWith('parquet.')).map(([, f]) => f);
    expect(named.length).toBeGreaterThan(5);
    for (const [, rel] of listed) expect(existsSync(path.join(copy, rel)), rel).toBe(true);
    for (const rel of named) expect(rel).toMatch(/^parquet\/events\/[^']+\.parquet$/);
    const parts = readdirSync(path.join(copy, 'parquet', 'events'), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.parquet'));
    expect(named.length).toBe(parts.length);
  });

  it('names no absolute path in any definition, comment or byte of its fleet.duckdb', async () => {
    const definitions = await viaClinetrail(copy)(DEFINITIONS);
    expect(definitions.length).toBeGreaterThan(20);
    for (const [what, text] of definitions) {
      expect(String(text), String(what)).not.toContain(original);
      expect(String(text), String(what)).not.toContain(copy);
      expect(String(text), String(what)).not.toContain(work);
    }
    // read_* calls name OUT's files only through the macros of sql/00_out_files.sql, with relative paths
    const reads = definitions.filter(([, text]) => /read_(parquet|json)\(/.test(String(text)));
    // raw_secrets reads files only where a load redacted a secret (none in this fleet)
    const readers = reads.map(([what]) => String(what));
    expect(readers).toEqual(expect.arrayContaining(['view raw_events', 'view raw_files', 'view raw_runs']));
    // besides them, only the per-host tables' views read files, those of OUT/models (warehouse/host-models.ts)
    expect(
      reads.every(
        ([what, text]) =>
          /^view raw_(events|files|runs|secrets)$/.test(String(what)) || String(text).includes("out_list('models."),
      ),
      readers.join(),
    ).toBe(true);
    for (const [what, text] of reads) expect(String(text), String(what)).toMatch(/read_(parquet|json)\(out_(files?|list)\(/);
    const bytes = readFileSync(path.join(copy, 'fleet.duckdb'));
    expect(bytes.includes(original)).toBe(false);
    expect(bytes.includes(work)).toBe(false);
  });
});
