/**
 * Arguments that behave (issue 12, item 6): every bad argument is refused before anything is written,
 * with exit 2, nothing on stdout and exactly one `clinetrail: ` line on stderr (one JSON error event
 * with `--log-format json`); no OUT folder appears and an existing OUT keeps every byte. `-h`, `-V` and
 * a mistyped command are answered. The command line runs in this process, on the sources.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommandLine } from '../../src/cli/commands.js';
import { captureCommandLine, type CapturedRun } from '../helpers/command-line.js';
import { fixture, listFiles } from '../helpers/source.js';

const FLEET = fixture('fleet');
const work = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-args-'));
/** The working folder of the runs: `--out ""` would be this folder. */
const cwd = path.join(work, 'cwd');
/** An OUT made by a real load, which no refused argument may change. */
const loaded = path.join(work, 'loaded');
/** A regular file where a folder is expected. */
const file = path.join(work, 'a-file');
const before = process.cwd();

/** Every file under `dir` by its relative path, with the hash of its bytes. */
function hashes(dir: string): Record<string, string> {
  return Object.fromEntries(
    listFiles(dir).map((f) => [path.relative(dir, f), createHash('sha256').update(readFileSync(f)).digest('hex')]),
  );
}

let loadedHashes: Record<string, string>;

beforeAll(async () => {
  mkdirSync(cwd);
  writeFileSync(file, 'not a folder\n');
  const run = await captureCommandLine(runCommandLine, ['load', '--fleet', FLEET, '--out', loaded, '--quiet']);
  expect(run.code, run.stderr).toBe(0);
  loadedHashes = hashes(loaded);
  process.chdir(cwd);
});

afterAll(() => {
  process.chdir(before);
  rmSync(work, { recursive: true, force: true });
});

const run = (args: string[]): Promise<CapturedRun> => captureCommandLine(runCommandLine, args);

/** Exit 2, no stdout, one `clinetrail: ` line matching `why`; nothing written anywhere we look. */
function expectRefused(r: CapturedRun, why: RegExp): void {
  const account = `exit ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
  expect(r.code, account).toBe(2);
  expect(r.stdout, account).toBe('');
  expect(r.stderr.endsWith('\n'), account).toBe(true);
  const lines = r.stderr.slice(0, -1).split('\n');
  expect(lines, account).toHaveLength(1);
  expect(lines[0], account).toMatch(/^clinetrail: /);
  expect(lines[0], account).toMatch(why);
  expect(readdirSync(cwd), 'nothing written into the working folder').toEqual([]);
  expect(readFileSync(file, 'utf8')).toBe('not a folder\n');
  expect(hashes(loaded), 'the loaded OUT is unchanged').toEqual(loadedHashes);
}

/** A bad load argument, refused both with a new OUT (which must not appear) and with the loaded OUT. */
const LOAD_REFUSALS: [string, string[], RegExp][] = [
  ['--concurrency 0', ['--concurrency', '0'], /--concurrency wants a whole number of at least 1, got '0'/],
  ['--concurrency -1', ['--concurrency', '-1'], /--concurrency wants a whole number of at least 1, got '-1'/],
  ['--concurrency 2.5', ['--concurrency', '2.5'], /--concurrency wants a whole number of at least 1, got '2.5'/],
  ['--concurrency abc', ['--concurrency', 'abc'], /--concurrency wants a whole number of at least 1, got 'abc'/],
  ['--concurrency ""', ['--concurrency', ''], /--concurrency wants a whole number of at least 1, got ''/],
  ['--concurrency twice', ['--concurrency', '2', '--concurrency', '3'], /--concurrency given more than once/],
  ['--fleet twice', ['--fleet', FLEET], /--fleet given more than once/],
  ['--log-format twice', ['--log-format', 'json', '--log-format', 'text'], /--log-format given more than once/],
  ['--log-format xml', ['--log-format', 'xml'], /Invalid values: .*log-format.*\(see clinetrail --help\)$/],
  ['an unknown option', ['--bogus'], /Unknown argument: bogus \(see clinetrail --help\)$/],
  ['--host without a path', ['--host', 'x'], /--host wants NAME=PATH, got 'x'/],
];

describe('load: a bad argument is refused before anything is written', () => {
  for (const [name, extra, why] of LOAD_REFUSALS) {
    it(`${name}: exit 2, one line, no new OUT`, async () => {
      const out = path.join(work, `never-${name.replace(/\W+/g, '-')}`);
      expectRefused(await run(['load', '--fleet', FLEET, '--out', out, ...extra]), why);
      expect(existsSync(out)).toBe(false);
    });
    it(`${name}: exit 2, one line, the existing OUT unchanged`, async () => {
      expectRefused(await run(['load', '--fleet', FLEET, '--out', loaded, ...extra]), why);
    });
  }

  it('--out "": refused, not the working folder', async () => {
    expectRefused(await run(['load', '--fleet', FLEET, '--out', '']), /^clinetrail: load: --out wants a folder, got ''$/);
  });

  it('--out with no value: refused the same way', async () => {
    expectRefused(await run(['load', '--fleet', FLEET, '--out']), /^clinetrail: load: --out wants a folder, got ''$/);
  });

  it('--out naming a regular file: not a folder', async () => {
    expectRefused(
      await run(['load', '--fleet', FLEET, '--out', file]),
      new RegExp(`^clinetrail: load: --out ${file} is not a folder$`),
    );
  });

  it('--out twice', async () => {
    const out = path.join(work, 'never-out-twice');
    expectRefused(
      await run(['load', '--fleet', FLEET, '--out', out, '--out', loaded]),
      /^clinetrail: load: --out given more than once$/,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('no --out', async () => {
    expectRefused(
      await run(['load', '--fleet', FLEET]),
      /^clinetrail: Missing required argument: out \(see clinetrail --help\)$/,
    );
  });

  it('--fleet naming a regular file: not a folder', async () => {
    const out = path.join(work, 'never-fleet-file');
    expectRefused(
      await run(['load', '--fleet', file, '--out', out]),
      new RegExp(`^clinetrail: load: --fleet ${file} is not a folder$`),
    );
    expect(existsSync(out)).toBe(false);
  });

  it('--fleet naming a missing folder: not found', async () => {
    const out = path.join(work, 'never-fleet-missing');
    const missing = path.join(work, 'no-such-fleet');
    expectRefused(
      await run(['load', '--fleet', missing, '--out', out]),
      new RegExp(`^clinetrail: load: fleet folder not found: ${missing}$`),
    );
    expect(existsSync(out)).toBe(false);
  });

  it('--fleet "": refused, not the working folder', async () => {
    expectRefused(await run(['load', '--fleet', '', '--out', loaded]), /^clinetrail: load: --fleet wants a folder, got ''$/);
  });

  it('--host naming a regular file that is no archive: not a folder or an archive', async () => {
    expectRefused(
      await run(['load', '--host', `h=${file}`, '--out', loaded]),
      new RegExp(`^clinetrail: load: --host h=${file} is not a folder or an archive \\(\\.zip, \\.tar, \\.tar\\.gz, \\.tgz\\)$`),
    );
  });
});

describe('--log-format json: an error is one JSON error event', () => {
  const cases: [string, string[], RegExp][] = [
    [
      '--concurrency 0',
      ['--out', loaded, '--concurrency', '0'],
      /^load: --concurrency wants a whole number of at least 1, got '0'$/,
    ],
    ['an unknown option', ['--out', loaded, '--bogus'], /^Unknown argument: bogus \(see clinetrail --help\)$/],
    ['--out a file', ['--out', file], /^load: --out .* is not a folder$/],
    ['--fleet twice', ['--out', loaded, '--fleet', FLEET], /^load: --fleet given more than once$/],
  ];
  for (const [name, extra, why] of cases) {
    it(name, async () => {
      const r = await run(['load', '--fleet', FLEET, '--log-format', 'json', ...extra]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines, r.stderr).toHaveLength(1);
      const event = JSON.parse(lines[0]) as Record<string, unknown>;
      expect(Object.keys(event)).toEqual(['ts', 'event', 'level', 'message']);
      expect(event.ts).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(event).toMatchObject({ event: 'error', level: 'error' });
      expect(event.message).toMatch(why);
      expect(hashes(loaded)).toEqual(loadedHashes);
    });
  }

  it('--log-format=json with --quiet still writes the error event', async () => {
    const r = await run(['load', '--fleet', FLEET, '--log-format=json', '--quiet', '--out', '']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr)).toMatchObject({ event: 'error', level: 'error', message: "load: --out wants a folder, got ''" });
  });
});

describe('query: the same --out checks', () => {
  it('--out "": refused', async () => {
    expectRefused(
      await run(['query', '--out', '', 'select 1']),
      /^clinetrail: query: --out wants the output folder of a load, got ''$/,
    );
  });

  it('--out naming a regular file: not a folder', async () => {
    expectRefused(
      await run(['query', '--out', file, 'select 1']),
      new RegExp(`^clinetrail: query: --out ${file} is not a folder$`),
    );
  });

  it('--out twice', async () => {
    expectRefused(
      await run(['query', '--out', loaded, '--out', loaded, 'select 1']),
      /^clinetrail: query: --out given more than once$/,
    );
  });

  it('--format twice', async () => {
    expectRefused(
      await run(['query', '--out', loaded, '--format', 'csv', '--format', 'json', 'select 1']),
      /^clinetrail: query: --format given more than once$/,
    );
  });

  it('a missing OUT: not found, and no OUT made', async () => {
    const out = path.join(work, 'no-such-out');
    expectRefused(await run(['query', '--out', out, 'select 1']), new RegExp(`^clinetrail: query: --out ${out} not found$`));
    expect(existsSync(out)).toBe(false);
  });

  it('no SQL', async () => {
    expectRefused(
      await run(['query', '--out', loaded]),
      /^clinetrail: Not enough non-option arguments.*\(see clinetrail --help\)$/,
    );
  });
});

describe('help, version, and a mistyped command', () => {
  for (const flag of ['-h', '--help']) {
    it(`${flag}: the help on stdout, exit 0`, async () => {
      const r = await run([flag]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/^clinetrail <command> \[options\]/);
      expect(r.stdout).toMatch(/-h, --help/);
      expect(r.stdout).toMatch(/-V, --version/);
      expect(r.stdout).toMatch(
        /Exit codes: 0 done; 1 the\s+command\s+failed\s+\(load,\s+models,\s+query,\s+export,\s+hunt,\s+report\);\s+2\s+bad\s+arguments\s+or\s+paths;\s+3\s+another\s+load\s+\(or\s+models,\s+a\s+hunt,\s+or\s+a\s+shard\s+load\s+in\s+conflict\)\s+holds\s+OUT; 4\s+loaded,\s+but\s+a\s+host\s+image\s+gave\s+no\s+Cline\s+store\s+and\s+its\s+earlier\s+data\s+was\s+kept;\s+5\s+loaded,\s+but\s+a\s+host\s+image\s+could\s+not\s+be\s+read\b[^;]*;\s+6\s+models\s+built,\s+but\s+shards\s+of\s+the\s+split\s+did\s+not\s+run\s+or\s+finish\./,
      );
    });
  }

  it('load -h: the load options on stdout, exit 0', async () => {
    const r = await run(['load', '-h']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/--concurrency/);
    expect(r.stdout).toMatch(/--fleet/);
  });

  it('export -h: the export options and formats on stdout, exit 0', async () => {
    const r = await run(['export', '-h']);
    expect(r.code, r.stderr).toBe(0);
    for (const text of ['--to', '--where', '--sql', '--force', 'timesketch', 'jsonl', 'parquet', 'inside OUT'])
      expect(r.stdout).toContain(text);
  });

  it('export: --where with --sql, a missing --to or --format, an unknown format are refused', async () => {
    for (const args of [
      ['export', '--out', '/nonexistent-x', '--format', 'csv', '--to', '/tmp/x.csv', '--where', 'true', '--sql', 'select 1'],
      ['export', '--out', '/nonexistent-x', '--format', 'csv'],
      ['export', '--out', '/nonexistent-x', '--to', '/tmp/x.csv'],
      ['export', '--out', '/nonexistent-x', '--to', '/tmp/x.csv', '--format', 'xlsx'],
    ]) {
      const r = await run(args);
      expect([r.code, r.stdout], args.join(' ')).toEqual([2, '']);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });

  for (const flag of ['-V', '--version']) {
    it(`${flag}: the version on stdout, exit 0`, async () => {
      const r = await run([flag]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      const pkg = JSON.parse(readFileSync(fixture('..', 'package.json'), 'utf8')) as { version: string };
      expect(r.stdout).toMatch(new RegExp(`^clinetrail ${pkg.version.replace(/\./g, '\\.')}\\+[0-9a-f]+\\n$`));
    });
  }

  it('a mistyped command (lod) suggests load', async () => {
    expectRefused(
      await run(['lod', '--fleet', FLEET, '--out', loaded]),
      /^clinetrail: Unknown command\. Did you mean load\? \(see clinetrail --help\)$/,
    );
  });

  it('no command', async () => {
    expectRefused(
      await run([]),
      /^clinetrail: Give a command: load, models, query, export, hunt, report or mcp \(see clinetrail --help\)$/,
    );
  });
});
