/**
 * Who may write OUT at a time. Every lock is a transaction held on a small SQLite file under
 * `OUT/state/`: SQLite takes it with a POSIX record lock, which the kernel grants atomically and drops
 * when the process ends in any way, a SIGKILL included. So a killed load never leaves a lock behind;
 * there is no pid to check and no stale lock to take over. The `.json` notes beside the locks name the
 * holder (host, pid, start time) for the message a refused load prints; they never decide anything. A
 * load refused by the OUT lock tells by a SHARED probe whether shards hold it, and then names only the
 * shards whose own lock is held (a killed shard's note stays behind).
 *
 * The scheme is a readers-writer lock on `state/load-lock.sqlite`, the OUT lock:
 * - a plain load and `clinetrail models` hold it EXCLUSIVE (SQLite's `BEGIN EXCLUSIVE`) for their whole
 *   run: nothing else writes OUT meanwhile;
 * - a shard load (`--shard K/N`) holds it SHARED (a read transaction kept open), which any number of
 *   shards can hold together and which keeps every EXCLUSIVE taker out, and the other way round; plus
 *   `state/shards/count-<N>.sqlite` SHARED (the shards of one split hold it together) and
 *   `state/shards/shard-<K>-of-<N>.sqlite` EXCLUSIVE (one process per shard).
 * A shard takes its three under `state/shards/gate.sqlite`, held EXCLUSIVE for the few milliseconds
 * that takes: there it probes every other `count-<M>.sqlite` with an EXCLUSIVE attempt, and one that is
 * held means shards of another split run, which write partitions by another assignment of hosts: it
 * is refused. Through the gate, two shards of different N started together are decided one after the
 * other: the first runs, the second is refused.
 *
 * Measured with real processes (test/load/shard-lock.test.ts): two SHARED holders together; EXCLUSIVE
 * refused while either holds SHARED, and granted once a SHARED holder is SIGKILLed; SHARED refused while
 * EXCLUSIVE is held. Two processes started at the same instant, 30 rounds per pair on a loaded 2-core
 * machine: shards 1/4 and 2/4 both ran every time; 1/2 against 1/3, a plain load against shard 2/2, and
 * two plain loads: exactly one ran every time. The exclusive locks are taken in short tries, not by
 * SQLite's wait (see exclusiveWithin). A shard of another split is refused in ~60 ms (the gate);
 * anything refused by the OUT lock after its 1 s wait. POSIX locks over NFS work only through the NFS lock manager (lockd / NFSv4 locks):
 * on shared storage without it, nothing keeps two loads apart (docs/SHARDS.md).
 *
 * The lock files are never removed: a process that removed one could let the next lock a new file while
 * a third still waits on the old one.
 */
import Database from 'better-sqlite3';
import { promises as fs, readdirSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type Shard, shardText } from './shard.js';

/** How long a load waits for a lock that is being taken or held before it is refused. */
const LOCK_WAIT_MS = 1000;
/** How long a shard waits for the gate, which other shards hold only while they take their locks. */
const GATE_WAIT_MS = 10_000;

/** Raised when another live load holds OUT. */
export class LockHeldError extends Error {}

/** Who holds a lock, as its note records it. */
export interface LockOwner {
  host: string;
  pid: number;
  /** When the load took the lock, ISO 8601 UTC. */
  locked_at: string;
  /** `K/N` of a shard load; absent for a plain load or `models`. */
  shard?: string;
}

/** The OUT lock file and its owner note under OUT. */
export function lockFiles(outDir: string): { lock: string; owner: string } {
  const state = path.join(outDir, 'state');
  return { lock: path.join(state, 'load-lock.sqlite'), owner: path.join(state, 'load-lock.json') };
}

/** The folder of the shard locks and notes. */
function shardsDir(outDir: string): string {
  return path.join(outDir, 'state', 'shards');
}

function ownerText(file: string): string {
  try {
    const o = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockOwner>;
    return `pid ${o.pid ?? '?'} on ${o.host ?? '?'}, since ${o.locked_at ?? '?'}`;
  } catch {
    return 'holder unknown';
  }
}

/**
 * The shard loads that hold their lock now, each named by its note: a note is only believed for a
 * shard whose lock file is held (a killed shard's note stays behind).
 */
function liveShards(outDir: string): string[] {
  const dir = shardsDir(outDir);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => /^shard-\d+-of-\d+\.json$/.test(n));
  } catch {
    return [];
  }
  return names.sort().flatMap((n) => {
    const [, k, of] = /^shard-(\d+)-of-(\d+)\.json$/.exec(n) ?? [];
    const probe = exclusive(path.join(dir, n.replace(/\.json$/, '.sqlite')));
    probe?.close();
    return probe === null ? [`shard ${k}/${of}: ${ownerText(path.join(dir, n))}`] : [];
  });
}

const busy = (err: unknown) => (err as { code?: string }).code === 'SQLITE_BUSY';

/** A connection holding `file` EXCLUSIVE, or null at once when another process holds it in any mode. */
function exclusive(file: string): Database.Database | null {
  const db = new Database(file, { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    return db;
  } catch (err) {
    db.close();
    if (busy(err)) return null;
    throw new Error(`cannot take the lock ${file}: ${(err as Error).message}`);
  }
}

/**
 * `exclusive`, tried again every few milliseconds for up to `waitMs`. Not SQLite's own wait: in
 * exclusive locking mode a connection waiting inside SQLite keeps the SHARED lock it took on the way,
 * so two started together each held what the other waited for until one timed out (shards of one split
 * refused after 10 s, 1 round in 30). A failed try closes its connection and so lets go of everything.
 */
async function exclusiveWithin(file: string, waitMs: number): Promise<Database.Database | null> {
  const until = Date.now() + waitMs;
  for (;;) {
    const db = exclusive(file);
    if (db !== null || Date.now() >= until) return db;
    await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
  }
}

/** A connection holding `file` SHARED (a read transaction left open), or null when it is held EXCLUSIVE. */
function shared(file: string, waitMs: number): Database.Database | null {
  const db = new Database(file, { timeout: waitMs });
  try {
    db.exec('BEGIN');
    db.prepare('select count(*) from sqlite_master').get();
    return db;
  } catch (err) {
    db.close();
    if (busy(err)) return null;
    throw new Error(`cannot take the lock ${file}: ${(err as Error).message}`);
  }
}

/** Writes a holder's note by rename. */
async function writeNote(file: string, note: LockOwner): Promise<void> {
  await fs.writeFile(`${file}.tmp`, `${JSON.stringify(note)}\n`);
  await fs.rename(`${file}.tmp`, file);
}

function me(shard?: Shard): LockOwner {
  const note: LockOwner = { host: os.hostname(), pid: process.pid, locked_at: new Date().toISOString() };
  if (shard) note.shard = shardText(shard);
  return note;
}

/**
 * Takes the OUT lock EXCLUSIVE (a plain load, `models`) or throws LockHeldError; returns the function
 * that releases it. `command` names the command in the messages.
 */
export async function acquireLock(outDir: string, command = 'load'): Promise<() => Promise<void>> {
  const { lock, owner } = lockFiles(outDir);
  await fs.mkdir(path.dirname(lock), { recursive: true });
  // Not one try: two loads starting together each take SQLite's SHARED lock on the way to EXCLUSIVE, and
  // with no retry both were refused (seen once in 20 trials on a loaded machine); a load that finds the
  // lock held is refused after LOCK_WAIT_MS.
  let db: Database.Database | null;
  try {
    db = await exclusiveWithin(lock, LOCK_WAIT_MS);
  } catch (err) {
    throw new Error(`${command}: ${(err as Error).message}`);
  }
  if (db === null) {
    // held SHARED (granted to a probe too) means shard loads hold it, EXCLUSIVE a load or models
    const probe = shared(lock, 0);
    probe?.close();
    const shards = probe === null ? [] : liveShards(outDir);
    throw new LockHeldError(
      shards.length > 0
        ? `${command}: shard loads are writing ${outDir} (${shards.join('; ')}); wait for them to end`
        : `${command}: another load (${ownerText(owner)}) is writing ${outDir}; wait for it to end`,
    );
  }
  try {
    await writeNote(owner, me());
    // the pid file of earlier versions, meaningless now
    await fs.rm(path.join(outDir, 'state', 'load.lock'), { force: true });
  } catch (err) {
    // e.g. OUT on read-only media, where SQLite opened the lock read-only and still locked it: a process
    // that goes on (tests, a server) must not keep OUT locked
    db.close();
    throw err;
  }
  const held = db;
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    await fs.rm(owner, { force: true });
    held.close();
  };
}

/** The splits (N) whose shards hold their count lock now, other than `count`. */
function otherSplitsRunning(dir: string, count: number): number[] {
  const running: number[] = [];
  for (const name of readdirSync(dir)) {
    const n = Number(/^count-(\d+)\.sqlite$/.exec(name)?.[1] ?? Number.NaN);
    if (!Number.isFinite(n) || n === count) continue;
    const probe = exclusive(path.join(dir, name));
    if (probe === null) running.push(n);
    else probe.close();
  }
  return running;
}

/**
 * Takes the locks of shard K/N (see the header) or throws LockHeldError naming the conflict; returns the
 * function that releases them.
 */
export async function acquireShardLock(outDir: string, shard: Shard): Promise<() => Promise<void>> {
  const name = `load --shard ${shardText(shard)}`;
  const dir = shardsDir(outDir);
  await fs.mkdir(dir, { recursive: true });
  const gate = await exclusiveWithin(path.join(dir, 'gate.sqlite'), GATE_WAIT_MS);
  if (gate === null) throw new LockHeldError(`${name}: the shard gate of ${outDir} stayed taken for ${GATE_WAIT_MS / 1000} s`);
  const held: Database.Database[] = [];
  const note = path.join(dir, `shard-${shard.index}-of-${shard.count}.json`);
  const refuse = (message: string): never => {
    for (const db of held.reverse()) db.close();
    throw new LockHeldError(`${name}: ${message}`);
  };
  try {
    const { lock, owner } = lockFiles(outDir);
    const out = shared(lock, LOCK_WAIT_MS);
    if (out === null) refuse(`another load or models run (${ownerText(owner)}) is writing ${outDir}; wait for it to end`);
    else held.push(out);
    const others = otherSplitsRunning(dir, shard.count);
    if (others.length > 0)
      refuse(
        `shards of another split (--shard K/${others.join(', K/')}) are loading ${outDir}; a split's hosts are assigned by N: wait for them to end, or give every shard the same N`,
      );
    const count = shared(path.join(dir, `count-${shard.count}.sqlite`), LOCK_WAIT_MS);
    if (count === null) refuse(`the lock of the ${shard.count}-way split of ${outDir} is being probed; try again`);
    else held.push(count);
    const mine = exclusive(path.join(dir, `shard-${shard.index}-of-${shard.count}.sqlite`));
    if (mine === null)
      refuse(`shard ${shardText(shard)} is already being loaded into ${outDir} (${ownerText(note)}); wait for it to end`);
    else held.push(mine);
    await writeNote(note, me(shard));
  } catch (err) {
    if (!(err instanceof LockHeldError)) for (const db of held.reverse()) db.close();
    throw err;
  } finally {
    gate.close();
  }
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    await fs.rm(note, { force: true });
    for (const db of held.reverse()) db.close();
  };
}
