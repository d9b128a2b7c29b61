/**
 * `make install PREFIX=...` (issue 28.2, deploy/install.sh): `clinetrail` and `clinetrail-nightly` in
 * PREFIX/bin run this checkout's build with the node that installed them, so they work from a PATH that
 * holds PREFIX/bin and nothing else (cron and systemd start jobs with a short PATH, which may not hold
 * node). A PREFIX that is not absolute is refused with exit 2 and nothing written.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/source.js';
import { assertBuilt, workDir } from '../hostile/harness.js';

const work = workDir('install');
// a space and a quote in the prefix: the scripts must quote what they name
const prefix = path.join(work, "opt/click 'n' trail");
const bin = path.join(prefix, 'bin');
const version = (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

/** Runs a command found on a PATH of PREFIX/bin and `more` (none: node is not on it). */
function onPath(command: string, args: string[], more: string[] = []) {
  const PATH = [bin, ...more].join(':');
  return spawnSync(command, args, { env: { PATH, HOME: work }, encoding: 'utf8', timeout: 240_000 });
}

beforeAll(() => {
  assertBuilt();
  const r = spawnSync('sh', [path.join(REPO, 'deploy', 'install.sh'), prefix], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`install.sh failed (${r.status}): ${r.stderr}`);
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('make install (deploy/install.sh)', () => {
  it('puts clinetrail on PATH: it runs the build with its node, from a PATH with nothing else', () => {
    for (const name of ['clinetrail', 'clinetrail-nightly']) expect(statSync(path.join(bin, name)).mode & 0o111).toBe(0o111);
    const v = onPath('clinetrail', ['--version']);
    expect(v.status, v.stderr).toBe(0);
    expect(v.stdout).toMatch(new RegExp(`^clinetrail ${version.replace(/\./g, '\\.')}\\+[0-9a-f]+\n$`));
    const help = onPath('clinetrail', ['--help']);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout.split('\n')[0]).toBe('clinetrail <command> [options]');
    // an argument error is the CLI's own, exit 2
    const bad = onPath('clinetrail', ['query']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^clinetrail: /);
  });

  it('clinetrail-nightly runs deploy/nightly.sh with that clinetrail: a usage error is its JSON line, exit 2', () => {
    // the job's shell needs the system's tools (date), as cron's and systemd's PATH give them
    const r = onPath('clinetrail-nightly', [], ['/usr/bin', '/bin']);
    expect(r.status).toBe(2);
    const line = JSON.parse(r.stderr.trim()) as Record<string, unknown>;
    expect(line).toMatchObject({ command: 'nightly', event: 'error', level: 'error' });
    expect(line.message).toMatch(/^usage: nightly\.sh FLEET OUT DEST/);
  });

  it('refuses a PREFIX that is not absolute, exit 2, nothing written', () => {
    const r = spawnSync('sh', [path.join(REPO, 'deploy', 'install.sh'), 'relative/prefix'], { cwd: work, encoding: 'utf8' });
    expect([r.status, r.stderr]).toEqual([2, "clinetrail install: PREFIX must be an absolute path, got 'relative/prefix'\n"]);
    expect(existsSync(path.join(work, 'relative'))).toBe(false);
  });
});
