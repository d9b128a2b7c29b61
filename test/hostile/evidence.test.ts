/**
 * Evidence is never touched: every path of a fleet (files, folders, links) with its content hash, size,
 * mode and mtime is identical before and after a load through the real CLI, with a WAL-mode sessions.db
 * whose newest row exists only in its `-wal`; and the load works on a fleet mounted read-only.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_SESSIONS } from '../helpers/demo-dbs.js';
import { writeSessionsDb } from '../helpers/sqlite-fixtures.js';
import { assertBuilt, describeRun, load, makeControlHost, query, workDir } from './harness.js';
import { DATA } from './hostile-images.js';

/** Every path under `root` (lstat, links not followed): type, mode, size, mtime, and content or target. */
function inventory(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = path.join(dir, name);
      const st = lstatSync(p);
      const rel = path.relative(root, p);
      const what = st.isFile()
        ? `file sha256=${createHash('sha256').update(readFileSync(p)).digest('hex')}`
        : st.isSymbolicLink()
          ? `link -> ${readlinkSync(p)}`
          : st.isDirectory()
            ? 'dir'
            : 'special';
      out[rel] = `${what} mode=${st.mode.toString(8)} size=${st.isDirectory() ? '-' : st.size} mtime=${st.mtimeMs} uid=${st.uid}`;
      if (st.isDirectory()) walk(p);
    }
  };
  walk(root);
  return out;
}

const work = workDir('evidence');
afterAll(() => rmSync(work, { recursive: true, force: true }));

function buildFleet(fleet: string): void {
  makeControlHost(fleet);
  const db = path.join(fleet, 'wal-host', ...DATA.split('/'), 'db', 'sessions.db');
  writeSessionsDb(db, DEMO_SESSIONS, { wal: true });
  symlinkSync('sessions.db', path.join(path.dirname(db), 'link-to-db'));
}

describe('evidence untouched', () => {
  it('a load changes no byte, mode or mtime and adds no path in the fleet (WAL db with -wal content included)', async () => {
    assertBuilt();
    const fleet = path.join(work, 'fleet');
    buildFleet(fleet);
    const dbDir = path.join(fleet, 'wal-host', ...DATA.split('/'), 'db');
    expect(readdirSync(dbDir).sort()).toEqual(['link-to-db', 'sessions.db', 'sessions.db-shm', 'sessions.db-wal']);
    expect(lstatSync(path.join(dbDir, 'sessions.db-wal')).size).toBeGreaterThan(0);
    const before = inventory(fleet);
    const run = await load(fleet, path.join(work, 'out'), { timeoutMs: 300_000 });
    expect(run.code, describeRun(run)).toBe(0);
    expect(inventory(fleet)).toEqual(before);
    // The newest row lives only in the -wal, and it was read.
    const last = DEMO_SESSIONS[DEMO_SESSIONS.length - 1].session_id;
    const rows = await query(
      path.join(work, 'out'),
      `select count(*) from raw_events where host = 'wal-host' and store = 'sessions-db' and session_id = '${last}'`,
    );
    expect(Number(rows[0][0])).toBeGreaterThan(0);
  });

  it('a load works on a fleet mounted read-only, and changes nothing', async () => {
    assertBuilt();
    const fleet = path.join(work, 'ro-src');
    buildFleet(fleet);
    const mnt = path.join(work, 'ro-fleet');
    mkdirSync(mnt);
    let how = 'read-only bind mount';
    let mounted = false;
    try {
      execFileSync('mount', ['--bind', fleet, mnt], { stdio: 'pipe' });
      mounted = true;
      execFileSync('mount', ['-o', 'remount,ro,bind', mnt], { stdio: 'pipe' });
    } catch (err) {
      if (mounted) execFileSync('umount', [mnt]);
      mounted = false;
      how = `chmod -R a-w fallback (mount refused: ${(err as Error).message.split('\n')[0]}; root ignores the mode, so this only proves the load needs no write)`;
      rmSync(mnt, { recursive: true });
      symlinkSync(fleet, mnt);
      execFileSync('chmod', ['-R', 'a-w', fleet]);
    }
    console.log(`[evidence] read-only fleet: ${how}`);
    try {
      const before = inventory(fleet);
      const out = path.join(work, 'ro-out');
      const run = await load(mnt, out, { timeoutMs: 300_000 });
      expect(run.code, `${how}\n${describeRun(run)}`).toBe(0);
      expect(inventory(fleet)).toEqual(before);
      const hosts = await query(out, `select distinct host from raw_events order by 1`);
      expect(hosts).toEqual([['control'], ['wal-host']]);
      const errors = await query(out, `select count(*) from files where count_errors > 0 and host = 'wal-host'`);
      expect(errors).toEqual([['0']]);
    } finally {
      if (mounted) execFileSync('umount', [mnt]);
      else execFileSync('chmod', ['-R', 'u+w', fleet]);
      chmodSync(fleet, 0o755);
    }
  });
});
