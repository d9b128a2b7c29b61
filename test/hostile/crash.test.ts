/**
 * Crash safety of the real CLI: `clinetrail load` SIGKILLed at each named point of a load (the test-only
 * hook CLINETRAIL_TEST_STOP_AT, core/test-stops.ts), then run again; an OUT that cannot be written. The
 * previous warehouse must stay queryable after the kill, and the run after it must answer exactly like
 * a clean load.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock } from '../../src/load/lock.js';
import { fixture } from '../helpers/source.js';
import { assertBuilt, describeRun, makeControlHost, query, runCli, workDir } from './harness.js';

const work = workDir('crash');
const fleet = path.join(work, 'fleet');
const referenceOut = path.join(work, 'reference');

/** What a warehouse answers: rows per partition with a content hash, the timeline, files and sessions. */
async function answers(out: string): Promise<unknown[][][]> {
  return [
    await query(out, `select host, store, count(*), sum(hash(e::varchar)) from raw_events e group by all order by all`),
    await query(out, `select count(*), sum(hash(e::varchar)) from events e`),
    await query(out, `select * from events order by all limit 500`),
    await query(out, `select host, store, source_file, size_bytes, sha256, count_rows, count_errors from files order by all`),
    await query(out, `select count(*) from sessions`),
  ];
}

/** Leftovers a finished load must not leave: the staging folder and temporary warehouse files. */
function leftovers(out: string): string[] {
  const found: string[] = [];
  if (existsSync(path.join(out, 'parquet', '.tmp')))
    found.push(...readdirSync(path.join(out, 'parquet', '.tmp')).map((n) => `parquet/.tmp/${n}`));
  if (existsSync(path.join(out, 'tmp')))
    found.push(
      ...readdirSync(path.join(out, 'tmp'))
        .filter((n) => /^fleet\..*\.duckdb/.test(n))
        .map((n) => `tmp/${n}`),
    );
  return found;
}

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const loadArgs = (out: string, full = false) => ['load', '--fleet', fleet, '--out', out, ...(full ? ['--full'] : [])];
let reference: unknown[][][];

beforeAll(async () => {
  assertBuilt();
  // the control host (nine stores) and four more: 13 partitions, written in two worker threads
  makeControlHost(fleet);
  for (let i = 0; i < 4; i++) cpSync(fixture('cline-tasks', 'img'), path.join(fleet, `host-${i}`), { recursive: true });
  const run = await runCli(loadArgs(referenceOut), { timeoutMs: 300_000 });
  if (run.code !== 0) throw new Error(`reference load failed: ${describeRun(run)}`);
  reference = await answers(referenceOut);
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A load of the fleet into `out` that SIGKILLs itself at `point`; fails unless it got there. */
async function killedAt(out: string, point: string, full: boolean): Promise<void> {
  const run = await runCli(loadArgs(out, full), { timeoutMs: 300_000, env: { CLINETRAIL_TEST_STOP_AT: point } });
  // killed by SIGKILL = the point was reached; exit 0 would mean the load never came there
  expect(run.signal, `${point} not reached: ${describeRun(run)}`).toBe('SIGKILL');
  console.log(`[crash] killed at ${point} after ${run.ms} ms`);
}

/** The run after a kill: completes, answers like the reference, leaves nothing of the killed run, frees the lock. */
async function expectRecovered(out: string): Promise<void> {
  const run = await runCli(loadArgs(out), { timeoutMs: 300_000 });
  expect(run.code, describeRun(run)).toBe(0);
  expect(await answers(out)).toEqual(reference);
  // buildWarehouse once removed only its own `tmp/fleet.<pid>.duckdb`, so the file of a load killed during
  // the model build (another pid) stayed in OUT/tmp for good.
  expect(leftovers(out)).toEqual([]);
  // the lock is free again: taken at once
  await (await acquireLock(out))();
}

describe('SIGKILL at each named point of a load, then a run to completion', () => {
  // The warehouse's views name the Parquet files by absolute path, so a loaded OUT cannot be copied:
  // each case is one chain of kills on one OUT, and the cases share nothing but the reference answers.
  it('in a new OUT, killed at after-discovery, partition-written:3, during-models: no warehouse appears, and the next run answers like a clean load', async () => {
    const out = path.join(work, 'fresh');
    for (const point of ['after-discovery', 'partition-written:3', 'during-models']) {
      await killedAt(out, point, false);
      expect(existsSync(path.join(out, 'fleet.duckdb')), point).toBe(false);
    }
    await expectRecovered(out);
  });

  // The first kills are of --full loads, which write every partition again as a new generation; the
  // previous warehouse still reads the old ones. Those committed before the kill leave `models.stale`, so
  // the later loads (not --full) rebuild the models without reading the partitions again.
  it('over a warehouse, killed at every point of a load that writes new generations: the previous warehouse stays queryable, and the next run answers like a clean load', async () => {
    const stops: Array<[string, boolean]> = [
      ['after-discovery', true],
      ['partition-staged', true],
      ['partition-written:3', true],
      ['before-models', false],
      ['during-models', false],
      ['models-built', false],
      ['before-retire', false],
    ];
    for (const [point, full] of stops) {
      await killedAt(referenceOut, point, full);
      // whichever warehouse the kill left (the previous one, or the new one once it was in place), it
      // is of the same fleet, so it answers like the reference
      expect(await answers(referenceOut), `after a kill at ${point}`).toEqual(reference);
    }
    await expectRecovered(referenceOut);
  });
});

describe('an OUT that cannot be written', () => {
  it('read-only OUT with a warehouse: exit 1 or 2, one `clinetrail:` line, the warehouse intact', async (ctx) => {
    const out = referenceOut;
    const db = path.join(out, 'fleet.duckdb');
    const hash = sha(db);
    let refused: string | null = null;
    let mounted = false;
    try {
      execFileSync('mount', ['--bind', out, out], { stdio: 'pipe' });
      mounted = true;
      execFileSync('mount', ['-o', 'remount,ro,bind', out], { stdio: 'pipe' });
    } catch (err) {
      refused = (err as Error).message.split('\n')[0];
    }
    try {
      // chmod does not stop root, so without a read-only mount this case cannot be made here
      if (refused !== null) ctx.skip(`a read-only bind mount of OUT was refused (${refused}); chmod does not stop root`);
      const run = await runCli(loadArgs(out, true), { timeoutMs: 300_000 });
      expect([1, 2], describeRun(run)).toContain(run.code);
      const lines = run.stderr
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('clinetrail:'));
      expect(lines.length, describeRun(run)).toBe(1);
      expect(sha(db)).toBe(hash);
      expect(await answers(out)).toEqual(reference);
    } finally {
      if (mounted) execFileSync('umount', [out]);
    }
  });

  it('a file where the OUT folder is expected, a folder below a file, a dangling link parent: exit 2 with one `clinetrail:` line', async () => {
    const file = path.join(work, 'not-a-folder');
    writeFileSync(file, 'x');
    mkdirSync(path.join(work, 'dl'), { recursive: true });
    symlinkSync(path.join(work, 'dl', 'nowhere'), path.join(work, 'dl', 'dangling'));
    for (const out of [file, path.join(file, 'sub'), path.join(work, 'dl', 'dangling', 'out')]) {
      const run = await runCli(['load', '--fleet', fleet, '--out', out], { timeoutMs: 120_000 });
      expect(run.code, describeRun(run)).toBe(2);
      expect(
        run.stderr
          .trim()
          .split('\n')
          .filter((l) => l.startsWith('clinetrail:')).length,
        describeRun(run),
      ).toBe(1);
    }
    expect(readFileSync(file, 'utf8')).toBe('x');
  });

  // Node 20's recursive mkdir loops forever at 100% CPU when the parent exists but mkdir of the child
  // says ENOENT (procfs), so runLoad creates OUT one level at a time.
  it('--out /proc/clinetrail-out ends with exit 1 or 2 (no recursive mkdir loop)', async () => {
    const run = await runCli(['load', '--fleet', fleet, '--out', '/proc/clinetrail-out'], { timeoutMs: 15_000 });
    expect(run.timedOut, describeRun(run)).toBe(false);
    expect([1, 2], describeRun(run)).toContain(run.code);
  });
});
