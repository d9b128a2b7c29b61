/**
 * The locks of OUT (load/lock.ts) between real processes, since they are kernel record locks a process
 * holds: each holder below is a `node` child that takes a lock through the built module and keeps it
 * until it is killed. A plain load or `models` holds the OUT lock EXCLUSIVE, a shard load SHARED plus
 * its shard's lock: shards of one split run together, the same shard twice, a plain load beside a shard,
 * and shards of two splits never do; a killed holder's locks go with it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/source.js';
import { assertBuilt } from '../hostile/harness.js';

const LOCK = pathToFileURL(path.join(REPO, 'dist', 'src', 'load', 'lock.js')).href;
/** Takes the lock its arguments name (`plain` or `K/N`), says `held` or `refused: ...`, and holds until killed. */
const HOLDER = `
const { acquireLock, acquireShardLock, LockHeldError } = await import(${JSON.stringify(LOCK)});
const [out, which] = process.argv.slice(1);
try {
  if (which === 'plain') await acquireLock(out);
  else { const [index, count] = which.split('/').map(Number); await acquireShardLock(out, { index, count }); }
  process.stdout.write('held\\n');
  setInterval(() => {}, 1 << 30);
} catch (err) {
  process.stdout.write('refused: ' + err.message + '\\n');
  process.exit(err instanceof LockHeldError ? 3 : 1);
}`;

interface Holder {
  child: ChildProcess;
  /** `held`, or `refused: <message>`. */
  answer: Promise<string>;
}

const work = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-shard-lock-'));
const live: ChildProcess[] = [];
let n = 0;
const newOut = () => path.join(work, `out-${++n}`);

function take(out: string, which: string): Holder {
  const child = spawn(process.execPath, ['--input-type=module', '-e', HOLDER, out, which], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.push(child);
  const answer = new Promise<string>((resolve) => {
    let text = '';
    child.stdout!.on('data', (d: Buffer) => {
      text += d.toString();
      if (text.includes('\n')) resolve(text.trim());
    });
    child.on('close', (code) => resolve(text.trim() || `exited ${code}`));
  });
  return { child, answer };
}

async function killed(holder: Holder): Promise<void> {
  if (holder.child.exitCode !== null || holder.child.signalCode !== null) return;
  const closed = new Promise((resolve) => holder.child.on('close', resolve));
  holder.child.kill('SIGKILL');
  await closed;
}

beforeAll(() => assertBuilt());
afterEach(async () => {
  for (const child of live.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('OUT locks between processes', () => {
  it('lets shards of one split hold OUT together, and refuses a plain load while they do', async () => {
    const out = newOut();
    const one = take(out, '1/2');
    expect(await one.answer).toBe('held');
    const two = take(out, '2/2');
    expect(await two.answer).toBe('held');
    const plain = take(out, 'plain');
    expect(await plain.answer).toMatch(/^refused: load: shard loads are writing .*shard 1\/2: pid \d+.*shard 2\/2: pid \d+/);
    expect(plain.child.exitCode ?? (await new Promise((r) => plain.child.on('close', r)))).toBe(3);
    // a killed shard's locks go with it; its note stays, but is not believed
    await killed(one);
    const beside = take(out, 'plain');
    const refused = await beside.answer;
    expect(refused).toMatch(/^refused: load: shard loads are writing .*\(shard 2\/2: pid \d+[^;]*\); wait/);
    expect(refused).not.toMatch(/shard 1\/2/);
    // once both shards are gone, OUT is free
    await killed(two);
    const after = take(out, 'plain');
    expect(await after.answer).toBe('held');
  });

  it('refuses the same shard twice, and a shard of another split', async () => {
    const out = newOut();
    const first = take(out, '3/4');
    expect(await first.answer).toBe('held');
    const again = take(out, '3/4');
    expect(await again.answer).toMatch(/^refused: load --shard 3\/4: shard 3\/4 is already being loaded into .* \(pid \d+ on /);
    const other = take(out, '1/3');
    expect(await other.answer).toMatch(/^refused: load --shard 1\/3: shards of another split \(--shard K\/4\) are loading /);
    await killed(first);
    expect(await take(out, '1/3').answer).toBe('held');
  });

  it('refuses a shard while a plain load or models holds OUT', async () => {
    const out = newOut();
    const plain = take(out, 'plain');
    expect(await plain.answer).toBe('held');
    expect(await take(out, '1/2').answer).toMatch(/^refused: load --shard 1\/2: another load or models run \(pid \d+ on /);
    await killed(plain);
    expect(await take(out, '1/2').answer).toBe('held');
  });

  it('lets the gate go while it waits, so a shard taking the gate beside it gets through', async () => {
    // A peer holds the gate RESERVED, as a shard does on its way to EXCLUSIVE, and only then needs
    // EXCLUSIVE. Waiting inside SQLite, the shard kept its SHARED lock the whole time, so the two
    // blocked each other until one gave up: shards of one split started together were refused after
    // 10 s, 1 round in 20-40. Tried in short rounds, the waiter lets go between tries.
    const out = newOut();
    const gateFile = path.join(out, 'state', 'shards', 'gate.sqlite');
    mkdirSync(path.dirname(gateFile), { recursive: true });
    const peer = new Database(gateFile, { timeout: 3000 });
    try {
      peer.exec('BEGIN IMMEDIATE');
      const shard = take(out, '1/2');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(shard.child.exitCode, 'the shard is still waiting for the gate').toBeNull();
      peer.exec('create table t (x)');
      expect(() => peer.exec('COMMIT'), 'the peer gets EXCLUSIVE while the shard waits').not.toThrow();
      expect(await shard.answer).toBe('held');
    } finally {
      peer.close();
    }
  });

  it('of two splits started at the same instant, lets exactly one run (5 rounds)', async () => {
    for (let round = 0; round < 5; round++) {
      const out = newOut();
      const a = take(out, '1/2');
      const b = take(out, '1/3');
      const answers = [await a.answer, await b.answer];
      expect(
        answers.filter((x) => x === 'held'),
        answers.join(' | '),
      ).toHaveLength(1);
      expect(answers.find((x) => x !== 'held')).toMatch(/shards of another split/);
      await killed(a);
      await killed(b);
    }
  });

  it('of a plain load and a shard started at the same instant, lets exactly one run (5 rounds)', async () => {
    for (let round = 0; round < 5; round++) {
      const out = newOut();
      const a = take(out, 'plain');
      const b = take(out, '2/2');
      const answers = [await a.answer, await b.answer];
      expect(
        answers.filter((x) => x === 'held'),
        answers.join(' | '),
      ).toHaveLength(1);
      await killed(a);
      await killed(b);
    }
  });
});
