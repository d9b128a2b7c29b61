/**
 * `clinetrail hunt` as a command on the demo fleet: what it prints, the exit codes it documents, the
 * `findings` table of issue 15's contract, the OUT lock, and what a later load does to the findings
 * (a rebuild of the models runs the pack into the new warehouse; a load that keeps fleet.duckdb keeps them;
 * --no-hunts leaves them empty and hunt_runs saying why).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHuntPack } from '../../src/hunt/pack.js';
import { acquireLock } from '../../src/load/lock.js';
import { selectFindings } from '../../src/hunt/run.js';
import { queryWarehouse, setFleetVariables, withQueryConnection } from '../../src/warehouse/build.js';
import { openDuckDB } from '../../src/warehouse/duckdb-open.js';
import { cli, storedFindings, tempOut } from '../helpers/hunt-run.js';

const CLI = path.resolve('dist/src/cli/main.js');
const pack = await loadHuntPack();
const temp = tempOut('hunt-command');
const out = temp.out;

const sha = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const tables = async () =>
  (
    await queryWarehouse(out, "select table_name from duckdb_tables() where table_name in ('findings', 'hunt_runs') order by 1")
  ).rows.map((r) => r[0]);

beforeAll(async () => {
  const load = await cli(['load', '--fleet', 'fixtures/fleet', '--out', out]);
  expect(load.code, load.stderr).toBe(0);
});

afterAll(() => temp.remove());

describe('clinetrail hunt', () => {
  it('--list prints the pack (id, severity, ATT&CK, title) without an OUT', async () => {
    const run = await cli(['hunt', '--list', '--format', 'csv']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('id,severity,attack,title');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(pack.map((h) => h.id));
  });

  it.each([
    ['no --out', ['hunt'], /^clinetrail: hunt: give --out OUT/],
    ['an --out that does not exist', ['hunt', '--out', 'MISSING'], /^clinetrail: hunt: --out .*missing not found\n$/],
    ['an unknown --id', ['hunt', '--out', 'OUT', '--id', 'no-such-hunt'], /^clinetrail: hunt: unknown hunt id 'no-such-hunt'/],
    ['a bad --format', ['hunt', '--out', 'OUT', '--format', 'xml'], /^clinetrail: Invalid values/],
  ])('refuses %s with exit 2, one line, and OUT untouched', async (_what, args, message) => {
    const before = sha(path.join(out, 'fleet.duckdb'));
    const missing = path.join(temp.dir, 'missing');
    const run = await cli(args.map((a) => (a === 'OUT' ? out : a === 'MISSING' ? missing : a)));
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(fs.existsSync(missing)).toBe(false);
    expect(sha(path.join(out, 'fleet.duckdb'))).toBe(before);
  });

  it('refuses a folder that holds no warehouse with exit 2, and writes nothing there', async () => {
    const empty = fs.mkdtempSync(path.join(temp.dir, 'empty-'));
    const run = await cli(['hunt', '--out', empty]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^clinetrail: hunt: no warehouse at .*fleet\.duckdb; run clinetrail load/);
    expect(fs.readdirSync(empty)).toEqual([]);
  });

  it('stores findings with exactly the contract columns, row_id typed as events.row_id, and prints a summary per hunt and host', async () => {
    const run = await cli(['hunt', '--out', out, '--format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const { rows: columns } = await queryWarehouse(
      out,
      "select column_name, data_type from duckdb_columns() where table_name = 'findings' order by column_index",
    );
    const { rows: rowIdType } = await queryWarehouse(
      out,
      "select data_type from duckdb_columns() where table_name = 'events' and column_name = 'row_id'",
    );
    expect(columns).toEqual([
      ['hunt_id', 'VARCHAR'],
      ['title', 'VARCHAR'],
      ['severity', 'VARCHAR'],
      ['attack', 'VARCHAR'],
      ['host', 'VARCHAR'],
      ['session_id', 'VARCHAR'],
      ['row_id', rowIdType[0][0]],
      ['timestamp_utc', 'TIMESTAMP WITH TIME ZONE'],
      ['summary', 'VARCHAR'],
      ['source_file', 'VARCHAR'],
      ['agent', 'VARCHAR'],
      ['timestamp_source', 'VARCHAR'],
    ]);
    const findings = await storedFindings(out);
    const summary = run.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { hunt_id: string; severity: string; host: string | null; findings: number });
    // one line per (hunt, host) with findings, one line without host per hunt that found none
    const counted = new Map<string, number>();
    for (const f of findings) counted.set(`${f.hunt_id} ${f.host}`, (counted.get(`${f.hunt_id} ${f.host}`) ?? 0) + 1);
    expect(summary.filter((s) => s.host !== null).map((s) => [`${s.hunt_id} ${s.host}`, s.findings])).toEqual([...counted]);
    const found = new Set(findings.map((f) => f.hunt_id));
    expect(summary.filter((s) => s.host === null).map((s) => s.hunt_id)).toEqual(
      pack.map((h) => h.id).filter((id) => !found.has(id)),
    );
    for (const f of findings) {
      const hunt = pack.find((h) => h.id === f.hunt_id)!;
      expect([f.severity, f.attack]).toEqual([hunt.severity, hunt.attack.join(',') || null]);
      expect(f.in_events).toBe(true);
    }
    expect(run.stderr).toContain(`clinetrail: ${findings.length} finding(s) of ${pack.length} hunt(s) stored in`);
    const { rows: runs } = await queryWarehouse(out, 'select hunt_id, count_findings from hunt_runs order by hunt_id');
    expect(runs.map((r) => [r[0], Number(r[1])])).toEqual(
      pack.map((h) => [h.id, findings.filter((f) => f.hunt_id === h.id).length]),
    );
  });

  it("selectFindings stores nothing and gives each finding its row's time in UTC, as ISO text and epoch microseconds", async () => {
    const before = sha(path.join(out, 'fleet.duckdb'));
    const selected = await withQueryConnection(out, {}, (conn) => selectFindings(out, conn, pack));
    expect(sha(path.join(out, 'fleet.duckdb'))).toBe(before);
    expect(selected.length).toBeGreaterThan(0);
    const { rows } = await queryWarehouse(out, 'select row_id::varchar, epoch_us(timestamp_utc) from events');
    const times = new Map(rows.map((r) => [String(r[0]), r[1] === null ? null : BigInt(String(r[1]))]));
    for (const f of selected) {
      expect(f.timestamp_us).toBe(times.get(String(f.row_id)));
      if (f.timestamp_us !== null)
        expect(f.timestamp_utc).toBe(
          `${new Date(Number(f.timestamp_us / 1000n)).toISOString().slice(0, -1)}${String(f.timestamp_us % 1000n).padStart(3, '0')}Z`,
        );
    }
  });

  it('leaves a query that opened fleet.duckdb before it reading on undisturbed', async () => {
    const { instance, conn } = await openDuckDB(path.join(out, 'fleet.duckdb'), { access_mode: 'READ_ONLY' });
    let earlier = '';
    try {
      await setFleetVariables(conn, out);
      const count = async () => Number((await conn.runAndReadAll('select count(*) from events')).getRows()[0][0]);
      const ranAt = async () =>
        String((await conn.runAndReadAll('select max(ran_at_utc)::varchar from hunt_runs')).getRows()[0][0]);
      const before = await count();
      earlier = await ranAt();
      const run = await cli(['hunt', '--out', out]);
      expect(run.code, run.stderr).toBe(0);
      expect(await count()).toBe(before);
      // it still reads the old file: the findings of the run before (the test above), not this run's
      expect(await ranAt()).toBe(earlier);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
    expect(await tables()).toEqual(['findings', 'hunt_runs']);
    const { rows } = await queryWarehouse(out, 'select max(ran_at_utc)::varchar from hunt_runs');
    expect(String(rows[0][0]) > earlier).toBe(true);
  });

  it('replaces the findings of an earlier run: --id runs only the hunts named', async () => {
    const run = await cli(['hunt', '--out', out, '--id', 'transcript-left-host']);
    expect(run.code, run.stderr).toBe(0);
    const findings = await storedFindings(out);
    expect(new Set(findings.map((f) => f.hunt_id))).toEqual(new Set(['transcript-left-host']));
    const { rows } = await queryWarehouse(out, 'select hunt_id from hunt_runs');
    expect(rows).toEqual([['transcript-left-host']]);
  });

  it('exits 3 while a load holds OUT, naming it, and leaves fleet.duckdb as it was', async () => {
    const before = sha(path.join(out, 'fleet.duckdb'));
    const release = await acquireLock(out, 'load');
    try {
      // the lock is a POSIX record lock, held per process: the hunt must run in another one
      const r = spawnSync(process.execPath, [CLI, 'hunt', '--out', out], { encoding: 'utf8', timeout: 240_000 });
      expect(r.status, r.stderr).toBe(3);
      expect(r.stderr).toMatch(/^clinetrail: hunt: another load \(.*\) is writing /);
    } finally {
      await release();
    }
    expect(sha(path.join(out, 'fleet.duckdb'))).toBe(before);
  });

  it('keeps findings current: kept by a load that changes nothing, run anew into every rebuilt warehouse, empty with a reason under --no-hunts', async () => {
    const runs = async () =>
      (await queryWarehouse(out, 'select hunt_id, status from hunt_runs order by hunt_id nulls first')).rows.map((r) =>
        r.map(String),
      );
    const everyHunt = pack.map((h) => [h.id, 'ran']);
    expect((await cli(['hunt', '--out', out, '--id', 'transcript-left-host'])).code).toBe(0);
    const kept = await cli(['load', '--fleet', 'fixtures/fleet', '--out', out]);
    expect(kept.code, kept.stderr).toBe(0);
    expect(await runs()).toEqual([['transcript-left-host', 'ran']]);
    // a rebuild runs the whole pack into the new warehouse: its findings are the pack's on these rows
    const full = await cli(['load', '--fleet', 'fixtures/fleet', '--out', out, '--full']);
    expect(full.code, full.stderr).toBe(0);
    expect(full.stderr).toMatch(/^hunts: \d+ finding\(s\) of \d+ hunt\(s\) stored in the warehouse/m);
    expect(await runs()).toEqual(everyHunt);
    const selected = await withQueryConnection(out, {}, (conn) => selectFindings(out, conn, pack));
    const stored = await storedFindings(out);
    expect(stored.map((f) => `${f.hunt_id} ${f.row_id}`).sort()).toEqual(selected.map((f) => `${f.hunt_id} ${f.row_id}`).sort());
    expect(stored.every((f) => f.in_events)).toBe(true);
    // --no-hunts: findings answers with no row, and hunt_runs says why; never a Catalog Error
    const skipped = await cli(['load', '--fleet', 'fixtures/fleet', '--out', out, '--full', '--no-hunts']);
    expect(skipped.code, skipped.stderr).toBe(0);
    expect((await queryWarehouse(out, 'select count(*) from findings')).rows).toEqual([['0']]);
    expect(await runs()).toEqual([['null', `not run: load --no-hunts; run clinetrail hunt --out ${out}`]]);
    expect((await cli(['models', '--out', out])).code).toBe(0);
    expect(await runs()).toEqual(everyHunt);
    expect((await cli(['models', '--out', out, '--no-hunts'])).code).toBe(0);
    expect((await runs())[0][0]).toBe('null');
  });
});
