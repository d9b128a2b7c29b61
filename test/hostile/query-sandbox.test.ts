/**
 * `clinetrail query` is a sandbox (issue 9 point 1). Each case reproduces a finding of the hostile tester
 * through the real CLI on one demo load:
 * - a write hidden behind `explain (analyze)`, or in a second statement, runs nothing and writes nothing;
 * - a file outside OUT (made by the test) cannot be read or listed, and its content is never printed;
 *   `--allow-read DIR` opens one folder, and not its sibling;
 * - the temporary files of a spilling query are in a folder of that query, limited in size, removed when
 *   it ends, and removed by the next query when it was killed; on a read-only OUT they go to TMPDIR.
 * The statements run in-process through the CLI's own queryWarehouse and output
 * (helpers/query-in-process.ts), which is much faster than a CLI per statement; the real CLI runs the
 * spilling queries (a process to kill, its own memory limit), a usage error, and one refusal of each kind.
 */
import { execFileSync, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryWarehouse } from '../../src/warehouse/build.js';
import { allowedDirectories } from '../../src/warehouse/query-sandbox.js';
import { docPages, sqlExamples } from '../helpers/doc-examples.js';
import { queryInProcess, type QueryOutcome } from '../helpers/query-in-process.js';
import { REPO } from '../helpers/source.js';
import { assertBuilt, describeRun, lit, runCli, snapshotTree, workDir, type CliRun } from './harness.js';

const work = workDir('query');
const out = path.join(work, 'out');
/** Files no query may read or list. */
const outside = path.join(work, 'outside');
/** The folder an analyst opens with --allow-read, and a sibling whose name starts the same way. */
const iocs = path.join(work, 'iocs');
const sibling = path.join(work, 'iocs-sibling');
const CANARY = `canary-${randomBytes(6).toString('hex')}`;
const partDir = path.join(out, 'parquet', 'events', 'lnx-u01', 'sdk-sessions');
const part = (): string => path.join(partDir, fs.readdirSync(partDir).find((n) => n.endsWith('.parquet'))!);
let before: Record<string, string> = {};
/** Folders of OUT that are not the warehouse's: a file planted in each stays closed to a query. */
const OUT_CLOSED = ['state', path.join('parquet', '.tmp'), 'tmp'];

beforeAll(async () => {
  assertBuilt();
  const run = await runCli(['load', '--fleet', path.join(REPO, 'fixtures', 'fleet'), '--out', out, '--quiet']);
  if (run.code !== 0) throw new Error(`demo load failed: ${describeRun(run)}`);
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'secret.txt'), `${CANARY}\n`);
  fs.writeFileSync(path.join(outside, 'data.csv'), `secret\n${CANARY}\n`);
  fs.writeFileSync(path.join(outside, 'data.json'), `{"secret": "${CANARY}"}\n`);
  fs.mkdirSync(iocs);
  fs.writeFileSync(path.join(iocs, 'iocs.csv'), 'indicator,note\nsk-demo-indicator,test ioc\nnpm,package manager\n');
  fs.mkdirSync(sibling);
  fs.writeFileSync(path.join(sibling, 'other.csv'), `secret\n${CANARY}\n`);
  for (const dir of OUT_CLOSED) {
    fs.mkdirSync(path.join(out, dir), { recursive: true });
    fs.writeFileSync(path.join(out, dir, 'planted.csv'), `secret\n${CANARY}\n`);
  }
  before = snapshotTree(out);
});

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function query(
  sql: string,
  extra: string[] = [],
  env: Record<string, string> = {},
  onSpawn?: (child: ChildProcess) => void,
): Promise<CliRun> {
  return runCli(['query', '--out', out, '--format', 'csv', ...extra, sql], { env, onSpawn, timeoutMs: 120_000 });
}

/** The statement run in-process as `clinetrail query --format csv [--allow-read DIR] sql` would run it. */
function ask(sql: string, allowRead: string[] = []): Promise<QueryOutcome> {
  return queryInProcess(out, sql, 'csv', { allowRead });
}

/** Exit 1, nothing on stdout, one `clinetrail: query:` line matching `why`, no canary, OUT unchanged. */
function expectRefused(run: CliRun | QueryOutcome, why: RegExp): void {
  expect(run.code, 'ms' in run ? describeRun(run) : run.stderr).toBe(1);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^clinetrail: query: /);
  expect(lines[0]).toMatch(why);
  expect(run.stderr).not.toContain(CANARY);
  expect(snapshotTree(out)).toEqual(before);
}

const READ_ONLY = /the warehouse is read-only: only queries \(select, /;
const ONE_STATEMENT = /one statement per query/;
const OUTSIDE = /Permission Error: .*--allow-read/;

describe('writes behind explain or a second statement run nothing', () => {
  it('explain (analyze) copy writes no file, outside OUT or in a partition folder', async () => {
    const targets = [path.join(work, 'x.csv'), path.join(partDir, 'x.csv')];
    for (const [prefix, target] of [
      ['explain (analyze)', targets[0]],
      ['explain analyze', targets[1]],
      ['explain', targets[1]],
    ] as const) {
      expectRefused(await ask(`${prefix} copy (select 42 as x) to ${lit(target)}`), READ_ONLY);
    }
    for (const target of targets) expect(fs.existsSync(target), target).toBe(false);
  });

  it('copy over a Parquet part of OUT behind explain (analyze): refused, the part keeps its bytes', async () => {
    const file = part();
    const bytes = fs.readFileSync(file);
    expectRefused(
      await ask(`explain (analyze) copy (select * from raw_events limit 1) to ${lit(file)} (format parquet)`),
      READ_ONLY,
    );
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
  });

  it('a text of several statements runs none of them (no authorized_keys written)', async () => {
    const keys = path.join(work, 'authorized_keys');
    expectRefused(
      await ask(`explain (analyze) select 1; copy (select 'ssh-ed25519 AAAA attacker') to ${lit(keys)} (header false)`),
      ONE_STATEMENT,
    );
    expect(fs.existsSync(keys)).toBe(false);
    expectRefused(await ask('select 1; select 2'), ONE_STATEMENT);
    // and through the real CLI
    expectRefused(await query('select 1; select 2'), ONE_STATEMENT);
  });

  it('install and load are refused, also behind explain (analyze)', async () => {
    for (const sql of ['explain (analyze) install httpfs', 'explain (analyze) load httpfs', 'load httpfs']) {
      expectRefused(await ask(sql), READ_ONLY);
    }
    // and through the real CLI
    expectRefused(await query('load httpfs'), READ_ONLY);
  });
});

describe('a query reads only the warehouse, and the folders given with --allow-read', () => {
  it('read_text, read_blob, read_csv, read_json, glob, parquet_metadata of files outside OUT: refused, no content printed', async () => {
    const escapingPath = path.join(partDir, '..', '..', '..', '..', '..', 'outside', 'secret.txt');
    for (const sql of [
      `select content from read_text(${lit(path.join(outside, 'secret.txt'))})`,
      `select content from read_blob(${lit(path.join(outside, 'secret.txt'))})`,
      `select * from read_csv(${lit(path.join(outside, 'data.csv'))})`,
      `select * from read_json(${lit(path.join(outside, 'data.json'))})`,
      `select * from glob(${lit(path.join(outside, '*'))})`,
      `select * from parquet_metadata(${lit(path.join(outside, 'data.csv'))})`,
      `select content from read_text(${lit(escapingPath)})`,
    ]) {
      expect(fs.existsSync(escapingPath)).toBe(true);
      expectRefused(await ask(sql), OUTSIDE);
    }
    // and through the real CLI
    expectRefused(await query(`select content from read_text(${lit(path.join(outside, 'secret.txt'))})`), OUTSIDE);
  });

  it('--allow-read DIR: a CSV there joins the warehouse, a sibling folder stays closed, and the folder is not written', async () => {
    const csv = lit(path.join(iocs, 'iocs.csv'));
    // through the real CLI: --allow-read is its option
    const hits = await query(
      `select i.indicator, count(e.text) > 0 as seen from read_csv(${csv}) i left join events e on contains(e.text, i.indicator) group by all order by 1`,
      ['--allow-read', iocs],
    );
    expect([hits.code, hits.stderr]).toEqual([0, '']);
    expect(hits.stdout).toBe('indicator,seen\nnpm,true\nsk-demo-indicator,false\n');
    const listing = fs.readdirSync(iocs);
    expectRefused(await ask(`select * from read_csv(${lit(path.join(sibling, 'other.csv'))})`, [iocs]), OUTSIDE);
    expectRefused(await ask(`explain (analyze) copy (select 1) to ${lit(path.join(iocs, 'x.csv'))}`, [iocs]), READ_ONLY);
    expect(fs.readdirSync(iocs)).toEqual(listing);
  });

  it("OUT's folders beyond the warehouse's stay closed; the dataset opens as a whole, its list of folders fixed", async () => {
    for (const dir of OUT_CLOSED)
      expectRefused(await ask(`select * from read_csv(${lit(path.join(out, dir, 'planted.csv'))})`), OUTSIDE);
    const parts = lit(path.join(out, 'parquet', 'events', '*', '*', '*.parquet'));
    const whole = await ask(`select (select count(*) from read_parquet(${parts})) = (select count(*) from raw_events) as same`);
    expect([whole.code, whole.stderr, whole.stdout]).toEqual([0, '', 'same\ntrue\n']);
    // the two roots of the partitions, state/runs and models: four folders whatever the number of hosts
    const allowed = await allowedDirectories(out, []);
    expect(allowed.map((d) => path.relative(out, d))).toEqual([
      path.join('parquet', 'events'),
      'records',
      path.join('state', 'runs'),
      'models',
    ]);
  });

  it('--allow-read of a folder that does not exist is a usage error (exit 2)', async () => {
    const run = await query('select 1', ['--allow-read', path.join(work, 'missing')]);
    expect(run.code, describeRun(run)).toBe(2);
    expect(run.stderr).toMatch(/^clinetrail: query: --allow-read/);
  });
});

/**
 * A query that spills with a 24 MB memory limit: counts 400,000 distinct 64-character texts. It spills
 * more than 8 MB (the limit case below) in about a second of work; 1.5 million under 64 MB proved the
 * same in four times the time.
 */
const SPILL_ROWS = 400_000;
const SPILL = `select count(distinct h) as n from (select md5(i::varchar) || md5((i + 1)::varchar) as h from range(${SPILL_ROWS}) t(i))`;
const SPILL_ENV = { CLINETRAIL_DUCKDB_MEMORY: '24MB' };

/** Temporary folders a query may have left in OUT: OUT/tmp/query-* and the old OUT/fleet.duckdb.tmp. */
function tempFolders(): string[] {
  const tmp = path.join(out, 'tmp');
  const found = fs
    .readdirSync(tmp)
    .filter((n) => n.startsWith('query-'))
    .map((n) => path.join(tmp, n));
  if (fs.existsSync(path.join(out, 'fleet.duckdb.tmp'))) found.push(path.join(out, 'fleet.duckdb.tmp'));
  return found;
}

/** Watches `folders()` while a child runs; calls `onSpill` once one of them holds a file. */
function watchSpill(
  folders: () => string[],
  onSpill: (child: ChildProcess) => void = () => {},
): { seen: string[]; onSpawn: (child: ChildProcess) => void } {
  const seen: string[] = [];
  const onSpawn = (child: ChildProcess): void => {
    const timer = setInterval(() => {
      try {
        const spilled = folders().filter((d) => fs.readdirSync(d).length > 0);
        if (spilled.length && !seen.length) {
          seen.push(...spilled);
          onSpill(child);
        }
      } catch {
        // a folder removed between listing and reading: the query ended; look again at the next tick
      }
    });
    child.on('close', () => clearInterval(timer));
  };
  return { seen, onSpawn };
}

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('the temporary files of a query', () => {
  it('a spilling query spills into its own folder under OUT/tmp, and leaves nothing', async () => {
    const watch = watchSpill(tempFolders);
    const run = await query(SPILL, [], SPILL_ENV, watch.onSpawn);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toBe(`n\n${SPILL_ROWS}\n`);
    expect(watch.seen.map((d) => path.relative(out, d))).toEqual([expect.stringMatching(/^tmp\/query-\d+-[0-9a-f]+$/)]);
    expect(tempFolders()).toEqual([]);
    expect(snapshotTree(out)).toEqual(before);
  });

  it('the temporary files of a killed query are removed by the next query, as are old leftovers of dead pids', async () => {
    const watch = watchSpill(tempFolders, (child) => child.kill('SIGKILL'));
    const killed = await query(SPILL, [], SPILL_ENV, watch.onSpawn);
    expect(killed.signal, describeRun(killed)).toBe('SIGKILL');
    expect(watch.seen).toHaveLength(1);
    expect(fs.readdirSync(watch.seen[0]).length).toBeGreaterThan(0);
    const planted = [path.join(out, 'tmp', `query-${deadPid()}-0badf00d`), path.join(out, 'fleet.duckdb.tmp')];
    const live = path.join(out, 'tmp', `query-${process.pid}-0c0ffee0`);
    for (const dir of [...planted, live]) {
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'duckdb_temp_storage_DEFAULT-0.tmp'), Buffer.alloc(4096));
    }
    const next = await query('select count(*) as n from sessions');
    expect([next.code, next.stderr]).toEqual([0, '']);
    expect(tempFolders()).toEqual([live]);
    fs.rmSync(live, { recursive: true });
    expect(snapshotTree(out)).toEqual(before);
  });

  it('the temporary folder has a size limit (CLINETRAIL_QUERY_TEMP_MAX): a query beyond it fails and leaves nothing', async () => {
    const run = await query(SPILL, [], { ...SPILL_ENV, CLINETRAIL_QUERY_TEMP_MAX: '8MB' });
    expectRefused(run, /CLINETRAIL_QUERY_TEMP_MAX/);
    expect(tempFolders()).toEqual([]);
  });

  it("a query beyond DuckDB's memory limit fails with one line that names the limit and how to raise it", async () => {
    // a list aggregate cannot spill: 30 million integers do not fit in 64MB
    const run = await query('select list(i) from range(30000000) t(i)', [], { CLINETRAIL_DUCKDB_MEMORY: '64MB' });
    expectRefused(run, /^clinetrail: query: Out of Memory Error: .*memory limit is 64MB: set CLINETRAIL_DUCKDB_MEMORY higher/);
    expect(tempFolders()).toEqual([]);
  });

  it('a warehouse on read-only media is queried, and spills into TMPDIR, which it leaves as it was', async (ctx) => {
    // OUT itself becomes a read-only bind mount: the views name files by their absolute paths under OUT
    try {
      execFileSync('mount', ['--bind', out, out], { stdio: 'pipe' });
    } catch (err) {
      ctx.skip(`a read-only bind mount of OUT was refused (${(err as Error).message.split('\n')[0]}); chmod does not stop root`);
    }
    try {
      execFileSync('mount', ['-o', 'remount,ro,bind', out], { stdio: 'pipe' });
      expect(() => fs.writeFileSync(path.join(out, 'probe'), '')).toThrow(/EROFS/);
      const tmpdir = path.join(work, 'tmpdir');
      fs.mkdirSync(tmpdir);
      const watch = watchSpill(() => fs.readdirSync(tmpdir).map((n) => path.join(tmpdir, n)));
      const run = await query(SPILL, [], { ...SPILL_ENV, TMPDIR: tmpdir }, watch.onSpawn);
      expect([run.code, run.stderr], describeRun(run)).toEqual([0, '']);
      expect(run.stdout).toBe(`n\n${SPILL_ROWS}\n`);
      expect(watch.seen.map((d) => path.basename(d))).toEqual([expect.stringMatching(/^clinetrail-query-\d+-[0-9a-f]+$/)]);
      expect(fs.readdirSync(tmpdir)).toEqual([]);
    } finally {
      execFileSync('umount', [out]);
    }
    expect(snapshotTree(out)).toEqual(before);
  });
});

describe('side doors, in-process through the same queryWarehouse', () => {
  const refusedStatements = [
    'call pragma_version()',
    'pragma version',
    "pragma enable_profiling = 'json'",
    "set profiling_output = '/tmp/x'",
    'set threads = 1',
    'reset threads',
    'checkpoint',
    'detach fleet',
    'use memory',
    'load json',
    "attach ':memory:' as other",
    'copy from database fleet to memory',
    "export database '/tmp/clinetrail-should-not-exist'",
    'prepare p as select 1',
    'set variable x = 1',
    'begin transaction',
    'vacuum',
    'analyze',
    "create secret (type s3, key_id 'a', secret 'b')",
  ];
  it('every statement that is not a query is refused, alone and behind explain (analyze); OUT unchanged', async () => {
    // refused as what they are, as several statements (copy from database), or, behind explain, as a
    // syntax error where explain cannot take them
    const refusal =
      /^query: (the warehouse is read-only: only queries \(select, |one statement per query|Parser Error: syntax error)/;
    for (const sql of refusedStatements.flatMap((s) => [s, `explain (analyze) ${s}`])) {
      await expect(queryWarehouse(out, sql), sql).rejects.toThrow(refusal);
    }
    expect(snapshotTree(out)).toEqual(before);
    expect(fs.existsSync('/tmp/clinetrail-should-not-exist')).toBe(false);
  });

  it('functions that change the connection from a select, or run SQL text, are refused; query_table works; getenv does not exist', async () => {
    const logs = path.join(partDir, 'logs');
    const copy = `copy (select 1) to ${lit(path.join(work, 'q.csv'))}`;
    const read = `select content from read_text(${lit(path.join(outside, 'secret.txt'))})`;
    for (const [sql, fn] of [
      [
        `select * from enable_logging(level = 'trace', storage = 'file', storage_path = ${lit(logs)}) cross join (select count(*) from events)`,
        'enable_logging',
      ],
      [
        `select * from enable_profiling(format = 'json', save_location = ${lit(path.join(partDir, 'profile.json'))}) cross join (select count(*) from events)`,
        'enable_profiling',
      ],
      ['select * from disable_logging()', 'disable_logging'],
      ['select * from truncate_duckdb_logs()', 'truncate_duckdb_logs'],
      ["select write_log('x')", 'write_log'],
      ['select * from enable_peg_parser()', 'enable_peg_parser'],
      ['select * from checkpoint()', 'checkpoint'],
      ['select * from force_checkpoint()', 'force_checkpoint'],
      [`select * from query(${lit(copy)})`, 'query'],
      [`select * from system.main.QUERY(${lit(read)})`, 'query'],
      ["select * from json_execute_serialized_sql(json_serialize_sql('select 1'))", 'json_execute_serialized_sql'],
      [`explain analyze select * from events where text in (select * from query(${lit(read)}))`, 'query'],
    ]) {
      await expect(queryWarehouse(out, sql), sql).rejects.toThrow(new RegExp(`^query: ${fn}\\(\\) is not allowed in a query`));
    }
    expect(fs.existsSync(logs)).toBe(false);
    expect(fs.existsSync(path.join(work, 'q.csv'))).toBe(false);
    expect(snapshotTree(out)).toEqual(before);
    expect((await queryWarehouse(out, "select count(*) from query_table('sessions')")).rows).toEqual([[expect.any(String)]]);
    await expect(queryWarehouse(out, "select getenv('HOME')")).rejects.toThrow(/getenv does not exist/);
  });

  it('the example queries of README.md and docs/*.md run', async () => {
    const examples = docPages().flatMap(sqlExamples);
    // README's hunting examples, and examples of the pages the README's sections moved to
    const pages = new Set(examples.map((e) => e.page));
    expect([...pages]).toEqual(expect.arrayContaining(['README.md', 'docs/HUNTS.md', 'docs/SECRETS.md']));
    expect(examples.filter((e) => e.page === 'README.md').length).toBeGreaterThanOrEqual(8);
    for (const { page, sql } of examples) {
      const result = await queryWarehouse(out, sql).catch((err: Error) => {
        throw new Error(`${page}: ${sql}\n${err.message}`);
      });
      expect(result.columns.length, `${page}: ${sql}`).toBeGreaterThan(0);
    }
    // every command Cline ran: the demo fleet has some
    const commands = examples.find((e) => e.page === 'README.md' && /\bfrom commands\b/.test(e.sql))!;
    expect((await queryWarehouse(out, commands.sql)).rows.length).toBeGreaterThan(0);
  });
});
