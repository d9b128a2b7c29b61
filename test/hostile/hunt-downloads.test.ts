/**
 * Issue 25, point 1: a Velociraptor server's hunt download, the usual way a fleet arrives (one zip, a
 * folder per client), zipped and unpacked, built member for member as Velociraptor writes it
 * (fixtures/velociraptor/README.md). Each client is a host of its own, named by its client_info.json
 * (`hostname`, lower case in a server export), else by its `<Hostname>-<ClientId>` folder, its paths
 * decoded, and its rows exactly those of the same home loaded alone as a folder. The fleet is not changed
 * by a byte.
 */
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HuntClient, huntDownload, STAMP, stampedCopy, uploadsOf, writeTree, zipBytes } from '../helpers/velociraptor.js';
import { assertBuilt, describeRun, lit, query, runCli, snapshotTree, workDir } from './harness.js';

const work = workDir('hunts');
afterAll(() => rmSync(work, { recursive: true, force: true }));

const demo = path.join(work, 'demo');

/** The clients of the hunt: two the server knows by name, one it does not (named by its folder). */
function clients(): HuntClient[] {
  return [
    {
      hostname: 'VR-WIN01',
      clientId: 'C.1111aaaa',
      uploads: uploadsOf(path.join(demo, 'WIN-ALICE01', 'C', 'Users', 'alice'), 'C:/Users/alice'),
    },
    { hostname: 'VR-LNX02', clientId: 'C.2222bbbb', uploads: uploadsOf(path.join(demo, 'lnx-u01', 'home', 'u'), 'home/u') },
    {
      hostname: 'VR-MAC03',
      clientId: 'C.3333cccc',
      uploads: uploadsOf(path.join(demo, 'mac-bob', 'Users', 'bob'), 'Users/bob'),
      unnamed: true,
    },
  ];
}

/** The host each client loads as, and the home of its uploads as a plain folder image. */
const HOSTS: Array<[host: string, folder: string, home: string[], from: string[]]> = [
  ['VR-LNX02', 'VR-LNX02-C.2222bbbb', ['home', 'u'], ['lnx-u01', 'home', 'u']],
  ['VR-MAC03-C.3333cccc', 'VR-MAC03-C.3333cccc', ['Users', 'bob'], ['mac-bob', 'Users', 'bob']],
  ['VR-WIN01', 'VR-WIN01-C.1111aaaa', ['C:', 'Users', 'alice'], ['WIN-ALICE01', 'C', 'Users', 'alice']],
];

/** Rows of a host, every column but the host's name and the row_id that hashes it, in a stable order. */
const rowsOf = (out: string, host: string) =>
  query(out, `select * exclude (row_id, host) from raw_events where host = ${lit(host)} order by store, source_file, file_row`);

const refOut = path.join(work, 'ref-out');

beforeAll(async () => {
  assertBuilt();
  stampedCopy('', demo);
  const members = huntDownload('H.C1234', clients(), STAMP);
  mkdirSync(path.join(work, 'zipped'));
  writeFileSync(path.join(work, 'zipped', 'H.C1234.zip'), await zipBytes(members));
  writeTree(path.join(work, 'unpacked', 'HUNT1'), members);
  // each home alone, as a plain folder image named as its client
  const reference = path.join(work, 'reference');
  for (const [host, , home, from] of HOSTS)
    cpSync(path.join(demo, ...from), path.join(reference, host, ...home), { recursive: true, preserveTimestamps: true });
  const ref = await runCli(['load', '--fleet', reference, '--out', refOut]);
  expect(ref.code, describeRun(ref)).toBe(0);
}, 300_000);

describe.each([
  ['zipped', 'H.C1234.zip'],
  ['unpacked', 'HUNT1'],
])('a hunt download of three clients, %s', (how, image) => {
  const fleet = path.join(work, how);
  const out = path.join(work, `${how}-out`);
  let before: Record<string, string>;
  let run: Awaited<ReturnType<typeof runCli>>;

  beforeAll(async () => {
    before = snapshotTree(fleet);
    run = await runCli(['load', '--fleet', fleet, '--out', out]);
  }, 300_000);

  it('loads each client as a host of its own, named by its client_info.json or else its folder', async () => {
    expect(run.code, describeRun(run)).toBe(0);
    expect(await query(out, 'select host, hostname, collection, image_path, status from hosts order by host')).toEqual(
      HOSTS.map(([host, folder]) => [host, host, folder, path.join(fleet, image), 'loaded']),
    );
    expect(run.stdout).toMatch(/^loaded 3 host\(s\): /);
  });

  it('gives each client exactly the rows of its home loaded alone, paths decoded', async () => {
    for (const [host, , home] of HOSTS) {
      const rows = await rowsOf(out, host);
      expect(rows.length, host).toBeGreaterThan(0);
      expect(rows, host).toEqual(await rowsOf(refOut, host));
      expect(await query(out, `select distinct home from raw_events where host = ${lit(host)}`), host).toEqual([
        [home.join('/')],
      ]);
    }
    // files names each member as stored: the client's folder, the accessor, the escaped path
    const members = await query(out, `select source_file, archive_member from files where host = 'VR-LNX02' order by all`);
    expect(members.length).toBeGreaterThan(3);
    for (const [file, member] of members as Array<[string, string]>)
      expect(member).toBe(`VR-LNX02-C.2222bbbb/uploads/auto/home/u/%2Ecline/${file.slice('home/u/.cline/'.length)}`);
  });

  it('changes no byte of the fleet', () => {
    expect(snapshotTree(fleet)).toEqual(before);
  });
});

describe('a hunt download given a name (--host NAME=PATH)', () => {
  it('names each client NAME/<its own name>', async () => {
    const out = path.join(work, 'named-out');
    const run = await runCli(['load', '--host', `HUNT=${path.join(work, 'zipped', 'H.C1234.zip')}`, '--out', out]);
    expect(run.code, describeRun(run)).toBe(0);
    expect(await query(out, 'select host, collection from hosts order by host')).toEqual(
      HOSTS.map(([host, folder]) => [`HUNT/${host}`, folder]),
    );
  });
});
