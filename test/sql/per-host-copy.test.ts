/**
 * How a batch's per-host relations are written (warehouse/per-host-copy.ts): each host's folder of the
 * staging area holds exactly that host's rows, for a table copied at once and for a stored view copied
 * through a file of its rows (which then stands in for the view), a group of hosts at a time; a relation named by row_id finds its host in
 * raw_events; a 128-bit integer is stored as text. The first batch has more hosts than one group; a
 * batch of one host is copied straight into its folder.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDuckDB } from '../../src/warehouse/duckdb-open.js';
import { writePerHostRelations } from '../../src/warehouse/per-host-copy.js';

const work = mkdtempSync(path.join(tmpdir(), 'per-host-copy-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** 10^20 as a 128-bit integer. */
const WIDE = '100000000000000000000::HUGEINT';

/** 40 hosts (more than two groups of the copy), host i with i + 1 rows; names that sort otherwise than their order. */
const HOSTS = Array.from({ length: 40 }, (_, i) => `h-${String((i * 7) % 40).padStart(2, '0')}-${i}`);

/** The relations both batches write: one by host, the stored view, one by row_id; 128-bit integers in two. */
const SCHEMA: Record<string, Array<[string, string]>> = {
  per_host: [
    ['host', 'VARCHAR'],
    ['wide', 'HUGEINT'],
  ],
  timeline: [
    ['row_id', 'INTEGER'],
    ['host', 'VARCHAR'],
    ['text', 'VARCHAR'],
    ['wide', 'HUGEINT'],
  ],
  by_row: [
    ['row_id', 'INTEGER'],
    ['n', 'BIGINT'],
  ],
};

describe('the per-host files of a batch', () => {
  const staging = path.join(work, 'staging');
  const tempDir = path.join(work, 'spill');
  let db: Awaited<ReturnType<typeof openDuckDB>>;
  const conn = () => db.conn;

  beforeAll(async () => {
    mkdirSync(staging);
    mkdirSync(tempDir);
    db = await openDuckDB(':memory:', {});
    const rows = HOSTS.flatMap((host, i) => Array.from({ length: i + 1 }, (_, n) => `(${n}, '${host}', 'text ${host} ${n}')`));
    await conn().run(`create table raw_events (row_id INTEGER, host VARCHAR, text VARCHAR)`);
    await conn().run(`insert into raw_events values ${rows.join(', ')}`);
    // row ids unique over the fleet: the host's position times 1,000 plus the row's number
    await conn().run(`update raw_events set row_id = row_id + 1000 * list_position(${sqlList(HOSTS)}, host)`);
    await conn().run(`create table per_host as select host, count(*)::HUGEINT as wide from raw_events group by host`);
    // a 128-bit integer that a DOUBLE would round
    await conn().run(`create view timeline as select row_id, host, text, row_id * ${WIDE} + 1 as wide from raw_events`);
    await conn().run(`create table by_row as select row_id, length(text) as n from raw_events`);
    // no file of the view's rows yet: the copy writes it (storeViewRows), as the build's would
    await writePerHostRelations(conn(), SCHEMA, new Map([['timeline', null]]), HOSTS, { staging, tempDir });
  });

  afterAll(() => {
    db.conn.closeSync();
    db.instance.closeSync();
  });

  /** The rows of relation `table` in host i's folder, as text. */
  const folder = async (table: string, i: number, select: string) => {
    const dir = path.join(staging, table, `clinetrail_host_ix=${i}`);
    const files = readdirSync(dir).filter((f) => f.endsWith('.parquet'));
    const list = sqlList(files.map((f) => path.join(dir, f)));
    return (await conn().runAndReadAll(`select ${select} from read_parquet(${list}) order by all`)).getRows().map(String);
  };
  const expected = async (select: string, i: number) =>
    (await conn().runAndReadAll(`select ${select} from raw_events where host = '${HOSTS[i]}' order by all`))
      .getRows()
      .map(String);

  it('gives each host of a stored view its own rows, through every group of the copy, a 128-bit integer as its text', async () => {
    for (const i of HOSTS.keys())
      expect(await folder('timeline', i, 'row_id, host, text, wide'), HOSTS[i]).toEqual(
        await expected(`row_id, host, text, (row_id * ${WIDE} + 1)::VARCHAR`, i),
      );
    expect(readdirSync(path.join(staging, 'timeline')).length).toBe(HOSTS.length);
  });

  it('leaves in place of a stored view one over the file of its rows: the same rows, columns and types', async () => {
    expect(readdirSync(tempDir)).toEqual(['timeline.parquet']);
    const view = await conn().runAndReadAll(`select sql from duckdb_views() where view_name = 'timeline'`);
    expect(String(view.getRows()[0][0])).toContain(path.join(tempDir, 'timeline.parquet'));
    const types = (await conn().runAndReadAll('describe timeline')).getRows().map((r) => `${r[0]} ${r[1]}`);
    expect(types).toEqual(['row_id INTEGER', 'host VARCHAR', 'text VARCHAR', 'wide HUGEINT']);
    const read = await conn().runAndReadAll('select * from timeline order by row_id');
    const evaluated = await conn().runAndReadAll(
      `select row_id, host, text, row_id * ${WIDE} + 1 from raw_events order by row_id`,
    );
    expect(read.getRows().map(String)).toEqual(evaluated.getRows().map(String));
  });

  it('gives each host of a table its rows, by host or by row_id, a 128-bit integer as its text', async () => {
    for (const i of HOSTS.keys()) {
      expect(await folder('per_host', i, 'host, wide'), HOSTS[i]).toEqual([`${HOSTS[i]},${i + 1}`]);
      expect(await folder('by_row', i, 'row_id, n'), HOSTS[i]).toEqual(await expected('row_id, length(text)', i));
    }
    const types = await conn().runAndReadAll(
      `select column_type from (describe select * from read_parquet('${path.join(staging, 'per_host', 'clinetrail_host_ix=0')}/*.parquet')) where column_name = 'wide'`,
    );
    expect(types.getRows()).toEqual([['VARCHAR']]);
  });
});

describe('the per-host files of a batch of one host (copied straight, no partitioning, no spill file)', () => {
  const staging = path.join(work, 'one-staging');
  const tempDir = path.join(work, 'one-spill');
  let db: Awaited<ReturnType<typeof openDuckDB>>;
  const rowsOf = async (table: string, select: string) => {
    const dir = path.join(staging, table, 'clinetrail_host_ix=0');
    const list = sqlList(readdirSync(dir).map((f) => path.join(dir, f)));
    return (await db.conn.runAndReadAll(`select ${select} from read_parquet(${list}) order by all`)).getRows().map(String);
  };

  beforeAll(async () => {
    mkdirSync(staging);
    mkdirSync(tempDir);
    db = await openDuckDB(':memory:', {});
    await db.conn.run(
      `create table raw_events as select n::INTEGER as row_id, 'solo' as host, 'text ' || n as text from range(5) r(n)`,
    );
    // a row naming no host of the batch, and one of a row_id not in raw_events: neither is the host's
    await db.conn.run(`create table per_host (host VARCHAR, wide HUGEINT)`);
    await db.conn.run(`insert into per_host values ('solo', ${WIDE}), (null, 1)`);
    await db.conn.run(`create view timeline as select row_id, host, text, row_id * ${WIDE} + 1 as wide from raw_events`);
    await db.conn.run(`create table by_row as select row_id, length(text) as n from raw_events union all select 999, 0`);
    await db.conn.run(`create table nothing (host VARCHAR)`);
    const schema = { ...SCHEMA, nothing: [['host', 'VARCHAR']] as Array<[string, string]> };
    await writePerHostRelations(db.conn, schema, new Map([['timeline', null]]), ['solo'], { staging, tempDir });
  });

  afterAll(() => {
    db.conn.closeSync();
    db.instance.closeSync();
  });

  it("holds exactly the host's rows of each relation, 128-bit integers as their text, and no file for no rows", async () => {
    expect(await rowsOf('per_host', 'host, wide')).toEqual(['solo,100000000000000000000']);
    const timeline = await db.conn.runAndReadAll(
      `select row_id, host, text, (row_id * ${WIDE} + 1)::VARCHAR from raw_events order by all`,
    );
    expect(await rowsOf('timeline', 'row_id, host, text, wide')).toEqual(timeline.getRows().map(String));
    expect(await rowsOf('by_row', 'row_id, n')).toEqual(['0,6', '1,6', '2,6', '3,6', '4,6']);
    expect(readdirSync(path.join(staging, 'nothing', 'clinetrail_host_ix=0'))).toEqual([]);
    expect(readdirSync(tempDir), 'no spill file').toEqual([]);
  });
});

/** A DuckDB list of string literals. */
function sqlList(values: string[]): string {
  return `[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')}]`;
}
