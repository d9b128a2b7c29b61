/**
 * Crash safety of the real CLI: `clinetrail load` SIGKILLed at several points (early, mid-partitions,
 * during the warehouse build), then run again; an OUT that cannot be written. The previous warehouse
 * must stay queryable between runs, and the final warehouse must answer exactly like a clean load.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock } from '../../src/load/lock.js';
import { fixture } from '../helpers/source.js';
import { assertBuilt, describeRun, makeControlHost, query, runCli, workDir, type CliRun } from './harness.js';
import { DATA, writeStreamed } from './hostile-images.js';

const work = workDir('crash');
const fleet = path.join(work, 'fleet');
const MB = 1024 * 1024;

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
  if (existsSync(path.join(out, 'parquet', '.tmp'))) found.push(...readdirSync(path.join(out, 'parquet', '.tmp')).map((n) => `parquet/.tmp/${n}`));
  if (existsSync(path.join(out, 'tmp'))) found.push(...readdirSync(path.join(out, 'tmp')).filter((n) => /^fleet\..*\.duckdb/.test(n)).map((n) => `tmp/${n}`));
  return found;
}

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const loadArgs = (out: string, full = false) => ['load', '--fleet', fleet, '--out', out, ...(full ? ['--full'] : [])];
let reference: unknown[][][];

beforeAll(async () => {
  assertBuilt();
  makeControlHost(fleet);
  for (let i = 0; i < 50; i++) cpSync(fixture('cline-tasks', 'img'), path.join(fleet, `host-${String(i).padStart(2, '0')}`), { recursive: true });
  const msg = (i: number) => `{"ts":${1762000000000 + i},"type":"say","say":"text","text":"message ${i} ${'z'.repeat(900)}"}`;
  const fill = Buffer.from(Array.from({ length: 1000 }, (_, i) => `${msg(i)},`).join(''));
  await writeStreamed(path.join(fleet, 'big', ...DATA.split('/'), 'tasks', '1762000000000', 'ui_messages.json'), '[', fill, Math.floor((100 * MB) / fill.length) * fill.length, `${msg(-1)}]`);
  const run = await runCli(loadArgs(path.join(work, 'reference')), { timeoutMs: 600_000 });
  if (run.code !== 0) throw new Error(`reference load failed: ${describeRun(run)}`);
  reference = await answers(path.join(work, 'reference'));
}, 900_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('SIGKILL at several points, then a run to completion', () => {
  const out = path.join(work, 'out');
  const points: Array<{ label: string; afterMs?: number; onText?: string; delayMs?: number; onStaging?: boolean }> = [
    { label: 'after 100 ms', afterMs: 100 },
    { label: 'after 500 ms', afterMs: 500 },
    { label: 'after 1.5 s', afterMs: 1500 },
    { label: 'during the warehouse build', onText: 'building warehouse models', delayMs: 150 },
    { label: 'while partitions are being written (a --full run)', onStaging: true },
    { label: 'right after discovery', onText: 'discovered', delayMs: 0 },
  ];
  let hadWarehouse = false;

  it.each(points.map((p) => [p.label, p] as const))('killed %s: the previous warehouse stays queryable', async (_label, p) => {
    let timer: NodeJS.Timeout | undefined;
    let armed = false;
    const run: CliRun = await runCli(loadArgs(out, p.onStaging === true), {
      timeoutMs: 600_000,
      onSpawn: (child) => {
        if (p.afterMs !== undefined) timer = setTimeout(() => child.kill('SIGKILL'), p.afterMs);
        if (p.onStaging) {
          // kill as soon as a partition is being staged in OUT/parquet/.tmp
          const staging = path.join(out, 'parquet', '.tmp');
          const poll = setInterval(() => {
            if (existsSync(staging) && readdirSync(staging).length > 0) {
              clearInterval(poll);
              child.kill('SIGKILL');
            }
          }, 5);
          child.once('exit', () => clearInterval(poll));
        }
      },
      onStderr: (text, child) => {
        if (p.onText && !armed && text.includes(p.onText)) {
          armed = true;
          timer = setTimeout(() => child.kill('SIGKILL'), p.delayMs ?? 0);
        }
      },
    });
    clearTimeout(timer);
    console.log(`[crash] ${p.label}: ${run.signal === 'SIGKILL' ? 'killed' : `finished first (exit ${run.code})`} after ${run.ms} ms`);
    expect(run.timedOut, describeRun(run)).toBe(false);
    if (hadWarehouse) {
      // every load here is of the same fleet, so whichever warehouse the kill left (the previous one, or
      // the new one if it was already in place) answers like the reference
      expect(await answers(out)).toEqual(reference);
    }
    hadWarehouse ||= existsSync(path.join(out, 'fleet.duckdb'));
  });

  it('the run after the kills completes and answers exactly like a clean full load', async () => {
    const run = await runCli(loadArgs(out), { timeoutMs: 600_000 });
    expect(run.code, describeRun(run)).toBe(0);
    expect(await answers(out)).toEqual(reference);
    // the lock is free again: taken at once
    await (await acquireLock(out))();
  });

  it('a finished run leaves no staging folder behind', () => {
    expect(leftovers(out).filter((f) => f.startsWith('parquet/'))).toEqual([]);
  });

  // buildWarehouse once removed only its own `tmp/fleet.<pid>.duckdb`, so the file of a load killed during
  // the model build (another pid) stayed in OUT/tmp for good.
  it('a finished run leaves no OUT/tmp/fleet.*.duckdb of a killed run behind', () => {
    console.log(`[crash] leftovers after the final run: ${JSON.stringify(leftovers(out))}`);
    expect(leftovers(out)).toEqual([]);
  });
});

describe('an OUT that cannot be written', () => {
  it('read-only OUT with a warehouse: exit 1 or 2, one `clinetrail:` line, the warehouse intact', async () => {
    const out = path.join(work, 'reference');
    const db = path.join(out, 'fleet.duckdb');
    const hash = sha(db);
    let how = 'read-only bind mount of OUT';
    let mounted = false;
    try {
      execFileSync('mount', ['--bind', out, out], { stdio: 'pipe' });
      mounted = true;
      execFileSync('mount', ['-o', 'remount,ro,bind', out], { stdio: 'pipe' });
    } catch (err) {
      how = `mount refused (${(err as Error).message.split('\n')[0]}); not testable as root without it`;
    }
    console.log(`[crash] unwritable OUT: ${how}`);
    try {
      if (!how.startsWith('read-only')) return;
      const run = await runCli(loadArgs(out, true), { timeoutMs: 300_000 });
      expect([1, 2], describeRun(run)).toContain(run.code);
      const lines = run.stderr.trim().split('\n').filter((l) => l.startsWith('clinetrail:'));
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
      expect(run.stderr.trim().split('\n').filter((l) => l.startsWith('clinetrail:')).length, describeRun(run)).toBe(1);
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
