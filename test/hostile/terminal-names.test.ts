/**
 * Names from evidence cannot drive the analyst's terminal (core/terminal-text.ts), through the real CLI:
 * member names, a host folder name and a file name holding ESC sequences (a screen clear, an OSC title
 * with its BEL), a C1 CSI, a carriage return, a line break followed by a forged `clinetrail:` line and a
 * bidi override. A load that reports them (a corrupt zip member, a folder too deep in a zip, a link in a
 * tarball, a FIFO in a folder image, and an own fault on a member beyond the staging limit) prints:
 * - as text: no control character, no line that the names start, each member named by its archive and
 *   member (`ARCHIVE!MEMBER`), never by its copy in the load's private folder;
 * - as JSON (`--log-format json`): valid JSON lines with no raw control character either, whose `file`,
 *   `archive`, `member` and `host` hold the names exactly.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTgz, zipOf } from '../helpers/archive-files.js';
import { fixture } from '../helpers/source.js';
import { type CliRun, describeRun, runCli, workDir } from './harness.js';

const work = workDir('terminal');
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** ESC [2J (clear), OSC 0 title BEL, C1 CSI, CR, a line break and a forged line, RIGHT-TO-LEFT OVERRIDE. */
const EVIL = '\x1b[2J\x1b]0;pwned\x07\u009b31m\rX\nclinetrail: forged line\u202e';
/** What no printed byte may be: C0 controls but the line feed, DEL, C1, line separators, bidi controls. */
const UNSAFE = /(?!\n)[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

const DATA = 'home/u/.cline/data';
const HISTORY_MEMBER = `${DATA}/cache/user_input_history.jsonl`;
const HISTORY = readFileSync(fixture('input-history', 'img', ...HISTORY_MEMBER.split('/')));
const CORRUPT_MEMBER = `${DATA}/tasks/1761000000000${EVIL}/ui_messages.json`;
const DEEP_FOLDER = `deep${EVIL}`;
const LINKED_MEMBER = `${DATA}/tasks/1761000000001${EVIL}/ui_messages.json`;
const FIFO_FILE = `${DATA}/tasks/1761000000002${EVIL}/ui_messages.json`;
const BIG_MEMBER = `${DATA}/tasks/1762000000000${EVIL}/ui_messages.json`;
const FOLDER_HOST = `carol${EVIL}`;

/** A transcript of `n` distinct messages: long enough that its deflate stream can be broken in the middle. */
function transcript(n: number): Buffer {
  const messages = Array.from({ length: n }, (_, i) => ({
    ts: 1761000000000 + i,
    type: 'say',
    say: 'text',
    text: createHash('sha256').update(String(i)).digest('hex'),
  }));
  return Buffer.from(JSON.stringify(messages));
}

/** A zip whose member `name` has bytes overwritten a little into its data: its inflate fails midway. */
async function zipWithCorruptMember(members: Record<string, Buffer>, name: string): Promise<Buffer> {
  const zip = await zipOf(members);
  const header = zip.indexOf(Buffer.from(name)) - 30;
  const dataStart = header + 30 + zip.readUInt16LE(header + 26) + zip.readUInt16LE(header + 28);
  zip.fill(0xff, dataStart + 200, dataStart + 400);
  return zip;
}

const fleet = path.join(work, 'fleet');
const tmp = path.join(work, 'tmp');
const alice = path.join(fleet, 'alice.zip');
const bob = path.join(fleet, 'bob.tgz');
const carol = path.join(fleet, FOLDER_HOST);

beforeAll(async () => {
  mkdirSync(fleet, { recursive: true });
  mkdirSync(tmp);
  const deep = [DEEP_FOLDER, ...Array.from({ length: 50 }, () => 'd'), 'note.txt'].join('/');
  writeFileSync(
    alice,
    await zipWithCorruptMember(
      { [HISTORY_MEMBER]: HISTORY, [CORRUPT_MEMBER]: transcript(3000), [deep]: Buffer.from('deep') },
      CORRUPT_MEMBER,
    ),
  );
  writeTgz(bob, { [HISTORY_MEMBER]: HISTORY, [LINKED_MEMBER]: { symlink: '../../cache/user_input_history.jsonl' } });
  mkdirSync(path.join(carol, path.dirname(FIFO_FILE)), { recursive: true });
  mkdirSync(path.join(carol, path.dirname(HISTORY_MEMBER)), { recursive: true });
  writeFileSync(path.join(carol, HISTORY_MEMBER), HISTORY);
  execFileSync('mkfifo', [path.join(carol, FIFO_FILE)]);
});

/** The printed output is free of control characters and of the private folder's paths. */
function expectInert(run: CliRun): void {
  for (const [name, text] of [
    ['stderr', run.stderr],
    ['stdout', run.stdout],
  ]) {
    const bad = UNSAFE.exec(text);
    expect(bad, `${name} holds U+${bad?.[0].charCodeAt(0).toString(16).padStart(4, '0')}\n${describeRun(run)}`).toBeNull();
    expect(text).not.toContain(tmp);
    expect(text).not.toContain('clinetrail-sqlite-');
  }
  // the line break of a name never starts a line of its own
  expect(run.stderr.split('\n').filter((l) => l.startsWith('clinetrail: forged'))).toEqual([]);
}

/** The lines of a JSON run, each parsed (a line that is not JSON fails the test). */
function jsonEvents(run: CliRun): Array<Record<string, unknown>> {
  return run.stderr
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('names from evidence on stderr', () => {
  it('are printed inert in the text lines of a load, each member named by its archive', async () => {
    const run = await runCli(['load', '--fleet', fleet, '--out', path.join(work, 'out-text')], { env: { TMPDIR: tmp } });
    expect(run.code, describeRun(run)).toBe(0);
    expectInert(run);
    const lines = run.stderr.split('\n');
    const lineOf = (start: string) => lines.find((l) => l.includes(start)) ?? `(no line with ${start})\n${run.stderr}`;
    expect(lineOf(`${alice}!${DATA}/tasks/1761000000000`)).toMatch(/ui_messages\.json: archive member not read \(/);
    expect(lineOf(`${alice}!deep`)).toMatch(/: folder deeper than 48 levels, not searched$/);
    expect(lineOf(`${bob}!${DATA}/tasks/1761000000001`)).toMatch(/ui_messages\.json: special file, not read$/);
    expect(lineOf(`: ${path.join(fleet, 'carol')}`)).toMatch(/^carol.*ui_messages\.json: FIFO, not read$/);
  });

  it('are kept exactly, as escaped JSON strings, in the JSON lines of a load', async () => {
    const run = await runCli(['load', '--fleet', fleet, '--out', path.join(work, 'out-json'), '--log-format', 'json'], {
      env: { TMPDIR: tmp },
    });
    expect(run.code, describeRun(run)).toBe(0);
    expectInert(run);
    const problems = jsonEvents(run).filter((e) => e.event === 'problem');
    const named = (member: string) => problems.find((p) => p.member === member);
    expect(named(CORRUPT_MEMBER)).toMatchObject({ host: 'alice', archive: alice, file: `${alice}!${CORRUPT_MEMBER}` });
    expect(named(LINKED_MEMBER)).toMatchObject({ host: 'bob', archive: bob, file: `${bob}!${LINKED_MEMBER}` });
    expect(problems.find((p) => p.host === FOLDER_HOST)).toMatchObject({ file: path.join(carol, FIFO_FILE) });
    expect(problems.find((p) => String(p.member).startsWith(`${DEEP_FOLDER}/d/`))).toMatchObject({ archive: alice });
  });

  it('are printed inert in the own-fault line of a member beyond the staging limit, text and JSON', async () => {
    const faultFleet = path.join(work, 'fault-fleet');
    mkdirSync(faultFleet);
    const dave = path.join(faultFleet, 'dave.zip');
    writeFileSync(dave, await zipOf({ [HISTORY_MEMBER]: HISTORY, [BIG_MEMBER]: transcript(3000) }));
    const env = { TMPDIR: tmp, CLINETRAIL_STAGING_MEMBER_MAX: '100KB' };
    const text = await runCli(['load', '--fleet', faultFleet, '--out', path.join(work, 'fault-out')], { env });
    expect(text.code, describeRun(text)).toBe(1);
    expectInert(text);
    const lines = text.stderr.split('\n').filter((l) => l.startsWith('clinetrail:'));
    expect(lines, describeRun(text)).toHaveLength(1);
    expect(lines[0]).toContain(`${dave}!${DATA}/tasks/1762000000000`);
    expect(lines[0]).toMatch(/ui_messages\.json: the member inflates beyond CLINETRAIL_STAGING_MEMBER_MAX=100KB/);

    const json = await runCli(['load', '--fleet', faultFleet, '--out', path.join(work, 'fault-out'), '--log-format', 'json'], {
      env,
    });
    expect(json.code, describeRun(json)).toBe(1);
    expectInert(json);
    const errors = jsonEvents(json).filter((e) => e.event === 'error');
    expect(errors).toHaveLength(1);
    expect(String(errors[0].message)).toContain(`${dave}!${BIG_MEMBER}: the member inflates beyond`);
  });
});
