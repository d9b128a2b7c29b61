/**
 * The `locks` store (readers/locks/reader.ts) on its committed fixture (locks.db with records planted with the
 * 1.0.10 DDL, and the 3.x hub's discovery, owner and instance-lock files), on broken copies, and on the
 * real homes: the 1.0.10 locks.db is empty; the 3.0.65 home kept an instance lock and the startup lock's
 * owner.json of the hub the driver's last command started.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { storeOf } from '../../../src/discover/discover.js';
import { readLocks } from '../../../src/readers/locks/reader.js';
import { DEMO_ROWS } from '../../helpers/side-store-rows.js';
import {
  brief,
  imageWith,
  imageWithFile,
  readDiscovered,
  readRealHome,
  REAL_1X_IMAGE,
  REAL_3X_IMAGE,
  removeImages,
} from '../../helpers/side-store-tests.js';
import { snapshotFolder } from '../../helpers/sqlite-fixtures.js';
import { collect, fixture, makeSource } from '../../helpers/source.js';

afterEach(removeImages);

const DATA = 'home/u/.cline/data';
const HUB = `${DATA}/locks/hub`;
const AUTH_TOKEN = '9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0';

describe('discovery', () => {
  it.each([
    'locks.db',
    'locks.db-journal',
    'locks/hub/production.json',
    'locks/hub/production.json.lock/owner.json',
    'locks/hub/production.json.mutation.lock/owner.json',
    'locks/hub/production.json.instance.lock',
    'locks/hub/owners/hub-0a1b2c3d4e5f.json',
    'locks/hub/owners/hub-0a1b2c3d4e5f.json.instance.lock',
  ])('files %s as locks', (rel) => {
    expect(storeOf(rel, 'cline-data')).toBe('locks');
  });
});

describe('readLocks on the committed fixture', () => {
  it('gives the locks.db records, then the hub discovery record without its token, the instance lock and the lock owner', async () => {
    const img = fixture('locks', 'img');
    const before = snapshotFolder(img);
    const { rows, files } = await readDiscovered('locks', img);
    expect(snapshotFolder(img)).toEqual(before);
    expect(files).toEqual([
      `${DATA}/locks.db`,
      `${HUB}/production.json`,
      `${HUB}/production.json.instance.lock`,
      `${HUB}/production.json.lock/owner.json`,
    ]);
    const mtime = new Date(Math.trunc(fs.statSync(path.join(img, HUB, 'production.json.instance.lock')).mtimeMs)).toISOString();
    expect(rows.map(brief)).toEqual([
      {
        line: 1,
        seq: 0,
        kind: 'lock',
        at: '2026-12-01T16:59:00.000Z',
        sid: null,
        text: 'lock: instance target=127.0.0.1:40002 held_by=127.0.0.1:40001 locked=2026-12-01T16:59:00.000Z',
      },
      {
        line: 2,
        seq: 0,
        kind: 'lock',
        at: '2026-12-01T16:59:09.900Z',
        sid: '1796144349811',
        text: 'lock: folder target=~/.cline/data/tasks/1796144349811 held_by=127.0.0.1:40001 locked=2026-12-01T16:59:09.900Z',
      },
      {
        line: null,
        seq: 0,
        kind: 'hub_discovery',
        at: '2026-12-01T17:01:06.500Z',
        sid: null,
        text:
          'hub discovery: hubId=hub_1796144466000_k2j4h url=ws://127.0.0.1:40123/hub host=127.0.0.1 port=40123 pid=20541' +
          ' coreVersion=3.0.65 buildId=source-3.0.65 protocolVersion=v1 started=2026-12-01T17:01:06.500Z updated=2026-12-01T17:01:06.500Z' +
          ' (from .cline/data/locks/hub/production.json; authToken not read)',
      },
      {
        line: null,
        seq: 0,
        kind: 'hub_instance_lock',
        at: mtime,
        sid: null,
        text: 'hub instance lock: .cline/data/locks/hub/production.json.instance.lock (0 bytes; held by a serving hub while it runs; file mtime)',
      },
      {
        line: null,
        seq: 0,
        kind: 'hub_lock_owner',
        at: '2026-12-01T17:01:06.302Z',
        sid: null,
        text: 'hub lock owner: .cline/data/locks/hub/production.json.lock pid=20541 acquired=2026-12-01T17:01:06.302Z',
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain(AUTH_TOKEN.slice(0, 16));
  });

  it('matches its generator (DEMO_ROWS with the real DDL)', async () => {
    const img = imageWith('locks', 'locks.db', DEMO_ROWS.locks);
    const fresh = await readDiscovered('locks', img.imageRoot);
    const committed = await readDiscovered('locks', fixture('locks', 'img'));
    expect(fresh.rows.map(brief)).toEqual(committed.rows.filter((r) => r.kind === 'lock').map(brief));
  });
});

describe('readLocks on broken files', () => {
  const read = async (img: { imageRoot: string; dataRoot: string }) =>
    collect(readLocks, makeSource({ store: 'locks', imageRoot: img.imageRoot, root: img.dataRoot }));

  it.each([
    ['locks/hub/production.json', `{"authToken": "${AUTH_TOKEN}", "port": `, 'not valid JSON'],
    ['locks/hub/production.json', '[1, 2]', 'not a JSON object'],
    ['locks/hub/production.json.lock/owner.json', '{"pid": 1', 'Expected'],
    [
      'locks/hub/production.json.instance.lock',
      'garbage',
      'not an SQLite lock file (7 bytes without the "SQLite format 3" header)',
    ],
    ['locks.db', 'not a database', 'not an SQLite database'],
  ])('%s holding %j is one parser row (%s)', async (rel, bytes, problem) => {
    const rows = await read(imageWithFile(rel, bytes));
    expect(rows.map((r) => r.kind)).toEqual(['parser']);
    expect(rows[0].text).toContain(`parser: ${DATA}/${rel}: ${problem}`);
    expect(rows[0].text).not.toContain(AUTH_TOKEN.slice(0, 8));
  });

  it('reads an instance lock that holds an SQLite database', async () => {
    const img = imageWith('locks', 'locks.db', {});
    const lock = path.join(img.dataRoot, 'locks', 'hub', 'production.json.instance.lock');
    fs.mkdirSync(path.dirname(lock), { recursive: true });
    fs.copyFileSync(path.join(img.dataRoot, 'locks.db'), lock);
    const rows = await read(img);
    expect(rows.map((r) => r.kind)).toEqual(['hub_instance_lock']);
    expect(rows[0].text).toMatch(/^hub instance lock: \.cline\/data\/locks\/hub\/production\.json\.instance\.lock \(\d+ bytes; /);
  });
});

describe('readLocks on the real homes', () => {
  it('1.0.10: reads locks.db, whose locks table is empty: no rows, no byte changed', async () => {
    const { rows, files } = await readRealHome('locks', REAL_1X_IMAGE);
    expect(files).toEqual(['home/.cline/data/locks.db']);
    expect(rows).toEqual([]);
  });

  it('3.0.65: reads the instance lock and the owner.json the hub startup lock left, no byte changed', async () => {
    const { rows, files } = await readRealHome('locks', REAL_3X_IMAGE);
    expect(files).toEqual([
      'home/.cline/data/locks/hub/production.json.instance.lock',
      'home/.cline/data/locks/hub/production.json.lock/owner.json',
    ]);
    // the owner the hub daemon of the corpus run wrote: its pid and time are that run's
    const owner = JSON.parse(
      fs.readFileSync(path.join(REAL_3X_IMAGE, 'home/.cline/data/locks/hub/production.json.lock/owner.json'), 'utf8'),
    ) as { pid: number; acquiredAt: string };
    expect(rows.map((r) => [r.kind, r.text?.replace(/\(0 bytes.*$/, '(0 bytes...')])).toEqual([
      ['hub_instance_lock', 'hub instance lock: .cline/data/locks/hub/production.json.instance.lock (0 bytes...'],
      [
        'hub_lock_owner',
        `hub lock owner: .cline/data/locks/hub/production.json.lock pid=${owner.pid} acquired=${owner.acquiredAt}`,
      ],
    ]);
    expect(rows[1].timestamp_utc).toBe(Date.parse(owner.acquiredAt));
  });
});
