/**
 * Hostile FILESYSTEM entries through the real CLI: link loops, links out of the image, FIFOs, sockets,
 * device files (discovery must never open them: a FIFO opened for reading blocks forever), names with
 * newlines and invalid UTF-8 bytes (Buffer paths), very deep trees, and files that change or vanish
 * while the load reads them.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, rmSync, symlinkSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  baselineOf,
  caseProblem,
  controlSnapshot,
  describeRun,
  expectControlAsAlone,
  filesUnder,
  lit,
  load,
  makeControlHost,
  query,
  workDir,
  type CliRun,
} from './harness.js';
import { DATA, HostBuilder, UI_VALID, link, type HostileCase } from './hostile-images.js';

const work = workDir('fs');
const controlFleet = path.join(work, 'control-fleet');
const fleet = path.join(work, 'fleet');
const out = path.join(work, 'out');
mkdirSync(fleet, { recursive: true });
const controlRoot = makeControlHost(controlFleet);
symlinkSync(controlRoot, path.join(fleet, 'control'));
const notes: string[] = [];
const cases: HostileCase[] = [];
/** Cases outside every store root, or alone in their store: rows of the `discovery` partition or of an otherwise empty one. */
const outsideStores: HostileCase[] = [];
let socketServer: net.Server | null = null;

function buildLinks(): void {
  const b = new HostBuilder(fleet, 'h-links');
  b.anchor();
  link(b, `${DATA}/tasks/1762000000100/ui_messages.json`, 'ui_messages.json', 'self-referencing link (ELOOP)', 'problem');
  link(
    b,
    `${DATA}/tasks/1762000000101/ui_messages.json`,
    '../1762000000102/ui_messages.json',
    'two-link loop, side a',
    'problem',
  );
  link(
    b,
    `${DATA}/tasks/1762000000102/ui_messages.json`,
    '../1762000000101/ui_messages.json',
    'two-link loop, side b',
    'problem',
  );
  link(b, `${DATA}/tasks/1762000000103/ui_messages.json`, '/etc/hostname', 'file link escaping the image (absolute)', 'problem');
  link(
    b,
    `${DATA}/tasks/1762000000104/ui_messages.json`,
    '../../../../../../../../../../etc/passwd',
    'file link escaping the image (relative ..)',
    'problem',
  );
  link(b, `${DATA}/tasks/1762000000105`, '/usr/share', 'task folder link escaping the image', 'problem');
  link(b, `${DATA}/tasks/1762000000106/ui_messages.json`, 'does-not-exist.json', 'dangling link', 'problem');
  link(
    b,
    `${DATA}/tasks/1762000000107/ui_messages.json`,
    `/${path.relative('/', b.abs(`${DATA}/tasks/1762000000000/ui_messages.json`))}`,
    'absolute link inside the image',
    'clean',
  );
  link(b, 'home/u/loop', '..', 'folder loop up to the image root');
  link(b, 'home/u/loop2', '../u', 'folder loop to itself');
  link(b, 'home/u/escape', '/', 'home-level link to / (outside any store)');
  cases.push(...b.cases);
  // Outside a store root the link out is only logged: load.ts drops discovery problems without a store.
  outsideStores.push({ host: 'h-links', file: 'home/u/escape', what: 'link to / outside any store root', expect: 'problem' });
}

function buildSpecial(): void {
  const b = new HostBuilder(fleet, 'h-special');
  b.anchor();
  const fifo = `${DATA}/tasks/1762000000200/ui_messages.json`;
  mkdirSync(path.dirname(b.abs(fifo)), { recursive: true });
  execFileSync('mkfifo', [b.abs(fifo)]);
  b.record(fifo, 'FIFO named ui_messages.json', 'problem');
  const fifo2 = `${DATA}/logs/hooks.jsonl`;
  mkdirSync(path.dirname(b.abs(fifo2)), { recursive: true });
  execFileSync('mkfifo', [b.abs(fifo2)]);
  mkdirSync(b.abs('home/u/fifo-dir'), { recursive: true });
  execFileSync('mkfifo', [b.abs('home/u/fifo-dir/pipe')]); // outside any store: must simply be ignored
  link(b, `${DATA}/tasks/1762000000201/ui_messages.json`, '../1762000000200/ui_messages.json', 'link to a FIFO', 'problem');
  const sock = `${DATA}/tasks/1762000000202/ui_messages.json`;
  mkdirSync(path.dirname(b.abs(sock)), { recursive: true });
  socketServer = net.createServer().listen(b.abs(sock));
  b.record(sock, 'unix socket named ui_messages.json', 'problem');
  const dev = `${DATA}/tasks/1762000000203/ui_messages.json`;
  mkdirSync(path.dirname(b.abs(dev)), { recursive: true });
  try {
    execFileSync('mknod', [b.abs(dev), 'c', '1', '5']); // /dev/zero: reading never ends
    b.record(dev, 'character device (like /dev/zero) named ui_messages.json', 'problem');
  } catch (err) {
    notes.push(`mknod refused (${(err as Error).message.split('\n')[0]}): device file case replaced by a link to /dev/zero`);
    symlinkSync('/dev/zero', b.abs(dev));
    b.record(dev, 'link to /dev/zero named ui_messages.json', 'problem');
  }
  const blockDev = `${DATA}/tasks/1762000000204/ui_messages.json`;
  mkdirSync(path.dirname(b.abs(blockDev)), { recursive: true });
  try {
    execFileSync('mknod', [b.abs(blockDev), 'b', '7', '0']); // a loop device node: never opened
    b.record(blockDev, 'block device named ui_messages.json', 'problem');
  } catch (err) {
    notes.push(`mknod of a block device refused (${(err as Error).message.split('\n')[0]}): not tested`);
  }
  cases.push(...b.cases);
  // The FIFO hooks.jsonl is the only file of its store: load.ts has no partition to put the problem in.
  outsideStores.push({ host: 'h-special', file: fifo2, what: 'FIFO hooks.jsonl, alone in its store', expect: 'problem' });
}

function buildNames(): void {
  const b = new HostBuilder(fleet, 'h-names');
  b.put(`${DATA}/tasks/1762\n0000300/ui_messages.json`, UI_VALID, 'task folder name with a newline', 'clean');
  b.put(`${DATA}/tasks/1762000000303/ui_messages.json\nx`, UI_VALID); // not a Cline file name: ignored
  b.put(`${DATA}/tasks/1762000000301/ui_messages.json`, UI_VALID);
  b.put(`${DATA}/tasks/1762000000301/api_conversation_history.json`, '[]');
  // Invalid UTF-8 bytes in a task folder name: only a Buffer path can create it.
  const tasks = Buffer.from(b.abs(`${DATA}/tasks`));
  const badDir = Buffer.concat([tasks, Buffer.from('/1762'), Buffer.from([0xff, 0xfe, 0x0a]), Buffer.from('bad')]);
  mkdirSync(badDir);
  writeFileSync(Buffer.concat([badDir, Buffer.from('/ui_messages.json')]), UI_VALID);
  // readdir on a string path turns the bytes into U+FFFD, so the folder cannot be opened again: it must
  // at least be reported (discover.ts gives the problem the tasks store).
  b.record(`${DATA}/tasks/1762\ufffd\ufffd\nbad`, 'task folder with invalid UTF-8 bytes in its name', 'problem');
  // A deep tree: 300 folders below the home, with a store root at depth 60 that is too deep to search.
  let deep = 'home/deep';
  for (let i = 0; i < 300; i++) deep += `/d${i % 10}`;
  mkdirSync(b.abs(deep), { recursive: true });
  let deepStore = 'home/deep';
  for (let i = 0; i < 60; i++) deepStore += `/d${i % 10}`;
  b.put(`${deepStore}/.cline/data/tasks/1762000000302/ui_messages.json`, UI_VALID);
  cases.push(...b.cases);
  // the first folder not searched: 49 names below the image root (discover.ts MAX_DEPTH is 48)
  outsideStores.push({
    host: 'h-names',
    file: deepStore.split('/').slice(0, 49).join('/'),
    what: 'store root deeper than the search depth',
    expect: 'problem',
  });
}

buildLinks();
buildSpecial();
buildNames();

let run: CliRun;
beforeAll(async () => {
  assertBuilt();
  run = await load(fleet, out, { timeoutMs: 300_000 });
  for (const n of notes) console.log(`[hostile-fs] ${n}`);
}, 320_000);
afterAll(() => {
  socketServer?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('hostile filesystem entries, one load', () => {
  it('finishes within the bound (no FIFO or device was opened) and exits 0', () => {
    expect(run.timedOut, describeRun(run)).toBe(false);
    expect(run.code, describeRun(run)).toBe(0);
  });

  it('the control host loads exactly as when loaded alone', async () => {
    await expectControlAsAlone(out, controlFleet);
  });

  it.each(cases.map((c) => [`${c.host}: ${c.what}`, c] as const))('%s', async (_name, c) => {
    expect(await caseProblem(out, c)).toBeNull();
  });

  it('never reads a file through a link out of the image', async () => {
    const rows = await query(
      out,
      `select count(*) from raw_events where host = 'h-links' and (contains(text, 'root:x:0:0') or kind <> 'parser' and source_file like '%1762000000103%')`,
    );
    expect(rows).toEqual([['0']]);
  });

  it('reads a task folder whose name holds a newline, with the name intact', async () => {
    const rows = await query(
      out,
      `select distinct session_id from raw_events where host = 'h-names' and kind <> 'parser' order by 1`,
    );
    expect(rows.map((r) => r[0])).toContain('1762\n0000300');
  });

  // Problems outside every store root (a link to / in a home, a store root deeper than MAX_DEPTH) go to
  // the host's `discovery` partition; a store whose only entry is a problem (a FIFO hooks.jsonl alone)
  // still gets its partition. Both were once only written to stderr.
  it.each(outsideStores.map((c) => [`${c.host}: ${c.what}`, c] as const))(
    'outside a store or alone in it, still a parser row: %s',
    async (_name, c) => {
      expect(await caseProblem(out, c)).toBeNull();
    },
  );

  it('and those entries are named on stderr too', () => {
    expect(run.stderr).toContain(path.join(fleet, 'h-links', 'home/u/escape'));
    expect(run.stderr).toMatch(/h-names: .*folder deeper than 48 levels/);
    expect(run.stderr).toMatch(/h-special: .*logs\/hooks\.jsonl: FIFO, not read/);
  });
});

describe('files that change or vanish while the load reads them', () => {
  it('a vanished file is a parser row (never silently missing); a rewritten file never hangs the load', async () => {
    const vfleet = path.join(work, 'vanish-fleet');
    const vout = path.join(work, 'vanish-out');
    mkdirSync(vfleet, { recursive: true });
    symlinkSync(controlRoot, path.join(vfleet, 'control'));
    const v = new HostBuilder(vfleet, 'zz-vanish');
    const big = Buffer.from(
      `[${Array.from({ length: 40_000 }, (_, i) => `{"ts":${1762000000000 + i},"type":"say","say":"text","text":"${'x'.repeat(200)}"}`).join(',')}]`,
    );
    for (let i = 0; i < 60; i++) v.put(v.task(), UI_VALID);
    const growing = v.put(v.task(), big);
    const shrinking = v.put(v.task(), big);
    const all = filesUnder(path.join(vfleet, 'zz-vanish'));
    let acted = false;
    const run2 = await load(vfleet, vout, {
      timeoutMs: 300_000,
      onStderr: (text) => {
        if (acted || !text.includes('discovered')) return;
        acted = true;
        for (const rel of all.slice(0, 30)) unlinkSync(v.abs(rel));
        truncateSync(v.abs(shrinking), 1000);
        appendFileSync(v.abs(growing), '{"appended":');
      },
    });
    expect(run2.timedOut, describeRun(run2)).toBe(false);
    expect(run2.code, describeRun(run2)).toBe(0);
    const baseline = await baselineOf(controlFleet);
    expect((await controlSnapshot(vout)).events).toEqual(baseline.events);
    const files = await query(
      vout,
      `select source_file, count_rows, count_errors from files where host = 'zz-vanish' order by 1`,
    );
    const byFile = new Map(files.map((r) => [String(r[0]), r]));
    const silent = all.filter((rel) => {
      const r = byFile.get(rel);
      return !r || Number(r[1]) === 0;
    });
    expect(silent, `files with no row at all: ${JSON.stringify(files)}`).toEqual([]);
    for (const rel of all.slice(0, 30)) {
      const r = byFile.get(rel)!;
      if (Number(r[2]) > 0) {
        const parser = await query(
          vout,
          `select text from raw_events where host = 'zz-vanish' and kind = 'parser' and source_file = ${lit(rel)}`,
        );
        expect(parser.length).toBeGreaterThan(0);
      }
    }
  });
});
