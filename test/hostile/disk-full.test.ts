/**
 * Disk full on OUT: a load on a small tmpfs that runs out of space ends with exit 1 and one
 * `clinetrail:` line, and the previous warehouse answers as before. Needs root and `mount -t tmpfs`;
 * where the machine refuses the mount, the test is skipped with the reason.
 */
import { cpSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/source.js';
import { mountTmpfs, unmountAll } from '../helpers/tmpfs.js';
import { describeRun, query, runCli, workDir } from './harness.js';

const work = workDir('diskfull');
const out = path.join(work, 'out');

afterAll(() => {
  unmountAll();
  rmSync(work, { recursive: true, force: true });
});

describe('disk full on OUT', () => {
  it('ends the load with exit 1 and one clinetrail: line, and keeps the previous warehouse', async (ctx) => {
    const { refused } = mountTmpfs(out, '24m', 'a full OUT');
    if (refused !== null) return ctx.skip(refused);
    const fleet = path.join(work, 'fleet');
    cpSync(fixture('fleet'), fleet, { recursive: true });
    const first = await runCli(['load', '--fleet', fleet, '--out', out, '--quiet'], { timeoutMs: 300_000 });
    expect(first.code, describeRun(first)).toBe(0);
    const counts = 'select host, store, count(*) from raw_events group by all order by all';
    const before = await query(out, counts);
    // Fill OUT's file system, leaving a few KiB: the next full load cannot write its partitions.
    const free = statfsSync(out);
    writeFileSync(path.join(out, 'filler'), Buffer.alloc(Math.max(0, free.bavail * free.bsize - 16 * 1024)));
    const second = await runCli(['load', '--fleet', fleet, '--out', out, '--full', '--quiet'], { timeoutMs: 300_000 });
    expect(second.code, describeRun(second)).toBe(1);
    const lines = second.stderr
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('clinetrail:'));
    expect(lines, describeRun(second)).toHaveLength(1);
    expect(lines[0]).toMatch(/ENOSPC|no space/i);
    expect(second.stderr).not.toMatch(/\n\s+at /);
    expect(await query(out, counts)).toEqual(before);
  });
});
