/**
 * Issue 13, part 1: host images inside archives, read in place. A fleet of one folder image, one
 * Velociraptor-style zip (ZIP64 forced, paths escaped as the collector escapes them: `C%3A`, `%2Ecline`,
 * with a client_info.json Hostname), one `.tar.gz`, one unpacked Velociraptor collection folder and one
 * truncated zip, all made here from the demo fleet's homes. Their rows equal those of the same homes
 * unpacked as plain folders; the fleet is not changed by a byte and nothing is written beside it; the
 * private temporary folder is empty afterwards; an unchanged archive is not opened again and a touched
 * one is read again.
 */
import {
  cpSync,
  createWriteStream,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as yazl from 'yazl';
import { REPO } from '../helpers/source.js';
import { uploadName } from '../helpers/velociraptor-layout.js';
import { assertBuilt, describeRun, filesUnder, lit, query, runCli, snapshotTree, workDir } from '../hostile/harness.js';

const work = workDir('archives');
const fleet = path.join(work, 'fleet');
const reference = path.join(work, 'reference');
const out = path.join(work, 'out');
const refOut = path.join(work, 'ref-out');
const tmp = path.join(work, 'tmp');
/** The demo fleet's homes copied, every file stamped at one even second: zip (DOS) times keep 2 s, tar 1 s. */
const demo = path.join(work, 'demo');
const STAMP = new Date('2026-10-01T00:00:00Z');
const VR_HOST = 'WIN-ALICE01-VR';

/** Every file under `dir` with its path below `prefix` (logical, `/` separated). */
function filesWithPrefix(dir: string, prefix: string): Array<[string, string]> {
  return filesUnder(dir).map((rel) => [path.join(dir, rel), `${prefix}/${rel}`]);
}

async function writeZip(
  file: string,
  members: Array<[string, string]>,
  extra: Record<string, string>,
  zip64: boolean,
): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const [name, text] of Object.entries(extra)) zip.addBuffer(Buffer.from(text), name, { forceZip64Format: zip64 });
  for (const [real, name] of members) zip.addFile(real, name, { forceZip64Format: zip64 });
  zip.end();
  await new Promise<void>((resolve, reject) => {
    zip.outputStream.pipe(createWriteStream(file)).on('close', resolve).on('error', reject);
  });
}

/** The logical files of the Velociraptor host: Alice's Windows home, with the Linux CLI's `.cline` in it. */
function aliceFiles(): Array<[string, string]> {
  return [
    ...filesWithPrefix(path.join(demo, 'WIN-ALICE01', 'C', 'Users', 'alice'), 'C:/Users/alice'),
    ...filesWithPrefix(path.join(demo, 'lnx-u01', 'home', 'u', '.cline'), 'C:/Users/alice/.cline'),
  ];
}

/** Rows of a host, every column but the host's name and the row_id that hashes it, in a stable order. */
const rowsOf = (o: string, host: string) =>
  query(o, `select * exclude (row_id, host) from raw_events where host = ${lit(host)} order by store, source_file, file_row`);

let before: Record<string, string>;
let firstRun: Awaited<ReturnType<typeof runCli>>;

beforeAll(async () => {
  assertBuilt();
  cpSync(path.join(REPO, 'fixtures', 'fleet'), demo, { recursive: true });
  for (const rel of filesUnder(demo)) utimesSync(path.join(demo, rel), STAMP, STAMP);
  mkdirSync(fleet, { recursive: true });
  mkdirSync(tmp);
  cpSync(path.join(demo, 'mac-bob'), path.join(fleet, 'mac-bob'), { recursive: true, preserveTimestamps: true });
  const alice = aliceFiles();
  await writeZip(
    path.join(fleet, 'alice-collection.zip'),
    alice.map(([real, logical]) => [real, uploadName(logical)]),
    { 'client_info.json': JSON.stringify({ Hostname: VR_HOST, OS: 'windows' }), 'collection_context.json': '{}' },
    true,
  );
  tar.c({ gzip: true, file: path.join(fleet, 'lnx-u01.tar.gz'), cwd: path.join(demo, 'lnx-u01'), sync: true }, ['home']);
  const whole = readFileSync(path.join(fleet, 'alice-collection.zip'));
  writeFileSync(path.join(fleet, 'broken.zip'), whole.subarray(0, Math.floor(whole.length / 2)));
  // an unpacked Velociraptor collection: its folders escaped on disk as in the zip
  const vr = path.join(fleet, 'vr-folder');
  for (const [real, logical] of filesWithPrefix(path.join(demo, 'lnx-u01', 'home'), 'home')) {
    const dest = path.join(vr, ...uploadName(logical).split('/'));
    mkdirSync(path.dirname(dest), { recursive: true });
    cpSync(real, dest, { preserveTimestamps: true });
  }
  writeFileSync(path.join(vr, 'client_info.json'), JSON.stringify({ Hostname: 'lnx-vr' }));
  // the same homes as plain folders
  for (const [real, logical] of alice)
    cpSync(real, path.join(reference, VR_HOST, ...logical.split('/')), { preserveTimestamps: true });
  cpSync(path.join(demo, 'lnx-u01'), path.join(reference, 'lnx-u01'), { recursive: true, preserveTimestamps: true });
  cpSync(path.join(demo, 'mac-bob'), path.join(reference, 'mac-bob'), { recursive: true, preserveTimestamps: true });

  before = snapshotTree(fleet);
  firstRun = await runCli(['load', '--fleet', fleet, '--out', out], { env: { TMPDIR: tmp } });
  const ref = await runCli(['load', '--fleet', reference, '--out', refOut]);
  expect(ref.code, describeRun(ref)).toBe(0);
}, 300_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a fleet of folders, zips and tarballs', () => {
  it('loads every host; the corrupt zip is one parser row and exit 5, not the end of the load', async () => {
    expect(firstRun.code, describeRun(firstRun)).toBe(5);
    expect(await query(out, 'select host, status from hosts order by host')).toEqual([
      [VR_HOST, 'loaded'],
      ['broken', 'unreadable'],
      ['lnx-u01', 'loaded'],
      ['lnx-vr', 'loaded'],
      ['mac-bob', 'loaded'],
    ]);
    // the summary names it as not read whole, apart from images that hold no Cline data
    expect(firstRun.stdout).toContain('; 1 image(s) not read whole (see the parser rows): broken');
    expect(firstRun.stdout).not.toContain('with no Cline data');
  });

  it("gives the zip's and the tarball's rows exactly as the same homes unpacked as folders", async () => {
    for (const host of [VR_HOST, 'lnx-u01', 'mac-bob']) {
      const rows = await rowsOf(out, host);
      expect(rows.length, host).toBeGreaterThan(0);
      expect(rows, host).toEqual(await rowsOf(refOut, host));
    }
  });

  it('decodes the Velociraptor paths: no uploads/ prefix, C: and .cline as on the host', async () => {
    expect(await query(out, `select distinct home from raw_events where host = ${lit(VR_HOST)} order by 1`)).toEqual([
      ['C:/Users/alice'],
    ]);
    const files = await query(
      out,
      `select source_file, archive, archive_member from files where host = ${lit(VR_HOST)} and store = 'sessions-db'`,
    );
    expect(files).toEqual([
      [
        'C:/Users/alice/.cline/data/db/sessions.db',
        path.join(fleet, 'alice-collection.zip'),
        'uploads/auto/C%3A/Users/alice/%2Ecline/data/db/sessions.db',
      ],
    ]);
  });

  it('finds and decodes an unpacked Velociraptor folder with %2Ecline', async () => {
    const vrRows = await rowsOf(out, 'lnx-vr');
    expect(vrRows.length).toBeGreaterThan(0);
    expect(vrRows).toEqual(await rowsOf(refOut, 'lnx-u01'));
    expect(
      await query(
        out,
        `select count(*)::INTEGER from files where host = 'lnx-vr' and archive_member like 'uploads/auto/home/u/\\%2Ecline/%' escape '\\'`,
      ),
    ).toEqual([[filesUnder(path.join(demo, 'lnx-u01', 'home')).length]]);
  });

  it('records the corrupt zip in files and as a discovery parser row naming it', async () => {
    const broken = path.join(fleet, 'broken.zip');
    const [[text]] = await query(out, `select text from raw_events where host = 'broken' and kind = 'parser'`);
    expect(String(text)).toContain(`archive not readable (${broken})`);
    expect(await query(out, `select store, archive, count_errors::INTEGER from files where host = 'broken'`)).toEqual([
      ['discovery', broken, 1],
    ]);
  });

  it('changes no byte of the fleet, writes nothing beside it, and leaves the private temporary folder empty', () => {
    expect(snapshotTree(fleet)).toEqual(before);
    expect(readdirSync(tmp)).toEqual([]);
  });
});

describe('an archive on the next load', () => {
  it('is not opened again when its size and mtime are unchanged, and is read again when touched', async () => {
    // the zip's bytes replaced by garbage of the same size and mtime: opening it would fail
    const zip = path.join(fleet, 'alice-collection.zip');
    const st = statSync(zip);
    writeFileSync(zip, Buffer.alloc(st.size, 0x41));
    // as seconds: a Date would round the mtime to the nearest ms, which can differ from the one recorded
    utimesSync(zip, st.atimeMs / 1000, st.mtimeMs / 1000);
    const second = await runCli(['load', '--fleet', fleet, '--out', out, '--log-format', 'json'], { env: { TMPDIR: tmp } });
    expect(second.code, describeRun(second)).toBe(5); // broken.zip, still
    const events = second.stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { event: string; host?: string; unchanged?: boolean; reason?: string });
    const written = events.filter((e) => e.event === 'partition' && !e.unchanged);
    expect(written).toEqual([]);
    expect(events.filter((e) => e.event === 'problem' && e.host === VR_HOST)).toEqual([]);

    const tarball = path.join(fleet, 'lnx-u01.tar.gz');
    const later = new Date(statSync(tarball).mtimeMs + 60_000);
    utimesSync(tarball, later, later);
    const third = await runCli(['load', '--fleet', fleet, '--out', out, '--log-format', 'json'], { env: { TMPDIR: tmp } });
    expect(third.code, describeRun(third)).toBe(5);
    const again = third.stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { event: string; host?: string; unchanged?: boolean; reason?: string })
      .filter((e) => e.event === 'partition' && !e.unchanged);
    expect(again.length).toBeGreaterThan(0);
    expect(new Set(again.map((e) => `${e.host} ${e.reason}`))).toEqual(new Set(['lnx-u01 inputs changed']));
    expect(await rowsOf(out, 'lnx-u01')).toEqual(await rowsOf(refOut, 'lnx-u01'));
    expect(readdirSync(tmp)).toEqual([]);
  });
});
