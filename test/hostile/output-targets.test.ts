/**
 * Outputs go only to regular files, never into the evidence (issue 24 point 1, cli/output-file.ts).
 * `export --to` and `report --to`, with and without `--force`, are refused with exit 2 and one line when
 * they name a character device (a private node made with mknod: never the machine's /dev/null), a FIFO,
 * a socket, a folder, a link to one of those or a link to nothing: the node keeps its kind, inode and
 * device number, and no staging folder is left. A regular file is replaced only with `--force` (through
 * a link too: the file it points to). A path inside OUT, inside the fleet folder, inside a `--host`
 * image folder or onto an archive image is refused, and the evidence keeps every byte. A node that
 * appears at `--to` while the output is being written (the process held at the test stop
 * `output-staged`, core/test-stops.ts) is not replaced either. Runs the built CLI (dist/).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/source.js';
import {
  assertBuilt,
  type CliRun,
  describeRun,
  expectArgumentError,
  runCli,
  snapshotTree,
  waitUntilStopped,
  workDir,
} from './harness.js';

const work = workDir('outputs');
const fleet = path.join(work, 'fleet');
/** A host image given with --host, outside the fleet folder. */
const imageDir = path.join(work, 'image-extra');
/** A host image that is an archive. */
const archive = path.join(work, 'image-arch.tar');
const out = path.join(work, 'out');
/** Where the nodes are planted. */
const dest = path.join(work, 'dest');

/** Whether this process may make a device node (root with CAP_MKNOD); the reason when not. */
function tryMknod(p: string): string | null {
  const r = spawnSync('mknod', [p, 'c', '1', '3'], { encoding: 'utf8' });
  return r.status === 0 ? null : `mknod is not permitted here: ${(r.stderr || r.error?.message || '').trim()}`;
}

function mkfifo(p: string): void {
  const r = spawnSync('mkfifo', [p], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mkfifo ${p}: ${r.stderr || r.error?.message}`);
}

/** What a node is: its kind, inode and device number, and where a link points. */
function identity(p: string): string {
  const st = lstatSync(p);
  const kind = st.isCharacterDevice()
    ? 'char'
    : st.isFIFO()
      ? 'fifo'
      : st.isSocket()
        ? 'socket'
        : st.isDirectory()
          ? 'dir'
          : st.isSymbolicLink()
            ? `link->${readlinkSync(p)}`
            : st.isFile()
              ? 'file'
              : 'other';
  return `${kind} ino=${st.ino} rdev=${st.rdev}`;
}

const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');

/** The arguments of a command that writes `to`: a quick export, or the report. */
function writeArgs(command: 'export' | 'report', to: string, force: boolean): string[] {
  const extra = command === 'export' ? ['--format', 'csv', '--sql', 'select 1 as a'] : [];
  return [command, '--out', out, '--to', to, ...(force ? ['--force'] : []), ...extra];
}

/** Exit 2, nothing on stdout, one `clinetrail: <command>: ` line matching `why`, no staging folder left. */
function expectRefused(run: CliRun, command: string, why: RegExp, folder = dest): void {
  expectArgumentError(run, new RegExp(`^${command}: `));
  expectArgumentError(run, why);
  expect(
    readdirSync(folder).filter((n) => n.startsWith('.clinetrail-')),
    'no staging folder left',
  ).toEqual([]);
}

const mknodSkip = tryMknod(path.join(work, 'probe-null'));
let socketServer: net.Server;

beforeAll(async () => {
  assertBuilt();
  cpSync(fixture('fleet'), fleet, { recursive: true });
  cpSync(fixture('fleet', 'lnx-u01'), imageDir, { recursive: true });
  const tar = spawnSync('tar', ['-cf', archive, '-C', fixture('fleet', 'mac-bob'), '.'], { encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`tar: ${tar.stderr}`);
  const first = await runCli(['load', '--fleet', fleet, '--out', out, '--quiet']);
  expect(first.code, describeRun(first)).toBe(0);
  // a second load adds two images outside the fleet folder: both are inputs of OUT from then on
  const second = await runCli(['load', '--host', `extra=${imageDir}`, '--host', `arch=${archive}`, '--out', out, '--quiet']);
  expect(second.code, describeRun(second)).toBe(0);
  mkdirSync(dest);
  if (mknodSkip === null) expect(tryMknod(path.join(dest, 'null'))).toBeNull();
  mkfifo(path.join(dest, 'fifo'));
  socketServer = net.createServer();
  await new Promise<void>((resolve) => socketServer.listen(path.join(dest, 'socket'), resolve));
  mkdirSync(path.join(dest, 'folder'));
  writeFileSync(path.join(dest, 'folder', 'kept.txt'), 'kept\n');
  symlinkSync(path.join(dest, 'null'), path.join(dest, 'link-to-null'));
  symlinkSync(path.join(dest, 'fifo'), path.join(dest, 'link-to-fifo'));
  symlinkSync(path.join(dest, 'folder'), path.join(dest, 'link-to-folder'));
  symlinkSync(path.join(dest, 'missing'), path.join(dest, 'link-to-nothing'));
});

afterAll(async () => {
  await new Promise((resolve) => socketServer?.close(resolve));
  rmSync(work, { recursive: true, force: true });
});

/** The planted nodes: name, what the refusal says, and whether it needs mknod. */
const NODES: Array<[string, RegExp, boolean]> = [
  ['null', /--to .*\/null is a character device; only a new file, or a regular file with --force, is written$/, true],
  ['fifo', /--to .*\/fifo is a FIFO; /, false],
  ['socket', /--to .*\/socket is a socket; /, false],
  ['folder', /--to .*\/folder is a folder; /, false],
  ['link-to-null', /--to .*\/link-to-null is a link to a character device; /, true],
  ['link-to-fifo', /--to .*\/link-to-fifo is a link to a FIFO; /, false],
  ['link-to-folder', /--to .*\/link-to-folder is a link to a folder; /, false],
  ['link-to-nothing', /--to .*\/link-to-nothing is a link to nothing/, false],
];

describe('--to that is not a regular file is refused, --force or not', () => {
  for (const command of ['export', 'report'] as const) {
    for (const force of [false, true]) {
      for (const [name, why, device] of NODES) {
        it.skipIf(device && mknodSkip !== null)(
          `${command}${force ? ' --force' : ''} --to ${name}: exit 2, one line, the node as it was${device && mknodSkip ? ` (skipped: ${mknodSkip})` : ''}`,
          async () => {
            const node = path.join(dest, name);
            const before = identity(node);
            const pointed = name.startsWith('link-to-') && name !== 'link-to-nothing' ? identity(readlinkSync(node)) : null;
            expectRefused(await runCli(writeArgs(command, node, force)), command, why);
            expect(identity(node)).toBe(before);
            if (pointed !== null) expect(identity(readlinkSync(node))).toBe(pointed);
            expect(readdirSync(path.join(dest, 'folder'))).toEqual(['kept.txt']);
            expect(existsSync(path.join(dest, 'missing'))).toBe(false);
          },
        );
      }
    }
  }
});

describe('--to a regular file', () => {
  for (const command of ['export', 'report'] as const) {
    const written = command === 'export' ? /^a\n1\n$/ : /^<!doctype html>/;

    it(`${command}: refused without --force (the file kept), replaced with it`, async () => {
      const file = path.join(dest, `${command}-regular.out`);
      writeFileSync(file, 'old\n');
      expectRefused(await runCli(writeArgs(command, file, false)), command, /exists \(--force replaces it\)$/);
      expect(readFileSync(file, 'utf8')).toBe('old\n');
      const forced = await runCli(writeArgs(command, file, true));
      expect(forced.code, describeRun(forced)).toBe(0);
      expect(readFileSync(file, 'utf8')).toMatch(written);
      expect(readdirSync(dest).filter((n) => n.startsWith('.clinetrail-'))).toEqual([]);
    });

    it(`${command}: a new file is written; a link to a regular file replaces the file it points to, with --force`, async () => {
      const fresh = path.join(dest, `${command}-new.out`);
      const run = await runCli(writeArgs(command, fresh, false));
      expect(run.code, describeRun(run)).toBe(0);
      expect(readFileSync(fresh, 'utf8')).toMatch(written);
      const file = path.join(dest, `${command}-pointed.out`);
      const link = path.join(dest, `${command}-link-to-file`);
      writeFileSync(file, 'old\n');
      symlinkSync(file, link);
      expectRefused(await runCli(writeArgs(command, link, false)), command, /exists \(--force replaces it\)$/);
      const forced = await runCli(writeArgs(command, link, true));
      expect(forced.code, describeRun(forced)).toBe(0);
      expect(readlinkSync(link)).toBe(file);
      expect(readFileSync(file, 'utf8')).toMatch(written);
    });
  }
});

describe('--to inside OUT or inside an input of OUT is refused, and the evidence keeps every byte', () => {
  const cases: Array<[string, () => string, RegExp]> = [
    ['a new file in the fleet folder', () => path.join(fleet, 'new.csv'), /is inside .*\/fleet, an input of a load of /],
    ['an evidence file of the fleet folder', () => path.join(fleet, 'README.md'), /is inside .*\/fleet, an input /],
    ['a file in a host image of the fleet', () => path.join(fleet, 'lnx-u01', 'new.csv'), /is inside .*\/fleet, an input /],
    ['a file in a --host image folder', () => path.join(imageDir, 'new.csv'), /is inside .*\/image-extra, an input /],
    ['an archive image', () => archive, /is inside .*\/image-arch\.tar, an input /],
    ['the fleet through a link', () => path.join(work, 'link-to-fleet', 'new.csv'), /is inside .*\/fleet, an input /],
    ['OUT', () => path.join(out, 'new.csv'), /is inside the warehouse /],
  ];
  for (const command of ['export', 'report'] as const) {
    for (const [what, to, why] of cases) {
      it(`${command} --force --to ${what}`, async () => {
        if (!existsSync(path.join(work, 'link-to-fleet'))) symlinkSync(fleet, path.join(work, 'link-to-fleet'));
        const before = { fleet: snapshotTree(fleet), image: snapshotTree(imageDir), archive: sha(archive) };
        const target = to();
        expectRefused(await runCli(writeArgs(command, target, true)), command, why, path.dirname(target));
        expect({ fleet: snapshotTree(fleet), image: snapshotTree(imageDir), archive: sha(archive) }).toEqual(before);
        if (target.endsWith('new.csv')) expect(existsSync(target)).toBe(false);
      });
    }
  }
});

describe.skipIf(process.platform !== 'linux')('a node that appears at --to while the output is written is not replaced', () => {
  const plants: Array<[string, (p: string) => void, boolean, RegExp, boolean]> = [
    ['a FIFO', mkfifo, true, /: a FIFO appeared at --to while the \w+ was written; nothing was replaced$/, false],
    [
      'a character device',
      (p) => expect(tryMknod(p)).toBeNull(),
      true,
      /: a character device appeared at --to while the \w+ was written; nothing was replaced$/,
      true,
    ],
    [
      'a regular file (no --force)',
      (p) => writeFileSync(p, 'planted\n'),
      false,
      /: a file appeared at --to while the \w+ was written; nothing was replaced \(--force replaces it\)$/,
      false,
    ],
  ];
  for (const command of ['export', 'report'] as const) {
    for (const [what, plant, force, why, device] of plants) {
      it.skipIf(device && mknodSkip !== null)(`${command}${force ? ' --force' : ''}: ${what}`, async () => {
        const folder = path.join(dest, `race-${command}-${what.replace(/\W+/g, '-')}`);
        mkdirSync(folder);
        const target = path.join(folder, 'target');
        let pid: number | undefined;
        const running = runCli(writeArgs(command, target, force), {
          env: { CLINETRAIL_TEST_STOP_AT: 'output-staged', CLINETRAIL_TEST_STOP_SIGNAL: 'SIGSTOP' },
          onSpawn: (child) => {
            pid = child.pid;
          },
          timeoutMs: 120_000,
        });
        let before = '';
        try {
          await waitUntilStopped(pid!);
          expect(existsSync(target), 'nothing at --to yet').toBe(false);
          plant(target);
          before = identity(target);
        } finally {
          process.kill(pid!, 'SIGCONT'); // whatever failed above, the held process goes on and ends
        }
        expectRefused(await running, command, why, folder);
        expect(identity(target)).toBe(before);
        if (what.startsWith('a regular file')) expect(readFileSync(target, 'utf8')).toBe('planted\n');
      });
    }
  }
});
