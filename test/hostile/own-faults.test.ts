/**
 * clinetrail's own faults are failures, not evidence, through the real CLI (worker threads):
 * - a temporary folder too small for the private copy of a sessions.db (a small tmpfs as the load's
 *   TMPDIR) ends the load with exit 1 and one `clinetrail:` line naming ENOSPC, writes no partition for
 *   it, and the next load with room reads every row. Needs root and `mount -t tmpfs`; where the machine
 *   refuses the mount, the test is skipped and says why;
 * - the private copies a killed load left in the temporary folder (named with its pid) are removed by
 *   the next load, and those of a load still running are kept.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { partitionDir } from '../../src/core/layout.js';
import { mountTmpfs, unmountAll } from '../helpers/tmpfs.js';
import { DEMO_SESSIONS_DB } from '../helpers/demo-dbs.js';
import { snapshotFolder, writeSessionsDb, type SessionsDbRow } from '../helpers/sqlite-fixtures.js';
import { describeRun, makeControlHost, query, runCli, workDir } from './harness.js';

const work = workDir('ownfault');

afterAll(() => {
  unmountAll();
  rmSync(work, { recursive: true, force: true });
});

/** Sessions of the big sessions.db: about 4 MB, four times the small temporary folder. */
const SESSIONS = 6_000;
const TMPFS_SIZE = '1m';

function bigSessions(): SessionsDbRow[] {
  return Array.from({ length: SESSIONS }, (_, i) => ({
    session_id: `1765000000000_big${String(i).padStart(6, '0')}`,
    started_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    status: 'completed',
    prompt: `prompt ${i} `.padEnd(400, 'x'),
    metadata_json: { title: `session ${i}` },
  }));
}

const clinetrailLines = (stderr: string): string[] => stderr.split('\n').filter((l) => l.startsWith('clinetrail:'));

describe('own faults are failures, not evidence', () => {
  it('a full temporary folder ends the load with exit 1 and changes nothing; the next load reads every row', async (ctx) => {
    const { dir: smallTmp, refused } = mountTmpfs(path.join(work, 'small-tmp'), TMPFS_SIZE, 'a full TMPDIR');
    if (smallTmp === null) return ctx.skip(refused);
    const fleet = path.join(work, 'fleet');
    const out = path.join(work, 'out');
    makeControlHost(fleet, 'h');
    const first = await runCli(['load', '--fleet', fleet, '--out', out, '--quiet'], { timeoutMs: 300_000 });
    expect(first.code, describeRun(first)).toBe(0);
    const counts = 'select host, store, kind, count(*) from raw_events group by all order by all';
    const before = await query(out, counts);
    const partition = partitionDir(out, 'h', 'sessions-db');
    const partitionBefore = snapshotFolder(partition);

    // The evidence grows: a sessions.db four times the size of the load's temporary folder.
    const db = path.join(fleet, 'h', ...DEMO_SESSIONS_DB.slice(2));
    writeSessionsDb(db, bigSessions());
    const full = await runCli(['load', '--fleet', fleet, '--out', out, '--quiet'], {
      timeoutMs: 300_000,
      env: { TMPDIR: smallTmp },
    });
    expect(full.code, describeRun(full)).toBe(1);
    const lines = clinetrailLines(full.stderr);
    expect(lines, describeRun(full)).toHaveLength(1);
    expect(lines[0]).toMatch(/ENOSPC/);
    expect(lines[0]).toContain('sessions.db');
    expect(full.stderr).not.toMatch(/\n\s+at /);
    expect(await query(out, counts)).toEqual(before);
    expect(snapshotFolder(partition)).toEqual(partitionBefore);
    expect(readdirSync(smallTmp)).toEqual([]);

    const next = await runCli(['load', '--fleet', fleet, '--out', out, '--quiet'], { timeoutMs: 300_000 });
    expect(next.code, describeRun(next)).toBe(0);
    const read = await query(
      out,
      `select count(distinct session_id) filter (where kind <> 'parser'), count(*) filter (where kind = 'parser') from raw_events where host = 'h' and store = 'sessions-db'`,
    );
    expect(read.map((r) => r.map(Number))).toEqual([[SESSIONS, 0]]);
  });

  it('a load removes the private copies killed loads left in the temporary folder and keeps those of live loads', async () => {
    const tmp = path.join(work, 'tmp');
    mkdirSync(tmp, { recursive: true });
    // A pid that has ended: a child that ran and exited.
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const fakeCopy = (name: string): string => {
      mkdirSync(path.join(tmp, name));
      writeFileSync(
        path.join(tmp, name, 'sessions.db'),
        Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(4080)]),
      );
      return name;
    };
    const deadCopy = fakeCopy(`clinetrail-sqlite-${dead}-Ab12Cd`);
    const liveCopy = fakeCopy(`clinetrail-sqlite-${process.pid}-Ef34Gh`);
    // Copies named before the pid was part of the name: removed once nothing in them changed for a day.
    const oldCopy = fakeCopy('clinetrail-sqlite-Ij56Kl');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    utimesSync(path.join(tmp, oldCopy, 'sessions.db'), twoDaysAgo, twoDaysAgo);
    utimesSync(path.join(tmp, oldCopy), twoDaysAgo, twoDaysAgo);
    const recentCopy = fakeCopy('clinetrail-sqlite-Mn78Op');
    writeFileSync(path.join(tmp, 'clinetrail-sqlite-notes.txt'), 'not a copy folder');
    mkdirSync(path.join(tmp, 'other-tool-123-abcdef'));

    const fleet = path.join(work, 'fleet-stale');
    const out = path.join(work, 'out-stale');
    makeControlHost(fleet, 'h');
    const run = await runCli(['load', '--fleet', fleet, '--out', out, '--quiet'], { timeoutMs: 300_000, env: { TMPDIR: tmp } });
    expect(run.code, describeRun(run)).toBe(0);
    expect(existsSync(path.join(tmp, deadCopy))).toBe(false);
    expect(existsSync(path.join(tmp, oldCopy))).toBe(false);
    expect(readdirSync(tmp).sort()).toEqual(
      [liveCopy, recentCopy, 'clinetrail-sqlite-notes.txt', 'other-tool-123-abcdef'].sort(),
    );
  });
});
