/**
 * Host folder names a fleet may hold: one with a newline loads under that exact name; one whose bytes
 * are not valid UTF-8 cannot be opened by a string path, so it becomes one `parser:` row of its own
 * `discovery` partition, status `unreadable` and exit 5, and every other host still loads.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeRun, query, runCli, workDir } from './harness.js';

const work = workDir('hostnames');
afterAll(() => rmSync(work, { recursive: true, force: true }));

function history(hostDir: Buffer, prompt: string): void {
  const dir = Buffer.concat([hostDir, Buffer.from('/home/u/.cline/data/cache')]);
  mkdirSync(dir, { recursive: true });
  writeFileSync(Buffer.concat([dir, Buffer.from('/user_input_history.jsonl')]), `{"prompt":"${prompt}","ts":1760000000000}\n`);
}

describe('odd host folder names', () => {
  it('loads a name with a newline as it is, and reports a name with invalid UTF-8 without losing the others', async () => {
    const fleet = path.join(work, 'fleet');
    const root = Buffer.from(fleet);
    history(Buffer.concat([root, Buffer.from('/ok')]), 'plain');
    history(Buffer.concat([root, Buffer.from('/new\nline')]), 'newline');
    history(Buffer.concat([root, Buffer.from('/bad'), Buffer.from([0xff, 0xfe]), Buffer.from('host')]), 'lost');
    const out = path.join(work, 'out');
    const run = await runCli(['load', '--fleet', fleet, '--out', out, '--quiet'], { timeoutMs: 120_000 });
    expect(run.code, describeRun(run)).toBe(5);
    expect(await query(out, `select status from hosts where host like 'bad%'`)).toEqual([['unreadable']]);
    const rows = await query(out, 'select host, store, kind, text from raw_events order by host, store');
    expect(rows).toEqual([
      ['bad\ufffd\ufffdhost', 'discovery', 'parser', expect.stringMatching(/^parser: \.: image not searched: ENOENT/)],
      ['new\nline', 'input-history', 'input_history', 'newline'],
      ['ok', 'input-history', 'input_history', 'plain'],
    ]);
  });
});
