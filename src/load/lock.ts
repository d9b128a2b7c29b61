/**
 * One load at a time per OUT. The lock is an exclusive transaction held on `OUT/state/load-lock.sqlite`
 * for the whole load: SQLite takes it with a POSIX record lock, which the kernel grants to one process
 * at a time, atomically, and drops when the process ends in any way, a SIGKILL included. So two loads
 * started together never both run, and a killed load never leaves a lock behind; there is no pid to
 * check and no stale lock to take over. `OUT/state/load-lock.json` names the holder (host, pid, start
 * time) for the message a refused load prints; it is never trusted to decide anything.
 *
 * The lock file itself is never removed: a load that removed it could let the next one lock a new file
 * while a third still waits on the old one.
 */
import Database from 'better-sqlite3';
import { promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** How long a load waits for a lock that is being taken or held before it is refused. */
const LOCK_WAIT_MS = 1000;

/** Raised when another live load holds OUT. */
export class LockHeldError extends Error {}

/** Who holds the lock, as `load-lock.json` records it. */
export interface LockOwner {
  host: string;
  pid: number;
  /** When the load took the lock, ISO 8601 UTC. */
  locked_at: string;
}

/** The lock file and its owner note under OUT. */
export function lockFiles(outDir: string): { lock: string; owner: string } {
  const state = path.join(outDir, 'state');
  return { lock: path.join(state, 'load-lock.sqlite'), owner: path.join(state, 'load-lock.json') };
}

function ownerText(file: string): string {
  try {
    const o = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockOwner>;
    return `pid ${o.pid ?? '?'} on ${o.host ?? '?'}, since ${o.locked_at ?? '?'}`;
  } catch {
    return 'holder unknown';
  }
}

/** Takes the lock of OUT or throws LockHeldError; returns the function that releases it. */
export async function acquireLock(outDir: string): Promise<() => Promise<void>> {
  const { lock, owner } = lockFiles(outDir);
  await fs.mkdir(path.dirname(lock), { recursive: true });
  // Not 0: two loads starting together each take SQLite's SHARED lock on the way to EXCLUSIVE, and with
  // no wait both were refused (seen once in 20 trials on a loaded machine). With a wait, SQLite refuses
  // one at once (it sees the deadlock) and the other takes the lock when that one lets go; a load that
  // finds the lock held is refused after this long.
  const db = new Database(lock, { timeout: LOCK_WAIT_MS });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') {
      throw new LockHeldError(`load: another load (${ownerText(owner)}) is writing ${outDir}; wait for it to end`);
    }
    throw new Error(`load: cannot take the lock ${lock}: ${(err as Error).message}`);
  }
  const me: LockOwner = { host: os.hostname(), pid: process.pid, locked_at: new Date().toISOString() };
  try {
    await fs.writeFile(`${owner}.tmp`, `${JSON.stringify(me)}\n`);
    await fs.rename(`${owner}.tmp`, owner);
    // the pid file of earlier versions, meaningless now
    await fs.rm(path.join(outDir, 'state', 'load.lock'), { force: true });
  } catch (err) {
    // e.g. OUT on read-only media, where SQLite opened the lock read-only and still locked it: a process
    // that goes on (tests, a server) must not keep OUT locked
    db.close();
    throw err;
  }
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    await fs.rm(owner, { force: true });
    db.close();
  };
}
