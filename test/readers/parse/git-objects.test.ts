/**
 * The git modules under readers/parse/ (git-*.ts) on bytes written here, and the checkpoints reader on
 * hostile repositories written object by object: a tree nested far deeper than any recursion may go, a
 * tree whose paths multiply past the diff's bound, a big blob whose header alone is read.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { readCheckpoints } from '../../../src/readers/checkpoints/reader.js';
import { applyDelta } from '../../../src/readers/parse/git-delta.js';
import { looseObjectType } from '../../../src/readers/parse/git-loose.js';
import { parseCommit, parseTree } from '../../../src/readers/parse/git-object.js';
import { readPackIndex } from '../../../src/readers/parse/git-pack-index.js';
import { parseConfig, parsePackedRefs, parseReflogLine, parseRefFile } from '../../../src/readers/parse/git-refs.js';
import { collect, fixture, listFiles, makeSource } from '../../helpers/source.js';

const tmpDirs: string[] = [];
afterAll(() => {
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-git-'));
  tmpDirs.push(dir);
  return dir;
}

/** Writes a loose object as git does (zlib of `<type> <size>\0<content>`) and returns its id. */
function putObject(gitDir: string, type: string, content: Buffer): string {
  const body = Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]);
  const oid = createHash('sha1').update(body).digest('hex');
  mkdirSync(path.join(gitDir, 'objects', oid.slice(0, 2)), { recursive: true });
  writeFileSync(path.join(gitDir, 'objects', oid.slice(0, 2), oid.slice(2)), deflateSync(body));
  return oid;
}

const PACK_TYPES: Record<string, number> = { commit: 1, tree: 2, blob: 3 };

/**
 * Writes objects as one pack and its version 2 index (gitformat-pack), and returns their ids: one file
 * for thousands of objects, as `git gc` would leave them. A type `ref-delta:<base id>` writes the content
 * as a REF_DELTA on that base (its id in the index is then the hash of the delta, not of a result).
 */
function putPack(gitDir: string, objects: [type: string, content: Buffer][]): string[] {
  const parts: Buffer[] = [Buffer.from('PACK'), Buffer.from([0, 0, 0, 2]), Buffer.alloc(4)];
  parts[2].writeUInt32BE(objects.length);
  let offset = 12;
  const entries = objects.map(([type, content]) => {
    const oid = createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');
    const base = type.startsWith('ref-delta:') ? Buffer.from(type.slice(10), 'hex') : Buffer.alloc(0);
    const head = [((base.length > 0 ? 7 : PACK_TYPES[type]) << 4) | (content.length & 15)];
    for (let size = content.length >>> 4; size > 0; size >>>= 7) {
      head[head.length - 1] |= 0x80;
      head.push(size & 0x7f);
    }
    const bytes = Buffer.concat([Buffer.from(head), base, deflateSync(content)]);
    parts.push(bytes);
    const entry = { oid, offset };
    offset += bytes.length;
    return entry;
  });
  const body = Buffer.concat(parts);
  const packSum = createHash('sha1').update(body).digest();
  const sorted = [...entries].sort((a, b) => (a.oid < b.oid ? -1 : 1));
  const fanout = Buffer.alloc(1024);
  for (const e of sorted) {
    for (let b = Number.parseInt(e.oid.slice(0, 2), 16); b < 256; b++)
      fanout.writeUInt32BE(fanout.readUInt32BE(b * 4) + 1, b * 4);
  }
  const offsets = Buffer.alloc(4 * sorted.length);
  sorted.forEach((e, i) => {
    offsets.writeUInt32BE(e.offset, i * 4);
  });
  const idx = Buffer.concat([
    Buffer.from([0xff, 0x74, 0x4f, 0x63, 0, 0, 0, 2]),
    fanout,
    ...sorted.map((e) => Buffer.from(e.oid, 'hex')),
    Buffer.alloc(4 * sorted.length), // CRC-32s, not read
    offsets,
    packSum,
  ]);
  const name = path.join(gitDir, 'objects', 'pack', `pack-${packSum.toString('hex')}`);
  mkdirSync(path.dirname(name), { recursive: true });
  writeFileSync(`${name}.pack`, Buffer.concat([body, packSum]));
  writeFileSync(`${name}.idx`, Buffer.concat([idx, createHash('sha1').update(idx).digest()]));
  return entries.map((e) => e.oid);
}

const idOf = (type: string, content: Buffer) =>
  createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');

function treeBytes(entries: [mode: string, name: string, oid: string][]): Buffer {
  return Buffer.concat(
    entries.map(([mode, name, oid]) => Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.from(oid, 'hex')])),
  );
}

function commitBytes(tree: string, seconds: number, message: string): Buffer {
  const who = `Cline Checkpoint <checkpoint@cline.bot> ${seconds} +0000`;
  return Buffer.from(`tree ${tree}\nauthor ${who}\ncommitter ${who}\n\n${message}\n`);
}

/** An image whose ~/.cline/data holds one shadow repository made by `plant` (given its .git folder); the reader's rows of it. */
async function readPlanted(plant: (gitDir: string) => void) {
  const img = tempDir();
  const root = path.join(img, 'home', 'u', '.cline', 'data');
  const gitDir = path.join(root, 'checkpoints', '1', '.git');
  mkdirSync(gitDir, { recursive: true });
  plant(gitDir);
  return collect(readCheckpoints, makeSource({ store: 'checkpoints', imageRoot: img, root }));
}

describe('hostile shadow repositories', () => {
  it('walks a tree nested 20,000 levels deep without recursion', async () => {
    const rows = await readPlanted((gitDir) => {
      const blob = Buffer.from('x');
      const objects: [string, Buffer][] = [['blob', blob]];
      let tree = treeBytes([['100644', 'f', idOf('blob', blob)]]);
      objects.push(['tree', tree]);
      for (let i = 0; i < 20_000; i++) {
        tree = treeBytes([['40000', 'd', idOf('tree', tree)]]);
        objects.push(['tree', tree]);
      }
      objects.push(['commit', commitBytes(idOf('tree', tree), 1782900000, 'checkpoint-1-1782900000000')]);
      putPack(gitDir, objects.reverse());
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'checkpoint', session_id: '1782900000000', timestamp_utc: 1782900000000 });
    expect(rows[0].text).toContain(`1 path changed: A ${'d/'.repeat(20_000)}f (commit `);
  });

  it('stops counting the paths of a tree that multiplies them, at its bound', async () => {
    const rows = await readPlanted((gitDir) => {
      const blob = putObject(gitDir, 'blob', Buffer.from('x'));
      const name = (prefix: string, i: number) => `${prefix}${String(i).padStart(4, '0')}`;
      const wide = putObject(gitDir, 'tree', treeBytes(Array.from({ length: 1000 }, (_, i) => ['100644', name('f', i), blob])));
      const root = putObject(gitDir, 'tree', treeBytes(Array.from({ length: 1100 }, (_, i) => ['40000', name('d', i), wide])));
      putObject(gitDir, 'commit', commitBytes(root, 1782900000, 'initial commit'));
    });
    expect(rows).toHaveLength(1);
    expect(rows[0].text).toMatch(/^checkpoint: at least 99\d{4} paths changed: A d0000\/f0000, A d0000\/f0001, /);
    expect(rows[0].text).toContain(' (+99');
    expect(rows[0].text).toContain('(the walk stopped at its bound of tree entries)');
  });

  it('reports the first 100 faults of one pack one by one, and counts the rest', async () => {
    let pack = '';
    const rows = await readPlanted((gitDir) => {
      const missing = 'e'.repeat(40);
      const deltas = Array.from({ length: 150 }, (_, i): [string, Buffer] => [`ref-delta:${missing}`, Buffer.from([1, 1, 1, i])]);
      const [first] = putPack(gitDir, deltas);
      pack = listFiles(gitDir).find((f) => f.endsWith('.pack')) as string;
      expect(first).toMatch(/^[0-9a-f]{40}$/);
    });
    const rel = pack.slice(pack.indexOf('home/u/'));
    expect(rows).toHaveLength(101);
    expect(rows.every((r) => r.kind === 'parser' && r.source_file === rel)).toBe(true);
    expect(rows[0].text).toBe(`parser: ${rel} line 1: object ${'e'.repeat(40)} not found`);
    expect(rows.slice(0, 100).map((r) => r.source_line)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(rows[100].text).toBe(`parser: ${rel}: 50 more objects not read for faults of this file`);
  });

  it('keeps a commit whose committer line is malformed, at its author time, and says so', async () => {
    let oid = '';
    const rows = await readPlanted((gitDir) => {
      const tree = putObject(gitDir, 'tree', Buffer.alloc(0));
      const text = `tree ${tree}\nauthor A <a@x> 1782900000 +0000\ncommitter nobody at noon\n\ncheckpoint-1-2\n`;
      oid = putObject(gitDir, 'commit', Buffer.from(text));
    });
    const file = `home/u/.cline/data/checkpoints/1/.git/objects/${oid.slice(0, 2)}/${oid.slice(2)}`;
    expect(rows.map((r) => [r.source_file, r.kind, r.timestamp_utc, r.session_id, r.text])).toEqual([
      [
        file,
        'checkpoint',
        1782900000000,
        '2',
        `checkpoint: no path changed (commit ${oid}, root commit, message "checkpoint-1-2")`,
      ],
      [
        file,
        'parser',
        null,
        null,
        `parser: ${file}: commit ${oid}: committer line "nobody at noon" is not \`<name> <<email>> <seconds> <zone>\``,
      ],
    ]);
  });

  it('learns the type of a big loose object from its first bytes, and reads no further', () => {
    const gitDir = tempDir();
    const content = randomBytes(256 * 1024);
    const oid = putObject(gitDir, 'blob', content);
    const file = path.join(gitDir, 'objects', oid.slice(0, 2), oid.slice(2));
    expect(looseObjectType(file, oid)).toEqual({ ok: true, type: 'blob', size: content.length });
    const cut = readFileSync(file).subarray(0, 8192);
    writeFileSync(file, cut);
    expect(looseObjectType(file, oid)).toEqual({ ok: true, type: 'blob', size: content.length });
  });

  it('refuses a small loose object whose content is not what its name says', () => {
    const gitDir = tempDir();
    const oid = putObject(gitDir, 'blob', Buffer.from('one'));
    const other = putObject(gitDir, 'blob', Buffer.from('two'));
    const file = path.join(gitDir, 'objects', oid.slice(0, 2), oid.slice(2));
    writeFileSync(file, readFileSync(path.join(gitDir, 'objects', other.slice(0, 2), other.slice(2))));
    expect(looseObjectType(file, oid)).toEqual({ ok: false, message: `blob content hashes to ${other}, not to its name` });
  });
});

describe('pack index', () => {
  const idx = fixture(
    'checkpoints',
    'img/home/u/.cline/data/checkpoints/1656630246/dot-git/objects/pack/pack-db625d19cad4691322c963a2f0eaa5f2211bbafb.idx',
  );

  it('reads version 1 as version 2 (the same index, rewritten in the old layout)', () => {
    const v2 = readPackIndex(idx);
    const fanout = Buffer.alloc(1024);
    for (let i = 0; i < v2.count; i++) {
      for (let b = v2.ids[i * 20]; b < 256; b++) fanout.writeUInt32BE(fanout.readUInt32BE(b * 4) + 1, b * 4);
    }
    const entries = Buffer.concat(
      Array.from({ length: v2.count }, (_, i) => {
        const entry = Buffer.alloc(24);
        entry.writeUInt32BE(v2.offsets[i], 0);
        v2.ids.copy(entry, 4, i * 20, i * 20 + 20);
        return entry;
      }),
    );
    const body = Buffer.concat([fanout, entries, Buffer.from(v2.packChecksum, 'hex')]);
    const v1File = path.join(tempDir(), 'pack-1.idx');
    writeFileSync(v1File, Buffer.concat([body, createHash('sha1').update(body).digest()]));
    expect(readPackIndex(v1File)).toEqual(v2);
  });

  it('refuses an index whose SHA-1 trailer does not match', () => {
    const bytes = readFileSync(idx);
    bytes[bytes.length >> 1] ^= 1;
    const file = path.join(tempDir(), 'pack-1.idx');
    writeFileSync(file, bytes);
    expect(() => readPackIndex(file)).toThrow('git pack index: SHA-1 trailer does not match its contents');
  });
});

describe('applyDelta', () => {
  const base = Buffer.from('hello world');
  it('copies from the base and inserts its own bytes', () => {
    // sizes 11 -> 18; copy 6 bytes at 0; insert 7 bytes; copy 5 bytes at 6
    const delta = Buffer.from([11, 18, 0x90, 6, 7, ...Buffer.from('there, '), 0x91, 6, 5]);
    expect(applyDelta(base, delta).toString()).toBe('hello there, world');
  });
  it.each([
    ['a base of another size', [12, 1, 1, 0x41], 'git delta: made for a base of 12 bytes, not 11'],
    ['a copy past the base', [11, 5, 0x91, 8, 5], 'git delta: copy out of bounds'],
    ['the reserved instruction', [11, 1, 0], 'git delta: reserved instruction 0'],
    ['fewer bytes than it says', [11, 5, 0x90, 2], 'git delta: made 2 bytes, its header says 5'],
  ])('refuses %s', (_name, bytes, message) => {
    expect(() => applyDelta(base, Buffer.from(bytes))).toThrow(message);
  });
});

describe('objects and refs as text', () => {
  it('reads a commit with a signature header and two parents', () => {
    const [a, b, t] = ['a'.repeat(40), 'b'.repeat(40), 'c'.repeat(40)];
    const text = `tree ${t}\nparent ${a}\nparent ${b}\nauthor A <a@x> 1782900000 +0200\ncommitter C D <c@x> 1782900060 -0130\ngpgsig -----BEGIN PGP SIGNATURE-----\n tree ${a}\n -----END PGP SIGNATURE-----\n\nmerge\n\nbody\n`;
    expect(parseCommit(Buffer.from(text))).toEqual({
      tree: t,
      parents: [a, b],
      author: { name: 'A', email: 'a@x', timeMs: 1782900000000, zone: '+0200' },
      committer: { name: 'C D', email: 'c@x', timeMs: 1782900060000, zone: '-0130' },
      message: 'merge\n\nbody',
      badHeaders: [],
    });
    expect(() => parseCommit(Buffer.from(`parent ${a}\n\nno tree\n`))).toThrow('git commit: no tree line');
  });

  it('refuses a tree entry cut short', () => {
    const entry = Buffer.concat([Buffer.from('100644 a\0'), Buffer.alloc(20, 1)]);
    expect(parseTree(entry)).toEqual([{ mode: '100644', key: 'a', oid: '01'.repeat(20), isTree: false }]);
    expect(() => parseTree(entry.subarray(0, 25))).toThrow('git tree: entry at byte 0 is cut short');
  });

  it('reads config values with quotes, escapes and comments, the last one winning', () => {
    const text = [
      '[core]',
      '\tworktree = C:\\\\Users\\\\w\\\\src\\\\api',
      '[remote "Origin"]',
      '\turl = "a b ; c" ; comment',
      '[core]',
      '\tbare',
      '\tWorkTree = /home/u/x  # comment',
      '\tbroken = "no end',
    ].join('\n');
    const { values, badLines } = parseConfig(text);
    expect(Object.fromEntries(values)).toEqual({
      'core.worktree': '/home/u/x',
      'remote.Origin.url': 'a b ; c',
      'core.bare': 'true',
    });
    expect(badLines).toEqual([8]);
    expect(parseConfig('[core]\n\tworktree = C:\\\\Users\\\\w').values.get('core.worktree')).toBe('C:\\Users\\w');
  });

  it('reads HEAD, packed-refs and reflog lines', () => {
    const id = 'f'.repeat(40);
    expect(parseRefFile('ref: refs/heads/master\n')).toEqual({ target: 'refs/heads/master' });
    expect(parseRefFile(`${id}\n`)).toEqual({ oid: id });
    expect(parseRefFile('garbage')).toBe(null);
    expect(parsePackedRefs(`# pack-refs with: peeled fully-peeled sorted\n${id} refs/tags/t\n^${'e'.repeat(40)}\nbad\n`)).toEqual(
      {
        refs: [
          { name: 'refs/tags/t', oid: id },
          { name: 'refs/tags/t^{}', oid: 'e'.repeat(40) },
        ],
        badLines: [4],
      },
    );
    expect(
      parseReflogLine(
        `${'0'.repeat(40)} ${id} Cline Checkpoint <checkpoint@cline.bot> 1782900000 +0000\tcommit (initial): initial commit`,
      ),
    ).toEqual({
      old: '0'.repeat(40),
      new: id,
      who: { name: 'Cline Checkpoint', email: 'checkpoint@cline.bot', timeMs: 1782900000000, zone: '+0000' },
      message: 'commit (initial): initial commit',
    });
    expect(parseReflogLine(`${id} ${id} nobody 12 +0000\tx`)).toBe(null);
  });
});
