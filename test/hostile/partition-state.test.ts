/**
 * What a load trusts about OUT, attacked: a Parquet part overwritten behind its back, a `--keep-secrets`
 * load killed half-way, queries while a load withdraws a host and rewrites the rest, a load killed after
 * the withdrawal, an evidence file rewritten while its partition is read, and the OUT lock. Each case is
 * run through the real CLI.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETIRE_GRACE_DEFAULT_MS } from '../../src/load/retire.js';
import { FAKE } from '../helpers/fake-secrets.js';
import { fixture, listFiles, REPO } from '../helpers/source.js';
import { assertBuilt, describeRun, makeControlHost, query, runCli, workDir } from './harness.js';
import { DATA, writeStreamed } from './hostile-images.js';

const work = workDir('state');
const fleet = path.join(work, 'fleet');
const MB = 1024 * 1024;
const SID = '1760000000000_k3x9q';
const MESSAGES = `home/u/.cline/data/sessions/${SID}/${SID}.messages.json`;
const BIG_TASK = path.join(DATA, 'tasks', '1762000000000', 'ui_messages.json');

const msg = (i: number, text = `message ${i}`) => `{"ts":${1762000000000 + i},"type":"say","say":"text","text":"${text}"}`;
const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** A host whose SDK transcript carries a fake key in a command's output. */
function secretHost(name: string): void {
  const host = path.join(fleet, name);
  cpSync(fixture('fleet', 'lnx-u01'), host, { recursive: true });
  const file = path.join(host, MESSAGES);
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  doc.messages[2].content[0].content = `3 passed\nOPENAI_API_KEY=${FAKE.openai}`;
  writeFileSync(file, JSON.stringify(doc, null, 2));
}

/** A host with one ui_messages.json of about `mb` MB: its partition takes seconds to read. */
async function bigHost(root: string, mb: number): Promise<string> {
  const fill = Buffer.from(Array.from({ length: 1000 }, (_, i) => `${msg(i, `message ${i} ${'z'.repeat(900)}`)},`).join(''));
  const file = path.join(root, BIG_TASK);
  await writeStreamed(file, '[', fill, Math.floor((mb * MB) / fill.length) * fill.length, `${msg(-1)}]`);
  return file;
}

const argsFor = (fleetDir: string, out: string, ...more: string[]) => [
  'load',
  '--fleet',
  fleetDir,
  '--out',
  out,
  '--quiet',
  ...more,
];
const loadArgs = (out: string, ...more: string[]) => argsFor(fleet, out, ...more);

/** A load that must succeed; returns its run record. */
async function loadOk(out: string, fleetDir = fleet): Promise<Record<string, unknown>> {
  const run = await runCli(argsFor(fleetDir, out, '--log-format', 'json'), { timeoutMs: 300_000 });
  expect(run.code, describeRun(run)).toBe(0);
  return JSON.parse(readFileSync(newestRun(out), 'utf8')) as Record<string, unknown>;
}

function newestRun(out: string): string {
  const dir = path.join(out, 'state', 'runs');
  return path.join(
    dir,
    readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .sort()
      .at(-1)!,
  );
}

/** Rows of every Parquet part under OUT whose row text holds `needle` (decompressed). */
async function partRowsContaining(out: string, needle: string): Promise<number> {
  const instance = await DuckDBInstance.create(':memory:', {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  });
  const conn = await instance.connect();
  try {
    const glob = path.join(out, 'parquet', 'events', '*', '*', '*.parquet');
    const reader = await conn.runAndReadAll(
      `select count(*) from read_parquet('${glob}') as t where cast(t as varchar) like '%${needle}%'`,
    );
    return Number(reader.getRowsJson()[0][0]);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

beforeAll(async () => {
  assertBuilt();
  makeControlHost(fleet);
  for (const h of ['sec-1', 'sec-2', 'sec-3']) secretHost(h);
  for (let i = 0; i < 8; i++) cpSync(fixture('cline-tasks', 'img'), path.join(fleet, `small-${i}`), { recursive: true });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a Parquet part changed behind the loader', () => {
  // the control host alone: nine partitions, one of which is changed
  const controlFleet = path.join(work, 'fleet-control');
  beforeAll(() => {
    mkdirSync(controlFleet);
    symlinkSync(path.join(fleet, 'control'), path.join(controlFleet, 'control'));
  });

  it('is found by the next load, which reads its partition again', async () => {
    const out = path.join(work, 'out-tamper');
    await loadOk(out, controlFleet);
    const where = `host = 'control' and store = 'vscode-tasks'`;
    const [[rows]] = await query(out, `select count(*) from raw_events where ${where}`);
    expect(Number(rows)).toBeGreaterThan(1);
    const dir = path.join(out, 'parquet', 'events', 'control', 'vscode-tasks');
    const part = path.join(dir, readdirSync(dir).find((n) => n.endsWith('.parquet'))!);
    // what `query "copy (select ... limit 1) to '<part>'"` did: the part rewritten with one row
    const instance = await DuckDBInstance.create(':memory:', {
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
    });
    const conn = await instance.connect();
    await conn.run(`copy (select * from read_parquet('${part}') limit 1) to '${part}.new' (format parquet)`);
    conn.closeSync();
    instance.closeSync();
    renameSync(`${part}.new`, part);
    expect(await query(out, `select count(*) from raw_events where ${where}`)).toEqual([['1']]);
    const run = await loadOk(out, controlFleet);
    expect(run).toMatchObject({ partitions_written: 1 });
    expect(await query(out, `select count(*) from raw_events where ${where}`)).toEqual([[rows]]);
    expect(await query(out, `select sum(count_rows) from files where ${where}`)).toEqual([[rows]]);
  });
});

describe('a --keep-secrets load killed after some partitions, then a normal load', () => {
  // the hosts of the fleet, linked, and a 12 MB host still being read when the kill comes (read first: jobs go biggest first)
  const secFleet = path.join(work, 'fleet-secrets');
  beforeAll(async () => {
    mkdirSync(secFleet, { recursive: true });
    for (const h of readdirSync(fleet)) symlinkSync(path.join(fleet, h), path.join(secFleet, h));
    await bigHost(path.join(secFleet, 'big'), 12);
  });

  it('reads again exactly the partitions written with secrets, and no key stays in clear', async () => {
    const out = path.join(work, 'out-secrets');
    const first = await loadOk(out, secFleet);
    const total = Number(first.partitions_written);
    let written = 0;
    const killed = await runCli(
      argsFor(secFleet, out, '--keep-secrets', '--log-format', 'json').filter((a) => a !== '--quiet'),
      {
        timeoutMs: 300_000,
        onStderr: (text, child) => {
          const lines = text.split('\n').filter((l) => l.includes('"event":"partition"') && l.includes('"unchanged":false'));
          written = lines.length;
          // killed once a partition holding a key has been written with it
          if (lines.some((l) => l.includes('"host":"sec-') && l.includes('"store":"sdk-sessions"'))) child.kill('SIGKILL');
        },
      },
    );
    expect(killed.signal, describeRun(killed)).toBe('SIGKILL');
    expect(await partRowsContaining(out, FAKE.openai)).toBeGreaterThan(0);
    const run = await loadOk(out, secFleet);
    expect(run.secrets_redacted).toBe(true);
    expect(Number(run.partitions_written)).toBeGreaterThanOrEqual(written);
    expect(Number(run.partitions_unchanged)).toBeGreaterThan(0);
    expect(Number(run.partitions_written) + Number(run.partitions_unchanged)).toBe(total);
    expect(await partRowsContaining(out, FAKE.openai)).toBe(0);
    expect(await query(out, `select count(*) from raw_events where text like '%${FAKE.openai}%'`)).toEqual([['0']]);
    expect(Number((await query(out, `select count(*) from secrets where kind = 'openai'`))[0][0])).toBe(3);
    // an unchanged run after it trusts every partition
    expect(await loadOk(out, secFleet)).toMatchObject({ partitions_written: 0, partitions_unchanged: total });
  });
});

describe('a host withdrawn from the fleet', () => {
  const out = path.join(work, 'out-withdraw');
  const parked = path.join(work, 'parked');
  const counts = [
    'select count(*) from raw_events',
    'select count(*) from events',
    'select count(*) from files',
    'select count(*) from sessions',
  ];
  let before: string[] = [];

  beforeAll(async () => {
    await loadOk(out);
    before = await Promise.all(counts.map(async (q) => String((await query(out, q))[0][0])));
    mkdirSync(parked, { recursive: true });
    renameSync(path.join(fleet, 'small-7'), path.join(parked, 'small-7'));
  }, 300_000);
  afterAll(() => renameSync(path.join(parked, 'small-7'), path.join(fleet, 'small-7')));

  it('a load killed after the withdrawal leaves the previous warehouse answering as before', async () => {
    // stopped by the test-only hook (core/test-stops.ts) once the withdrawal is done, before the models
    // --prune: a host no longer in the input is kept otherwise (load/membership.ts)
    const run = await runCli(loadArgs(out, '--prune'), { timeoutMs: 300_000, env: { CLINETRAIL_TEST_STOP_AT: 'before-models' } });
    expect(run.signal, `before-models not reached: ${describeRun(run)}`).toBe('SIGKILL');
    for (const [i, q] of counts.entries()) expect(String((await query(out, q))[0][0]), q).toBe(before[i]);
  });

  it('every query during a load that removes it and rewrites the rest succeeds, with the old or the new answer', async () => {
    const answers: string[] = [];
    const failures: string[] = [];
    let done = false;
    // with the retire grace of a real load (the suites shorten it): with none, a query that opened the
    // old fleet.duckdb just before the swap failed on a Parquet part already deleted
    const loading = runCli(loadArgs(out, '--full', '--prune'), {
      timeoutMs: 300_000,
      env: { CLINETRAIL_TEST_RETIRE_GRACE_MS: String(RETIRE_GRACE_DEFAULT_MS) },
    }).finally(() => (done = true));
    // one query per answer: two would straddle the swap of fleet.duckdb
    const both = `select (${counts[0]}) || '/' || (${counts[1]})`;
    while (!done) {
      try {
        answers.push(String((await query(out, both))[0][0]));
      } catch (err) {
        failures.push((err as Error).message.split('\n')[0]);
      }
    }
    const run = await loading;
    expect(run.code, describeRun(run)).toBe(0);
    const after = String((await query(out, both))[0][0]);
    console.log(`[state] ${answers.length} queries during the load, ${failures.length} failed`);
    expect(failures).toEqual([]);
    expect(answers.length).toBeGreaterThan(2);
    expect(new Set(answers.filter((a) => a !== after && a !== `${before[0]}/${before[1]}`))).toEqual(new Set());
    expect(await query(out, `select count(*) from raw_events where host = 'small-7'`)).toEqual([['0']]);
    expect(existsSync(path.join(out, 'parquet', 'events', 'small-7'))).toBe(false);
    expect(existsSync(path.join(out, 'records', 'small-7'))).toBe(false);
  });
});

describe('an evidence file rewritten while its partition is read', () => {
  const rwFleet = path.join(work, 'fleet-rewrite');
  beforeAll(() => bigHost(path.join(rwFleet, 'big'), 30), 120_000);

  it('gives rows and a files row of the same bytes, and the next load trusts them', async () => {
    const out = path.join(work, 'out-rewrite');
    const file = path.join(rwFleet, 'big', BIG_TASK);
    const small = `[${[0, 1, 2].map((i) => msg(i, `rewritten ${i}`)).join(',')}]`;
    const staging = path.join(out, 'parquet', '.tmp');
    let rewritten = false;
    const args = ['load', '--fleet', rwFleet, '--out', out, '--quiet'];
    const run = await runCli(args, {
      timeoutMs: 300_000,
      onSpawn: (child) => {
        const poll = setInterval(() => {
          if (existsSync(staging) && readdirSync(staging).some((n) => n.startsWith('big__'))) {
            clearInterval(poll);
            writeFileSync(file, small);
            rewritten = true;
          }
        });
        child.once('exit', () => clearInterval(poll));
      },
    });
    expect(run.code, describeRun(run)).toBe(0);
    expect(rewritten).toBe(true);
    const rel = BIG_TASK.split(path.sep).join('/');
    expect(
      await query(
        out,
        `select sha256, size_bytes, count_rows, count_errors from files where host = 'big' and source_file = '${rel}'`,
      ),
    ).toEqual([[sha(small), String(Buffer.byteLength(small)), '3', '0']]);
    expect(
      await query(out, `select text from raw_events where host = 'big' and source_file = '${rel}' order by source_line`),
    ).toEqual([['rewritten 0'], ['rewritten 1'], ['rewritten 2']]);
    const again = await runCli(args, { timeoutMs: 300_000 });
    expect(again.code, describeRun(again)).toBe(0);
    expect(JSON.parse(readFileSync(newestRun(out), 'utf8'))).toMatchObject({ partitions_written: 0 });
  });
});

describe('the OUT lock', () => {
  const script = (out: string, holdMs: number) =>
    `import(${JSON.stringify(path.join(REPO, 'dist', 'src', 'load', 'lock.js'))}).then(async ({ acquireLock }) => {
       try { const release = await acquireLock(${JSON.stringify(out)}); console.log('GOT'); await new Promise((r) => setTimeout(r, ${holdMs})); await release(); }
       catch (err) { console.log('REFUSED ' + err.message); }
     });`;
  const holder = (out: string, holdMs: number) => {
    const child = spawn(process.execPath, ['-e', script(out, holdMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let said = '';
    child.stdout.on('data', (d: Buffer) => (said += d.toString()));
    return { child, said: () => said, exited: new Promise<void>((r) => child.once('exit', () => r())) };
  };

  it('lets exactly one of two loads started together run, also after a holder was killed', async () => {
    const wait = (until: () => boolean) =>
      (async () => {
        while (!until()) await new Promise((r) => setTimeout(r, 10));
      })();
    const trial = async (n: number): Promise<string> => {
      const out = path.join(work, `out-lock-${n}`);
      const killedHolder = holder(out, 600_000);
      await wait(() => killedHolder.said().includes('GOT'));
      killedHolder.child.kill('SIGKILL');
      await killedHolder.exited;
      // both hold what they got until both have answered, so a slow start cannot make them take turns
      const pair = [holder(out, 600_000), holder(out, 600_000)];
      await wait(() => pair.every((p) => /GOT|REFUSED/.test(p.said())));
      for (const p of pair) p.child.kill('SIGKILL');
      await Promise.all(pair.map((p) => p.exited));
      return pair
        .map((p) => p.said().split(' ')[0].trim())
        .sort()
        .join('+');
    };
    const outcomes: string[] = [];
    // ten trials at a time, each on its own OUT: a refused holder waits out SQLite's busy timeout (1 s)
    const batch = Array.from({ length: 10 }, (_, i) => i);
    for (let first = 0; first < 20; first += 10) outcomes.push(...(await Promise.all(batch.map((i) => trial(first + i)))));
    expect(outcomes).toEqual(Array(20).fill('GOT+REFUSED'));
  });

  it('is not blocked by a lock note naming a live process that holds nothing', async () => {
    const out = path.join(work, 'out-lock-note');
    mkdirSync(path.join(out, 'state'), { recursive: true });
    // the pid-file lock of earlier versions, and a note, both naming this (live) test process
    writeFileSync(path.join(out, 'state', 'load.lock'), `${process.pid}\n`);
    writeFileSync(
      path.join(out, 'state', 'load-lock.json'),
      JSON.stringify({ host: 'elsewhere', pid: process.pid, locked_at: '2026-01-01T00:00:00Z' }),
    );
    // a process of its own: the note names this test process, which must be another process than the load
    const run = await runCli(['load', '--host', `control=${path.join(fleet, 'control')}`, '--out', out, '--quiet'], {
      timeoutMs: 120_000,
      child: true,
    });
    expect(run.code, describeRun(run)).toBe(0);
    expect(listFiles(path.join(out, 'state')).map((f) => path.basename(f))).not.toContain('load.lock');
  });
});
