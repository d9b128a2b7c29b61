/**
 * Issue 25 point 7: one `home` per machine whatever collected it, and the home's `user` in events,
 * sessions, files and hosts.
 *
 * One Windows drive (alice's VS Code and `.cline`, bob's Cursor) collected three ways: a KAPE tree
 * (`C/Users/...`), the same zipped (KAPE's `--zip`), and a Velociraptor offline collection
 * (`uploads/auto/C%3A/Users/...`, test/helpers/velociraptor.ts). All three give `C:/Users/alice` and
 * `alice`, and the same rows; each `source_file` is still the path of the file in its image. Beside
 * them, the other layouts: Linux, macOS, a remote VS Code server and root's home (the demo fleet's
 * hosts), folders named `C` that are no KAPE drive, a home whose layout names no user, and an image that
 * is itself a home. Last, a warehouse holding parts an older clinetrail wrote, without `user`, still builds.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLUMNS } from '../../src/core/records.js';
import { partitionDir, partsDirOf } from '../../src/core/layout.js';
import { zipOf } from '../helpers/archive-files.js';
import { offlineCollection, STAMP, stampedCopy, uploadsOf, zipBytes } from '../helpers/velociraptor.js';
import { assertBuilt, describeRun, filesUnder, lit, load, query, runCli, snapshotTree, workDir } from './harness.js';

const work = workDir('home-user');
afterAll(() => rmSync(work, { recursive: true, force: true }));

const fleet = path.join(work, 'fleet');
const out = path.join(work, 'out');
/** The Windows drive collected three ways: its files as they lie below `C:`. */
const drive = path.join(work, 'drive-c');
const LNX_CLINE = 'lnx-u01/home/u/.cline';

/** The three collections of the one Windows machine. */
const WINDOWS_HOSTS = ['kape-tree', 'kape-zip', 'vr-collection'];

/** What each host's homes are, as planted below: (host, home, user). */
const HOMES: Array<[string, string, string | null]> = [
  ...WINDOWS_HOSTS.flatMap(
    (h): Array<[string, string, string]> => [
      [h, 'C:/Users/alice', 'alice'],
      [h, 'C:/Users/bob', 'bob'],
    ],
  ),
  ['lnx', 'home/u', 'u'],
  ['mac', 'Users/bob', 'bob'],
  // a remote VS Code server's store and `~/.cline` in dev's home, and root's own
  ['0042', 'home/dev', 'dev'],
  ['0042', 'root', 'root'],
  // no KAPE drive folder: `C` at the top holding no Windows profiles folder, `C` deeper in the image
  ['odd', 'C/home/dave', 'dave'],
  ['odd', 'mnt/disk1/C/Users/carol', 'carol'],
  // a home whose layout names no user
  ['odd', 'opt/ci-agent', null],
  // an image that is itself a home
  ['self-home', '', null],
];
const sortTuples = (rows: unknown[][]) => rows.map((r) => JSON.stringify(r)).sort();

let vrMembers: string[] = [];
let kapeZipMembers: string[] = [];
let fleetBefore: Record<string, string>;
let run: Awaited<ReturnType<typeof runCli>>;

beforeAll(async () => {
  assertBuilt();
  // the drive: alice's VS Code store (the demo's Windows host) and a `.cline`, bob's Cursor store
  stampedCopy('WIN-ALICE01/C', drive);
  stampedCopy(LNX_CLINE, path.join(drive, 'Users', 'alice', '.cline'));
  stampedCopy(
    'mac-bob/Users/bob/Library/Application Support/Cursor',
    path.join(drive, 'Users', 'bob', 'AppData', 'Roaming', 'Cursor'),
  );
  mkdirSync(fleet);
  cpSync(drive, path.join(fleet, 'kape-tree', 'C'), { recursive: true, preserveTimestamps: true });
  const kapeZip = Object.fromEntries(filesUnder(drive).map((rel) => [`C/${rel}`, readFileSync(path.join(drive, rel))]));
  kapeZipMembers = Object.keys(kapeZip);
  writeFileSync(path.join(fleet, 'kape-zip.zip'), await zipOf(kapeZip));
  const collection = offlineCollection('vr-collection', uploadsOf(drive, 'C:'), STAMP);
  vrMembers = collection.map((m) => m.name);
  writeFileSync(path.join(fleet, 'VR-0001.zip'), await zipBytes(collection));

  stampedCopy('lnx-u01', path.join(fleet, 'lnx'));
  stampedCopy('mac-bob', path.join(fleet, 'mac'));
  stampedCopy('0042', path.join(fleet, '0042'));
  for (const home of ['C/home/dave', 'mnt/disk1/C/Users/carol', 'opt/ci-agent'])
    stampedCopy(LNX_CLINE, path.join(fleet, 'odd', ...home.split('/'), '.cline'));
  stampedCopy(LNX_CLINE, path.join(fleet, 'self-home', '.cline'));

  fleetBefore = snapshotTree(fleet);
  run = await runCli(['load', '--fleet', fleet, '--out', out]);
}, 300_000);

describe('one Windows machine collected by KAPE (tree and zip) and by Velociraptor', () => {
  it('loads every host', () => {
    expect(run.code, describeRun(run)).toBe(0);
  });

  it('gives each home its one name and its user, in every layout', async () => {
    const seen = await query(out, `select distinct host, home, user from raw_events where store <> 'discovery'`);
    expect(sortTuples(seen)).toEqual(sortTuples(HOMES));
  });

  it('gives the same rows from each collection, but for the path of each file in its image', async () => {
    // a parser row names its file by its path in the image, as source_file does
    const rowsOf = (host: string) =>
      query(
        out,
        `select * exclude (row_id, host, source_file) replace (replace(text, 'C:/Users/', 'C/Users/') as text)
         from raw_events where host = ${lit(host)} order by store, replace(source_file, 'C:/', 'C/'), file_row`,
      );
    const kape = await rowsOf('kape-tree');
    expect(kape.length).toBeGreaterThan(100);
    expect(await rowsOf('kape-zip')).toEqual(kape);
    expect(await rowsOf('vr-collection')).toEqual(kape);
  });

  it('keeps source_file the path of the file in its image: the tree, the zip member, the decoded upload', async () => {
    const filesOf = async (host: string) =>
      (await query(out, `select source_file, archive_member from files where host = ${lit(host)} order by 1`)) as Array<
        [string, string | null]
      >;
    const tree = await filesOf('kape-tree');
    expect(tree.length).toBe(filesUnder(drive).length);
    for (const [file, member] of tree) {
      expect(file).toMatch(/^C\/Users\//);
      expect(existsSync(path.join(fleet, 'kape-tree', ...file.split('/'))), file).toBe(true);
      expect(member).toBeNull();
    }
    const zipped = await filesOf('kape-zip');
    expect(zipped.map(([file]) => file)).toEqual(tree.map(([file]) => file));
    for (const [file, member] of zipped) expect(member).toBe(file);
    expect(zipped.map(([, member]) => member).sort()).toEqual([...kapeZipMembers].sort());
    const vr = await filesOf('vr-collection');
    expect(vr.map(([file]) => file)).toEqual(tree.map(([file]) => file.replace(/^C\//, 'C:/')));
    for (const [, member] of vr) {
      expect(member).toMatch(/^uploads\/auto\/C%3A\/Users\//);
      expect(vrMembers).toContain(member);
    }
  });

  it('gives each session the user of its rows, the same for each collection', async () => {
    expect(
      await query(
        out,
        `select count(*)::INTEGER from sessions s join events e using (host, session_id, home) where s.user is distinct from e.user`,
      ),
    ).toEqual([[0]]);
    const sessionsOf = (host: string) =>
      query(out, `select session_id, home, user from sessions where host = ${lit(host)} order by session_id`);
    const kape = await sessionsOf('kape-tree');
    expect(new Set(kape.map((r) => r[2]))).toEqual(new Set(['alice', 'bob']));
    for (const host of WINDOWS_HOSTS.slice(1)) expect(await sessionsOf(host)).toEqual(kape);
    // odd's three homes hold copies of one `.cline`: each session is listed once, with the least home and its user
    const oneHomePerSession = HOMES.filter(([host, home]) => host !== 'odd' || home === 'C/home/dave');
    expect(sortTuples(await query(out, `select distinct host, home, user from sessions`))).toEqual(sortTuples(oneHomePerSession));
  });

  it('gives every event its user, the rows derived across records included', async () => {
    expect(sortTuples(await query(out, `select distinct host, home, user from events where store <> 'discovery'`))).toEqual(
      sortTuples(HOMES),
    );
    const derived = await query(
      out,
      `select distinct e.host, e.kind, e.user from events e anti join raw_events r using (row_id) where e.host = 'kape-tree' order by all`,
    );
    expect(derived).toEqual([
      ['kape-tree', 'model', 'alice'],
      ['kape-tree', 'permission', 'alice'],
    ]);
  });

  it('lists the users of each host in hosts, and each file user in files', async () => {
    const users = new Map<string, string[]>();
    for (const [host, , user] of HOMES) {
      const list = users.get(host) ?? [];
      if (user !== null && !list.includes(user)) list.push(user);
      users.set(host, list);
    }
    const expected = [...users].map(([host, list]) => [host, list.sort()]).sort((a, b) => (a[0] < b[0] ? -1 : 1));
    expect(await query(out, 'select host, users from hosts order by host')).toEqual(expected);
    expect(sortTuples(await query(out, `select distinct host, home, user from files where store <> 'discovery'`))).toEqual(
      sortTuples(HOMES),
    );
  });

  it('leaves the fleet as it was, byte for byte', () => {
    expect(snapshotTree(fleet)).toEqual(fleetBefore);
  });
});

describe('a warehouse holding parts an older clinetrail wrote, before `user`', () => {
  const oldFleet = path.join(work, 'old-fleet');
  const oldOut = path.join(work, 'old-out');

  /** Rewrites every part and inventory of one host's partitions as they were before `user` existed. */
  async function dropUserColumn(host: string): Promise<void> {
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    try {
      for (const store of readdirSync(path.join(oldOut, 'parquet', 'events', host))) {
        const parts = partsDirOf(partitionDir(oldOut, host, store));
        for (const name of readdirSync(parts).filter((n) => n.endsWith('.parquet'))) {
          const part = path.join(parts, name);
          const older = `${part}.older`;
          await conn.run(`copy (select * exclude (user) from read_parquet(${lit(part)})) to ${lit(older)} (format parquet)`);
          rmSync(part);
          cpSync(older, part);
          rmSync(older);
        }
        const records = partitionDir(oldOut, host, store);
        for (const name of readdirSync(records).filter((n) => n.startsWith('_files.'))) {
          const file = path.join(records, name);
          const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
          const older = lines.map((l) => {
            const { user: _user, ...rest } = JSON.parse(l) as Record<string, unknown>;
            return `${JSON.stringify(rest)}\n`;
          });
          writeFileSync(file, older.join(''));
        }
      }
    } finally {
      conn.closeSync();
      db.closeSync();
    }
  }

  it('builds: the older host, absent from the input and kept, has no user; the host read again has its', async () => {
    stampedCopy('lnx-u01', path.join(oldFleet, 'lnx'));
    stampedCopy('mac-bob', path.join(oldFleet, 'mac'));
    const first = await load(oldFleet, oldOut);
    expect(first.code, describeRun(first)).toBe(0);
    await dropUserColumn('mac');
    rmSync(path.join(oldFleet, 'mac'), { recursive: true });
    const again = await load(oldFleet, oldOut);
    expect(again.code, describeRun(again)).toBe(0);
    expect(await query(oldOut, 'select host, user, count(*) > 0 from raw_events group by all order by all')).toEqual([
      ['lnx', 'u', true],
      ['mac', null, true],
    ]);
    const columns = (await query(oldOut, `select column_name from duckdb_columns() where table_name = 'raw_events'`)).map(
      (r) => r[0],
    );
    expect(columns).toEqual(['row_id', ...COLUMNS.map((c) => c.name)]);
    expect(await query(oldOut, `select host, status, users from hosts order by host`)).toEqual([
      ['lnx', 'loaded', ['u']],
      ['mac', 'absent from last input', []],
    ]);
  }, 300_000);
});
