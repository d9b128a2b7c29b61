/**
 * `clinetrail query` cannot change the warehouse (issue 5, item 5): fleet.duckdb is opened read-only with
 * extension autoload and autoinstall off, and only queries are run. A write, a COPY or EXPORT to a file,
 * an ATTACH, INSTALL or SET fails with one `clinetrail:` line and exit 1, and every file under OUT is as
 * it was. Loads the demo fleet with the real CLI (`dist/`, built by make test); each statement runs
 * in-process through the CLI's own queryWarehouse and output (helpers/query-in-process.ts), and one
 * refusal, the syntax error and `| head` run through the real CLI.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryInProcess } from '../helpers/query-in-process.js';
import { REPO } from '../helpers/source.js';
import { snapshotTree as snapshot } from '../hostile/harness.js';

const CLI = path.join(REPO, 'dist', 'src', 'cli', 'main.js');

function runCli(args: string[]): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [CLI, ...args], {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, TZ: 'UTC' },
    timeout: 240_000,
  });
}

let tmp = '';
let out = '';
let before: Record<string, string>;

beforeAll(() => {
  if (!fs.existsSync(CLI))
    throw new Error(`${path.relative(REPO, CLI)} not found: build first (npx tsc -p tsconfig.json, or make test)`);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'clinetrail-ro-'));
  out = path.join(tmp, 'out');
  const load = runCli(['load', '--fleet', 'fixtures/fleet', '--out', out, '--quiet']);
  if (load.status !== 0) throw new Error(`load failed (${load.status}): ${load.stderr}`);
  before = snapshot(out);
});

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('clinetrail query cannot change the warehouse', () => {
  const part = () => {
    const dir = path.join(out, 'parquet', 'events', 'lnx-u01', 'sdk-sessions');
    return path.join(dir, fs.readdirSync(dir).find((n) => n.endsWith('.parquet'))!);
  };
  const writes: Array<[string, () => string]> = [
    ['create table', () => 'create table x as select 1'],
    ['drop view', () => 'drop view events'],
    ['delete', () => 'delete from files'],
    ['copy a query over a Parquet part', () => `copy (select * from raw_events limit 1) to '${part()}' (format parquet)`],
    ['copy a table to a new file', () => `copy files to '${path.join(tmp, 'files.csv')}'`],
    ['export database', () => `export database '${path.join(tmp, 'export')}'`],
    ['a query then a write', () => 'select 1; drop table sessions'],
    ['attach', () => `attach '${path.join(tmp, 'other.duckdb')}' as other`],
    ['install', () => 'install httpfs'],
    ['set', () => 'set enable_external_access = false'],
    ['checkpoint', () => 'checkpoint'],
    ['create temp table', () => 'create temp table t as select 1'],
  ];
  const REFUSED = /^clinetrail: query: (the warehouse is read-only: only queries \(select, |one statement per query)/;
  for (const [name, sql] of writes) {
    it(`${name}: one clinetrail: line, exit 1, OUT unchanged`, async () => {
      const r = await queryInProcess(out, sql());
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines, r.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(REFUSED);
      expect(snapshot(out)).toEqual(before);
      expect(fs.readdirSync(tmp).sort()).toEqual(['out']);
    });
  }

  it('the real CLI refuses a write the same way: one clinetrail: line, exit 1, OUT unchanged', () => {
    const r = runCli(['query', '--out', out, writes[0][1]()]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(REFUSED);
    expect(snapshot(out)).toEqual(before);
  });

  it('queries still work: select, with, describe, show, summarize, explain', async () => {
    for (const sql of [
      'select count(*) as n from events',
      'with s as (select * from sessions) select count(*) from s',
      'describe secrets',
      'show tables',
      'summarize files',
      'explain select * from events',
      'from files select source_file where holds_credentials order by 1',
    ]) {
      const r = await queryInProcess(out, sql, 'csv');
      expect([sql, r.code, r.stderr]).toEqual([sql, 0, '']);
      expect(r.stdout.length).toBeGreaterThan(0);
    }
    expect(snapshot(out)).toEqual(before);
  });

  it('a syntax error is reported by DuckDB, exit 1', () => {
    const r = runCli(['query', '--out', out, 'selec 1']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^clinetrail: .*syntax error/i);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});

describe('clinetrail query output', () => {
  it('ends quietly with exit 0 when the reader of stdout stops early (| head)', () => {
    const sql = "select repeat('x', 1000) as t from range(100000)";
    const script = `"${process.execPath}" "${CLI}" query --out "${out}" --format csv "${sql}" | head -c 10 >/dev/null; echo "exit=\${PIPESTATUS[0]}"`;
    const r = spawnSync('bash', ['-c', script], { cwd: REPO, encoding: 'utf8', timeout: 240_000 });
    expect(r.stdout.trim()).toBe('exit=0');
    expect(r.stderr).toBe('');
  });
});
