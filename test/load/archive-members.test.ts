/**
 * Archive members that fail, and collections that claim one host name (load/staging.ts,
 * load/load-inputs.ts): a member whose compressed stream breaks midway is a `parser:` row of its store and
 * a `files` entry naming the archive and the member, and the archive's other members load; two images
 * naming one host both load, the second as `NAME#2`, and a name given twice with `--host` is refused
 * before anything is written.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as tar from 'tar';
import { zipOf } from '../helpers/archive-files.js';
import { REPO } from '../helpers/source.js';
import { assertBuilt, describeRun, query, runCli, workDir } from '../hostile/harness.js';

const work = workDir('archive-members');
afterAll(() => rmSync(work, { recursive: true, force: true }));

const HISTORY = path.join(
  REPO,
  'fixtures',
  'fleet',
  'lnx-u01',
  'home',
  'u',
  '.cline',
  'data',
  'cache',
  'user_input_history.jsonl',
);
const HOOKS = 'home/u/.cline/data/logs/hooks.jsonl';

describe('a member whose stream fails midway', () => {
  it('is a parser row and a files entry naming archive and member; the other members load', async () => {
    assertBuilt();
    // 200 KB of varied JSONL, so its deflate stream is long enough to break in the middle
    const lines = Array.from({ length: 2000 }, (_, i) =>
      JSON.stringify({ hookName: 'PreToolUse', n: i, note: `line ${i * 7919}` }),
    );
    const zip = await zipOf({
      [HOOKS]: Buffer.from(`${lines.join('\n')}\n`),
      'home/u/.cline/data/cache/user_input_history.jsonl': readFileSync(HISTORY),
    });
    // the local header of the hooks member: its data starts after the 30-byte header, the name and the extra field
    const header = zip.indexOf(Buffer.from(HOOKS)) - 30;
    const dataStart = header + 30 + zip.readUInt16LE(header + 26) + zip.readUInt16LE(header + 28);
    zip.fill(0xff, dataStart + 200, dataStart + 400);
    const archive = path.join(work, 'h.zip');
    writeFileSync(archive, zip);
    const out = path.join(work, 'out');
    const run = await runCli(['load', '--host', `h=${archive}`, '--out', out]);
    expect(run.code, describeRun(run)).toBe(0);
    const [[text]] = await query(out, `select text from raw_events where host = 'h' and store = 'hooks-log' and kind = 'parser'`);
    expect(String(text)).toContain(`archive member not read (${archive}!${HOOKS}): `);
    expect(
      await query(out, `select source_file, archive, archive_member, count_errors::INTEGER from files where store = 'hooks-log'`),
    ).toEqual([[HOOKS, archive, HOOKS, 1]]);
    expect(
      await query(out, `select count(*)::INTEGER > 0 from raw_events where store = 'input-history' and kind <> 'parser'`),
    ).toEqual([[true]]);
  });
});

describe('a truncated tarball', () => {
  it('is one discovery parser row and a files entry naming it; the host is unreadable, exit 5', async () => {
    const fleet = path.join(work, 'truncated');
    mkdirSync(fleet);
    const whole = path.join(work, 'whole.tar.gz');
    tar.c({ gzip: true, file: whole, cwd: path.join(REPO, 'fixtures', 'fleet', 'lnx-u01'), sync: true }, ['home']);
    const bytes = readFileSync(whole);
    writeFileSync(path.join(fleet, 'cut.tar.gz'), bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const out = path.join(work, 'truncated-out');
    const run = await runCli(['load', '--fleet', fleet, '--out', out]);
    expect(run.code, describeRun(run)).toBe(5);
    const archive = path.join(fleet, 'cut.tar.gz');
    const [[text]] = await query(out, `select text from raw_events where host = 'cut' and store = 'discovery'`);
    expect(String(text)).toContain(`archive not readable (${archive}): `);
    expect(await query(out, `select archive from files where host = 'cut'`)).toEqual([[archive]]);
    expect(await query(out, `select status from hosts where host = 'cut'`)).toEqual([['unreadable']]);
  });
});

describe('two collections of one host name', () => {
  it('both load, the second by image path as SAME#2', async () => {
    const fleet = path.join(work, 'twice');
    const info = Buffer.from(JSON.stringify({ Hostname: 'SAME' }));
    const member = {
      'client_info.json': info,
      'uploads/auto/home/u/%2Ecline/data/cache/user_input_history.jsonl': readFileSync(HISTORY),
    };
    mkdirSync(fleet);
    writeFileSync(path.join(fleet, 'a.zip'), await zipOf(member));
    writeFileSync(path.join(fleet, 'b.zip'), await zipOf(member));
    const out = path.join(work, 'twice-out');
    const run = await runCli(['load', '--fleet', fleet, '--out', out]);
    expect(run.code, describeRun(run)).toBe(0);
    expect(await query(out, 'select host, hostname, image_path from hosts order by host')).toEqual([
      ['SAME', 'SAME', path.join(fleet, 'a.zip')],
      ['SAME#2', 'SAME', path.join(fleet, 'b.zip')],
    ]);
  });

  it('given twice with --host, are refused with exit 2 before OUT is created', async () => {
    const fleet = path.join(work, 'twice');
    const out = path.join(work, 'given-twice-out');
    const run = await runCli([
      'load',
      '--host',
      `SAME=${path.join(fleet, 'a.zip')}`,
      '--host',
      `SAME=${path.join(fleet, 'b.zip')}`,
      '--out',
      out,
    ]);
    expect(run.code, describeRun(run)).toBe(2);
    expect(run.stderr).toContain('load: host name given twice: SAME');
    expect(existsSync(out)).toBe(false);
  });

  it('are loaded once --host names one of them: the name given beats the Hostname', async () => {
    const fleet = path.join(work, 'twice');
    const out = path.join(work, 'named-out');
    const run = await runCli([
      'load',
      '--host',
      `first=${path.join(fleet, 'a.zip')}`,
      '--host',
      `SAME=${path.join(fleet, 'b.zip')}`,
      '--out',
      out,
    ]);
    expect(run.code, describeRun(run)).toBe(0);
    expect(await query(out, `select host, home from raw_events where kind <> 'parser' group by all order by all`)).toEqual([
      ['SAME', 'home/u'],
      ['first', 'home/u'],
    ]);
  });
});
