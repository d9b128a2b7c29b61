/**
 * Issue 25, point 3: one bad member never costs a host. Archive members whose names would leave the image
 * (`..`, an absolute path, a drive letter, a NUL, a component longer than a file name may be) are skipped
 * one by one, each with a `parser:` row of the host's `discovery` partition and a `files` entry naming the
 * member as stored, and the rest of the archive loads: in a zip (where yauzl failed the whole archive on
 * the first such name), in a tarball, and once decoded in a Velociraptor collection (`%2E%2E%2F`, `%00`,
 * skipped without a word before). The fleet is not changed by a byte.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Member, offlineCollection, STAMP, stampedCopy, uploadsOf, zipBytes } from '../helpers/velociraptor.js';
import { assertBuilt, describeRun, filesUnder, lit, query, runCli, snapshotTree, workDir } from './harness.js';

const work = workDir('bad-members');
afterAll(() => rmSync(work, { recursive: true, force: true }));

const fleet = path.join(work, 'fleet');
const out = path.join(work, 'out');
const refOut = path.join(work, 'ref-out');
const LONG = `home/u/${'x'.repeat(300)}.json`;

/** Each archive of the fleet: its host, and the bad member names it holds, as stored. */
const CASES: Array<[host: string, bad: string[]]> = [
  ['one-traversal', ['../evil.json']],
  ['every-kind', ['../evil.json', '/etc/passwd', 'C:/Windows/win.ini', 'home/u/a\0b.json', LONG]],
  ['tarball', ['../evil.json', '/etc/passwd', 'C:/Windows/win.ini']],
  ['vr-encoded', ['uploads/auto/home/u/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd', 'uploads/auto/home/u/a%00b.json']],
];

/**
 * A zip of `members` and of the bad names: yazl refuses to write those, so each is written under a
 * stand-in of the same length and put back in the local header and the central directory.
 */
async function zipWithNames(members: Member[], bad: string[]): Promise<Buffer> {
  const standIns = bad.map((name, i) => `${String.fromCharCode(0x41 + i)}`.repeat(Buffer.byteLength(name)));
  const zip = await zipBytes([...members, ...standIns.map((name) => ({ name, data: Buffer.from('{}\n'), mtime: STAMP }))]);
  bad.forEach((name, i) => {
    const from = Buffer.from(standIns[i]);
    for (let at = zip.indexOf(from); at !== -1; at = zip.indexOf(from, at + 1)) Buffer.from(name).copy(zip, at);
  });
  return zip;
}

/** A ustar header and body for one file. */
function tarFile(name: string, body: Buffer): Buffer {
  const h = Buffer.alloc(512);
  const field = (at: number, len: number, text: string) => h.write(text, at, len, 'utf8');
  field(0, 100, name);
  field(100, 8, '0000644\0');
  field(108, 8, '0000000\0');
  field(116, 8, '0000000\0');
  field(124, 12, `${body.length.toString(8).padStart(11, '0')}\0`);
  field(
    136,
    12,
    `${Math.trunc(STAMP.getTime() / 1000)
      .toString(8)
      .padStart(11, '0')}\0`,
  );
  field(148, 8, '        ');
  field(156, 1, '0');
  field(257, 6, 'ustar\0');
  field(263, 2, '00');
  field(
    148,
    8,
    `${h
      .reduce((n, b) => n + b, 0)
      .toString(8)
      .padStart(6, '0')}\0 `,
  );
  const padded = Buffer.alloc(Math.ceil(body.length / 512) * 512);
  body.copy(padded);
  return Buffer.concat([h, padded]);
}

/** Rows of a host's stores, every column but the host's name and the row_id that hashes it. */
const storeRows = (o: string, host: string) =>
  query(
    o,
    `select * exclude (row_id, host) from raw_events where host = ${lit(host)} and store <> 'discovery' order by store, source_file, file_row`,
  );

let before: Record<string, string>;
let run: Awaited<ReturnType<typeof runCli>>;

beforeAll(async () => {
  assertBuilt();
  const home = stampedCopy('lnx-u01/home', path.join(work, 'home'));
  const plain: Member[] = filesUnder(home).map((rel) => ({
    name: `home/${rel}`,
    data: readFileSync(path.join(home, rel)),
    mtime: STAMP,
  }));
  mkdirSync(fleet);
  for (const [host, bad] of CASES) {
    if (host === 'tarball') {
      const files = [...plain.map((m) => tarFile(m.name, m.data)), ...bad.map((name) => tarFile(name, Buffer.from('{}\n')))];
      writeFileSync(path.join(fleet, `${host}.tar`), Buffer.concat([...files, Buffer.alloc(1024)]));
    } else if (host === 'vr-encoded') {
      const collection = offlineCollection(host, uploadsOf(path.join(home, 'u'), 'home/u'), STAMP);
      writeFileSync(path.join(fleet, 'collection.zip'), await zipWithNames(collection, bad));
    } else writeFileSync(path.join(fleet, `${host}.zip`), await zipWithNames(plain, bad));
  }
  const reference = path.join(work, 'reference');
  cpSync(home, path.join(reference, 'ref', 'home'), { recursive: true, preserveTimestamps: true });
  const ref = await runCli(['load', '--fleet', reference, '--out', refOut]);
  expect(ref.code, describeRun(ref)).toBe(0);
  before = snapshotTree(fleet);
  run = await runCli(['load', '--fleet', fleet, '--out', out]);
}, 300_000);

describe('archive members whose names leave the image', () => {
  it('cost only themselves: every host loads', async () => {
    expect(run.code, describeRun(run)).toBe(0);
    expect(await query(out, 'select host, status from hosts order by host')).toEqual(
      CASES.map(([host]) => [host, 'loaded']).sort((a, b) => (a[0] < b[0] ? -1 : 1)),
    );
  });

  it("give each host its home's rows, as the home alone gives them", async () => {
    const reference = await storeRows(refOut, 'ref');
    expect(reference.length).toBeGreaterThan(10);
    for (const [host] of CASES) expect(await storeRows(out, host), host).toEqual(reference);
  });

  it('are one parser row each, naming the member as stored, and a files entry', async () => {
    for (const [host, bad] of CASES) {
      const archive = path.join(
        fleet,
        host === 'tarball' ? 'tarball.tar' : host === 'vr-encoded' ? 'collection.zip' : `${host}.zip`,
      );
      const rows = (await query(
        out,
        `select text from raw_events where host = ${lit(host)} and store = 'discovery' order by text`,
      )) as string[][];
      expect(rows.length, host).toBe(bad.length);
      for (const name of bad)
        expect(
          rows.filter(([text]) =>
            text.includes(`: ${name.length > 255 ? JSON.stringify(name).slice(0, 8) : JSON.stringify(name)}`),
          ),
          `${host}: ${JSON.stringify(name)}`,
        ).toHaveLength(1);
      const files = await query(
        out,
        `select archive, archive_member, count_errors::INTEGER from files where host = ${lit(host)} and store = 'discovery' order by 2`,
      );
      expect(files, host).toEqual(
        bad
          .map((name) => [archive, name, 1])
          .sort((a, b) => Buffer.compare(Buffer.from(a[1] as string), Buffer.from(b[1] as string))),
      );
    }
  });

  it('say why: leaving the image, absolute, drive letter, NUL, too long, once decoded', async () => {
    const why = await query(
      out,
      `select text from raw_events where host in ('every-kind', 'vr-encoded') and store = 'discovery'`,
    );
    const texts = why.map(([t]) => /archive member skipped \((.*?)\): "/s.exec(String(t))?.[1]).sort();
    expect(texts).toEqual(
      [
        'a path component longer than 255 bytes',
        'absolute path',
        'drive-letter path',
        'its name holds a NUL byte',
        'its name holds a NUL byte once decoded',
        'path leaves the image (..)',
        'path leaves the image (..) once decoded',
      ].sort(),
    );
  });

  it('changes no byte of the fleet', () => {
    expect(snapshotTree(fleet)).toEqual(before);
  });
});
