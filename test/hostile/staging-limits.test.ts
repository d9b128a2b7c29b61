/**
 * What a load may inflate out of an archive into its temporary folder is bounded, and running out there is
 * clinetrail's own fault, never the evidence's (evidence/staging-limits.ts, core/own-fault.ts), through the
 * real CLI:
 * - a zip member beyond CLINETRAIL_STAGING_MEMBER_MAX, the members of a tarball beyond
 *   CLINETRAIL_STAGING_MAX, and a zip member larger than a small tmpfs given as TMPDIR (ENOSPC) each end
 *   the load with exit 1 and one `clinetrail:` line naming the archive, the member and the limit or error;
 *   no partition is written, the warehouse is as before, nothing is left in TMPDIR, and the next load
 *   with room reads every line of the member;
 * - a limit that is not a size is refused with exit 2 before OUT is made.
 * The tmpfs case needs root and `mount -t tmpfs`; where the machine refuses the mount it is skipped and
 * says why.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeTgz, zipOf } from '../helpers/archive-files.js';
import { fixture } from '../helpers/source.js';
import { mountTmpfs, unmountAll } from '../helpers/tmpfs.js';
import { describeRun, query, runCli, snapshotTree, workDir } from './harness.js';

const work = workDir('staging');
afterAll(() => {
  unmountAll();
  rmSync(work, { recursive: true, force: true });
});

const HISTORY_MEMBER = 'home/u/.cline/data/cache/user_input_history.jsonl';
const HISTORY = readFileSync(fixture('input-history', 'img', ...HISTORY_MEMBER.split('/')));
const HOOKS_MEMBER = 'home/u/.cline/data/logs/hooks.jsonl';

/** `lines` hook records, each different (a digest in it), so deflate cannot shrink them to nothing. */
function hooks(lines: number, tag: string): Buffer {
  const text = Array.from({ length: lines }, (_, i) => {
    const note = createHash('sha256').update(`${tag} ${i}`).digest('hex').repeat(3);
    return JSON.stringify({ hookName: 'PreToolUse', n: i, note });
  });
  return Buffer.from(`${text.join('\n')}\n`);
}

const clinetrailLines = (stderr: string): string[] => stderr.split('\n').filter((l) => l.startsWith('clinetrail:'));

/** The warehouse and every partition of OUT, to compare before and after a failed load. */
async function warehouseState(out: string): Promise<unknown> {
  return {
    rows: await query(out, 'select host, store, kind, count(*)::INTEGER from raw_events group by all order by all'),
    parquet: snapshotTree(path.join(out, 'parquet', 'events')),
    records: snapshotTree(path.join(out, 'records')),
    warehouse: snapshotTree(out)['fleet.duckdb'],
  };
}

/** Hook rows (and parser rows) of `host` in OUT. */
function hookRows(out: string, host: string): Promise<unknown[][]> {
  return query(
    out,
    `select count(*) filter (where kind <> 'parser')::INTEGER, count(*) filter (where kind = 'parser')::INTEGER from raw_events where host = '${host}' and store = 'hooks-log'`,
  );
}

/** The folders of one case: its fleet (made), its OUT, and a TMPDIR of its own (made). */
function caseFolders(tag: string): { fleet: string; out: string; tmp: string } {
  const folders = {
    fleet: path.join(work, `${tag}-fleet`),
    out: path.join(work, `${tag}-out`),
    tmp: path.join(work, `${tag}-tmp`),
  };
  mkdirSync(folders.fleet, { recursive: true });
  mkdirSync(folders.tmp, { recursive: true });
  return folders;
}

interface OwnFaultCase {
  fleet: string;
  out: string;
  /** The environment of the failing load; its TMPDIR must be left empty. */
  env: NodeJS.ProcessEnv & { TMPDIR: string };
  /** Rewrites the host's archive with a hooks member of `lines` lines. */
  grow: () => Promise<void> | void;
  host: string;
  lines: number;
  /** What the one `clinetrail:` line names: the member, and the limit or error. */
  member: string;
  says: RegExp;
}

/**
 * Loads the fleet with a small hooks member (exit 0), grows it, and loads it with `env`: the load must
 * fail as an own fault, naming the member, and change nothing; the next load, with room, reads every line.
 */
async function expectOwnFault(c: OwnFaultCase): Promise<void> {
  const first = await runCli(['load', '--fleet', c.fleet, '--out', c.out, '--quiet']);
  expect(first.code, describeRun(first)).toBe(0);
  const before = await warehouseState(c.out);
  await c.grow();
  const failed = await runCli(['load', '--fleet', c.fleet, '--out', c.out, '--quiet'], { env: c.env, timeoutMs: 120_000 });
  expect(failed.code, describeRun(failed)).toBe(1);
  const lines = clinetrailLines(failed.stderr);
  expect(lines, describeRun(failed)).toHaveLength(1);
  expect(lines[0]).toContain(c.member);
  expect(lines[0]).toMatch(c.says);
  expect(failed.stderr).not.toMatch(/\n\s+at /);
  expect(await warehouseState(c.out)).toEqual(before);
  expect(readdirSync(c.env.TMPDIR)).toEqual([]);

  const next = await runCli(['load', '--fleet', c.fleet, '--out', c.out, '--quiet']);
  expect(next.code, describeRun(next)).toBe(0);
  expect(await hookRows(c.out, c.host)).toEqual([[c.lines, 0]]);
}

describe('staging limits and a full TMPDIR are own faults', () => {
  it('a zip member beyond CLINETRAIL_STAGING_MEMBER_MAX: exit 1, one line, nothing changed; the next load reads it', async () => {
    const { fleet, out, tmp } = caseFolders('member');
    const zip = path.join(fleet, 'alice.zip');
    writeFileSync(zip, await zipOf({ [HISTORY_MEMBER]: HISTORY, [HOOKS_MEMBER]: hooks(10, 'small') }));
    // 4,000 lines of ~230 bytes: about 900 KB inflated, over a limit of 256 KB
    await expectOwnFault({
      fleet,
      out,
      env: { TMPDIR: tmp, CLINETRAIL_STAGING_MEMBER_MAX: '256KB' },
      grow: async () => writeFileSync(zip, await zipOf({ [HISTORY_MEMBER]: HISTORY, [HOOKS_MEMBER]: hooks(4000, 'big') })),
      host: 'alice',
      lines: 4000,
      member: `${zip}!${HOOKS_MEMBER}`,
      says: /CLINETRAIL_STAGING_MEMBER_MAX=256KB/,
    });
  });

  it('the members of a tarball beyond CLINETRAIL_STAGING_MAX: exit 1, one line, nothing changed; the next load reads them', async () => {
    const { fleet, out, tmp } = caseFolders('total');
    const tgz = path.join(fleet, 'bob.tgz');
    writeTgz(tgz, { [HISTORY_MEMBER]: HISTORY, [HOOKS_MEMBER]: hooks(10, 'small') });
    // two members, each under a limit of 150 KB a member, together over 200 KB an archive
    const bigHooks = hooks(550, 'total');
    const bigHistory = Buffer.from(
      Array.from(
        { length: 1500 },
        (_, i) => `${JSON.stringify({ prompt: `prompt number ${i}`.padEnd(60, '.'), ts: 1760000005000 + i })}\n`,
      ).join(''),
    );
    for (const member of [bigHooks, bigHistory]) expect(member.length).toSatisfy((n: number) => n > 100_000 && n < 150_000);
    await expectOwnFault({
      fleet,
      out,
      env: { TMPDIR: tmp, CLINETRAIL_STAGING_MEMBER_MAX: '150KB', CLINETRAIL_STAGING_MAX: '200KB' },
      grow: () => writeTgz(tgz, { [HISTORY_MEMBER]: bigHistory, [HOOKS_MEMBER]: bigHooks }),
      host: 'bob',
      lines: 550,
      // the member copied second crosses the limit: the tarball's order says which
      member: `${tgz}!home/u/.cline/data/`,
      says: /the members copied from its archive inflate beyond CLINETRAIL_STAGING_MAX=200KB/,
    });
  });

  it('a zip member larger than TMPDIR (a 1 MB tmpfs): exit 1, one ENOSPC line, nothing changed; the next load reads it', async (ctx) => {
    const { dir: smallTmp, refused } = mountTmpfs(path.join(work, 'small-tmp'), '1m', 'a TMPDIR too small for a member');
    if (smallTmp === null) return ctx.skip(refused);
    const { fleet, out } = caseFolders('full');
    const zip = path.join(fleet, 'carol.zip');
    writeFileSync(zip, await zipOf({ [HISTORY_MEMBER]: HISTORY, [HOOKS_MEMBER]: hooks(10, 'small') }));
    // about 4.5 MB inflated into a 1 MB folder
    await expectOwnFault({
      fleet,
      out,
      env: { TMPDIR: smallTmp },
      grow: async () => writeFileSync(zip, await zipOf({ [HISTORY_MEMBER]: HISTORY, [HOOKS_MEMBER]: hooks(20_000, 'full') })),
      host: 'carol',
      lines: 20_000,
      member: `${zip}!${HOOKS_MEMBER}`,
      says: /ENOSPC/,
    });
  });

  it('a limit that is not a size is refused with exit 2 before OUT is made', async () => {
    const { fleet, out } = caseFolders('bad');
    writeFileSync(path.join(fleet, 'dave.zip'), await zipOf({ [HISTORY_MEMBER]: HISTORY }));
    for (const [name, value] of [
      ['CLINETRAIL_STAGING_MEMBER_MAX', '0'],
      ['CLINETRAIL_STAGING_MAX', 'lots'],
    ]) {
      const run = await runCli(['load', '--fleet', fleet, '--out', out], { env: { [name]: value } });
      expect(run.code, describeRun(run)).toBe(2);
      expect(clinetrailLines(run.stderr)).toEqual([
        `clinetrail: load: ${name} wants a size of at least 1 byte such as 500MB or 4GB, got '${value}'`,
      ]);
      expect(existsSync(out)).toBe(false);
    }
  });
});
