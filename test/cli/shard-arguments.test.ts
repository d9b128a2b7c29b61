/**
 * `load --shard K/N` and `clinetrail models` at the command line: a bad shard is refused before anything
 * is written (exit 2, one line), the assignment of hosts is the documented hash, and `models` on an OUT
 * that plain loads wrote rebuilds the same warehouse. The command line runs in this process.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCommandLine } from '../../src/cli/commands.js';
import { parseShard, shardOfHost } from '../../src/load/shard.js';
import { captureCommandLine } from '../helpers/command-line.js';
import { fixture } from '../helpers/source.js';
import { tableHashes } from '../helpers/table-hashes.js';

const FLEET = fixture('fleet');
const work = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-shard-args-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const cli = (...args: string[]) => captureCommandLine(runCommandLine, args);

describe('load --shard K/N', () => {
  it.each([
    ['0/4', "wants 1 <= K <= N in K/N, got '0/4'"],
    ['5/4', "wants 1 <= K <= N in K/N, got '5/4'"],
    ['1/0', "wants N >= 1 in K/N, got '1/0'"],
    ['-1/4', "wants K/N (shard K of N, e.g. 2/4), got '-1/4'"],
    ['1.5/4', "wants K/N (shard K of N, e.g. 2/4), got '1.5/4'"],
    ['2', "wants K/N (shard K of N, e.g. 2/4), got '2'"],
    ['a/b', "wants K/N (shard K of N, e.g. 2/4), got 'a/b'"],
    ['1/4/2', "wants K/N (shard K of N, e.g. 2/4), got '1/4/2'"],
    [' 1/4', "wants K/N (shard K of N, e.g. 2/4), got ' 1/4'"],
  ])('refuses --shard %j before anything is written: exit 2, one line', async (value, message) => {
    const out = path.join(work, 'never');
    const run = await cli('load', '--fleet', FLEET, '--out', out, '--shard', value);
    expect(run).toEqual({ code: 2, stdout: '', stderr: `clinetrail: load: --shard ${message}\n` });
    expect(existsSync(out)).toBe(false);
  });

  it('refuses --shard given twice', async () => {
    const run = await cli('load', '--fleet', FLEET, '--out', path.join(work, 'never'), '--shard', '1/2', '--shard', '2/2');
    expect(run).toEqual({ code: 2, stdout: '', stderr: 'clinetrail: load: --shard given more than once\n' });
  });

  it('takes 1/1 and N/N', () => {
    expect(parseShard('1/1')).toEqual({ index: 1, count: 1 });
    expect(parseShard('12/12')).toEqual({ index: 12, count: 12 });
  });

  it('assigns a host by the first four bytes of its name SHA-256, big-endian, mod N, plus 1', () => {
    for (const host of ['WS-042', 'mac-bob', 'lnx-u01', 'Ärger-PC', '主机-7', 'a'.repeat(300)]) {
      const digest = createHash('sha256').update(Buffer.from(host, 'utf8')).digest();
      const word = digest[0] * 2 ** 24 + digest[1] * 2 ** 16 + digest[2] * 2 ** 8 + digest[3];
      for (const n of [1, 2, 3, 4, 7, 64]) expect(shardOfHost(host, n), `${host} of ${n}`).toBe((word % n) + 1);
    }
    // fixed values: a change of the assignment would move every host of a split OUT to another shard
    expect(['WS-042', 'mac-bob', 'lnx-u01', '0042'].map((h) => shardOfHost(h, 4))).toEqual(
      ['WS-042', 'mac-bob', 'lnx-u01', '0042'].map((h) => (createHash('sha256').update(h).digest().readUInt32BE(0) % 4) + 1),
    );
    expect(shardOfHost('ws-01', 4)).toBe(3); // sha256('ws-01') starts 562a786e: 1445623918 mod 4 = 2
  });
});

describe('clinetrail models', () => {
  it('teaches with --help', async () => {
    const run = await cli('models', '--help');
    expect(run.code).toBe(0);
    const text = run.stdout.replace(/\s+/g, ' '); // yargs wraps the help at the terminal width
    expect(text).toMatch(/clinetrail models/);
    expect(text).toMatch(/--out/);
    expect(text).toMatch(
      /Build OUT\/fleet.duckdb from the partitions once, after the shard loads of a split \(load --shard K\/N\)/,
    );
    expect(text).toMatch(/refused \(exit 3\) while a load or any shard load runs/);
  });

  it('refuses an OUT that does not exist or is not a folder: exit 2, one line', async () => {
    const missing = await cli('models', '--out', path.join(work, 'missing'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^clinetrail: models: --out .*missing not found\n$/);
    expect(existsSync(path.join(work, 'missing'))).toBe(false);
  });

  it('rebuilds the same warehouse on an OUT written by a plain load', async () => {
    const out = path.join(work, 'plain');
    expect((await cli('load', '--fleet', FLEET, '--out', out, '--quiet')).code).toBe(0);
    const before = await tableHashes(out);
    const run = await cli('models', '--out', out);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^clinetrail: models built: 4 host\(s\), 132 row\(s\), 8 duplicate\(s\) dropped, 124 event\(s\) in [\d.]+ s -> /,
    );
    expect(Object.fromEntries(await tableHashes(out))).toEqual(Object.fromEntries(before));
  });
});
