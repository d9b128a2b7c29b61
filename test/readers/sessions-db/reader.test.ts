import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Row } from '../../../src/core/row.js';
import { readSessionsDb } from '../../../src/readers/sessions-db/reader.js';
import { openPrivateCopy } from '../../../src/evidence/sqlite-copy.js';
import { collect, fixture, makeSource } from '../../helpers/source.js';
import { useImages } from '../../helpers/temp-images.js';
import { DEMO_SESSIONS, DEMO_SESSIONS_DB, GONE1, K3X9Q } from '../../helpers/demo-dbs.js';
import { snapshotFolder, writeSessionsDb, type SessionsDbRow } from '../../helpers/sqlite-fixtures.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const brief = (r: Row) => ({
  line: r.source_line,
  seq: r.source_seq,
  kind: r.kind,
  at: iso(r.timestamp_utc),
  sid: r.session_id,
  text: r.text,
});

const image = useImages();

function sourceFor(img: { imageRoot: string; dataRoot: string }) {
  return makeSource({ store: 'sessions-db', imageRoot: img.imageRoot, root: img.dataRoot });
}

const row = (n: number, extra: Partial<SessionsDbRow> = {}): SessionsDbRow => ({
  session_id: `176000000${n}000_s${n}`,
  pid: 100 + n,
  started_at: `2026-10-03T10:0${n}:00.000Z`,
  status: 'running',
  cwd: `/home/u/p${n}`,
  prompt: `task ${n}`,
  metadata_json: { title: `task ${n}` },
  ...extra,
});

describe('readSessionsDb on the committed demo fixture', () => {
  const imageRoot = fixture('sessions-db', 'img');
  const dataRoot = path.join(imageRoot, 'home', 'u', '.cline', 'data');
  const source = makeSource({ store: 'sessions-db', imageRoot, root: dataRoot });

  it('reads one session record per row, exactly as a manifest would, with origin sessions.db', async () => {
    const before = snapshotFolder(imageRoot);
    const rows = await collect(readSessionsDb, source);
    expect(snapshotFolder(imageRoot)).toEqual(before);
    expect(Object.keys(before)).toEqual(['home/u/.cline/data/db/sessions.db']);

    expect(rows.map(brief)).toEqual([
      {
        line: 1,
        seq: 0,
        kind: 'session_start',
        at: '2026-10-03T09:00:00.000Z',
        sid: K3X9Q,
        text: 'session start: source=cli status=completed pid=4242 cwd=/home/u/proj workspace_root=/home/u/proj title=fix tests',
      },
      {
        line: 1,
        seq: 1,
        kind: 'model',
        at: '2026-10-03T09:00:00.000Z',
        sid: K3X9Q,
        text: 'model: claude-sonnet-4-5 provider=anthropic',
      },
      {
        line: 2,
        seq: 0,
        kind: 'session_start',
        at: '2026-10-03T09:08:20.000Z',
        sid: GONE1,
        text:
          'session start: source=vscode status=completed pid=5151 cwd=/home/u/billing workspace_root=/home/u/billing' +
          ' title=export the customer report',
      },
      {
        line: 2,
        seq: 1,
        kind: 'model',
        at: '2026-10-03T09:08:20.000Z',
        sid: GONE1,
        text: 'model: claude-sonnet-4-5 provider=anthropic',
      },
      {
        line: 2,
        seq: 2,
        kind: 'sync',
        at: '2026-10-03T09:08:20.000Z',
        sid: GONE1,
        text:
          'session synced: enterprise prompt upload to s3 bucket acme-prompts object sessions/u-42/1760000500000_gone1/messages.json' +
          ' endpoint=- region=eu-west-1 account=- (from sessions.db sessions.metadata_json enterprise.blobUpload, started_at)',
      },
      {
        line: 2,
        seq: 3,
        kind: 'session_end',
        at: '2026-10-03T09:12:00.000Z',
        sid: GONE1,
        text: 'session end: status=completed exit_code=0',
      },
    ]);

    expect(rows[4]).toEqual({
      host: 'test-host',
      store: 'sessions-db',
      home: 'home/u',
      user: 'u',
      client: 'cline',
      agent: 'cline',
      source_file: 'home/u/.cline/data/db/sessions.db',
      source_line: 2,
      source_seq: 2,
      source_role: 'primary',
      timestamp_utc: Date.parse('2026-10-03T09:08:20.000Z'),
      timestamp_source: 'recorded',
      session_id: GONE1,
      project_path: '/home/u/billing',
      git_branch: null,
      turn_type: 'system',
      kind: 'sync',
      model: 'claude-sonnet-4-5',
      provider: 'anthropic',
      tool_name: null,
      tool_use_id: null,
      text:
        'session synced: enterprise prompt upload to s3 bucket acme-prompts object sessions/u-42/1760000500000_gone1/messages.json' +
        ' endpoint=- region=eu-west-1 account=- (from sessions.db sessions.metadata_json enterprise.blobUpload, started_at)',
      tokens_in: null,
      tokens_out: null,
      cost_usd: null,
      is_error: null,
      file_row: null,
      permission_mode: null,
      sync_target: 's3 bucket acme-prompts object sessions/u-42/1760000500000_gone1/messages.json',
      session_origin: null,
      imported_from: null,
      setting_name: null,
      setting_value: null,
      parent_session_id: null,
    });
  });

  it('the committed fixture matches its generator (DEMO_SESSIONS) and is in rollback-journal mode', () => {
    const copy = openPrivateCopy(fixture(...DEMO_SESSIONS_DB));
    try {
      expect(copy.db.pragma('journal_mode', { simple: true })).toBe('delete');
      const ids = copy.db.prepare('SELECT session_id FROM sessions ORDER BY rowid').pluck().all();
      expect(ids).toEqual(DEMO_SESSIONS.map((s) => s.session_id));
    } finally {
      copy.close();
    }
  });
});

describe('readSessionsDb on databases built at test time', () => {
  it('reads a row that exists only in the -wal, and leaves db, -wal and -shm untouched', async () => {
    const img = image();
    const file = path.join(img.dbDir, 'sessions.db');
    writeSessionsDb(file, [row(1), row(2), row(3, { metadata_json: { title: 'only in wal' } })], { wal: true });
    expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(0);
    expect(fs.existsSync(`${file}-shm`)).toBe(true);

    // The main file alone does not hold row 3: without the -wal, only two rows are visible.
    const alone = fs.mkdtempSync(path.join(os.tmpdir(), 'clinetrail-test-'));
    try {
      fs.copyFileSync(file, path.join(alone, 'sessions.db'));
      const db = new Database(path.join(alone, 'sessions.db'));
      expect(db.prepare('SELECT count(*) FROM sessions').pluck().get()).toBe(2);
      db.close();
    } finally {
      fs.rmSync(alone, { recursive: true, force: true });
    }

    const before = snapshotFolder(img.imageRoot);
    expect(Object.keys(before)).toEqual([
      'home/u/.cline/data/db/sessions.db',
      'home/u/.cline/data/db/sessions.db-shm',
      'home/u/.cline/data/db/sessions.db-wal',
    ]);
    const source = makeSource({
      store: 'sessions-db',
      imageRoot: img.imageRoot,
      root: img.dataRoot,
    });
    expect(source.files.length).toBe(3);
    const rows = await collect(readSessionsDb, source);
    expect(snapshotFolder(img.imageRoot)).toEqual(before);

    expect(rows.map((r) => `${r.source_line} ${r.kind} ${r.session_id}`)).toEqual([
      '1 session_start 1760000001000_s1',
      '1 model 1760000001000_s1',
      '2 session_start 1760000002000_s2',
      '2 model 1760000002000_s2',
      '3 session_start 1760000003000_s3',
      '3 model 1760000003000_s3',
    ]);
    expect(rows[4].text).toBe(
      'session start: source=cli status=running pid=103 cwd=/home/u/p3 workspace_root=/home/u/p3 title=only in wal',
    );
    expect(iso(rows[4].timestamp_utc)).toBe('2026-10-03T10:03:00.000Z');
    expect(rows.every((r) => r.source_file === 'home/u/.cline/data/db/sessions.db')).toBe(true);
  });

  it('reads an older schema without workspace_root and metadata_json', async () => {
    const img = image();
    const file = path.join(img.dbDir, 'sessions.db');
    writeSessionsDb(file, [row(1, { ended_at: '2026-10-03T10:30:00.000Z', exit_code: 1, status: 'failed' })], {
      legacy: true,
    });
    const rows = await collect(readSessionsDb, sourceFor(img));
    expect(rows.map(brief)).toEqual([
      {
        line: 1,
        seq: 0,
        kind: 'session_start',
        at: '2026-10-03T10:01:00.000Z',
        sid: '1760000001000_s1',
        text: 'session start: source=cli status=failed pid=101 cwd=/home/u/p1 workspace_root=- title=-',
      },
      {
        line: 1,
        seq: 1,
        kind: 'model',
        at: '2026-10-03T10:01:00.000Z',
        sid: '1760000001000_s1',
        text: 'model: claude-sonnet-4-5 provider=anthropic',
      },
      {
        line: 1,
        seq: 2,
        kind: 'session_end',
        at: '2026-10-03T10:30:00.000Z',
        sid: '1760000001000_s1',
        text: 'session end: status=failed exit_code=1',
      },
    ]);
    expect(rows.every((r) => r.project_path === '/home/u/p1')).toBe(true);
  });

  it('keeps the rows of a row whose metadata_json is not JSON and adds one parser row for that rowid', async () => {
    const img = image();
    writeSessionsDb(path.join(img.dbDir, 'sessions.db'), [
      row(1),
      row(2, { metadata_json: '{"title": "cut off' }),
      row(3, { metadata_json: null }),
    ]);
    const rows = await collect(readSessionsDb, sourceFor(img));
    expect(rows.map((r) => `${r.source_line}.${r.source_seq} ${r.kind}`)).toEqual([
      '1.0 session_start',
      '1.1 model',
      '2.0 session_start',
      '2.1 model',
      '2.2 parser',
      '3.0 session_start',
      '3.1 model',
    ]);
    expect(rows[2].text).toBe(
      'session start: source=cli status=running pid=102 cwd=/home/u/p2 workspace_root=/home/u/p2 title=-',
    );
    expect(rows[4].text).toMatch(
      /^parser: home\/u\/\.cline\/data\/db\/sessions\.db line 2: sessions\.metadata_json is not valid JSON: /,
    );
    expect(rows[4]).toMatchObject({ turn_type: 'system', is_error: true, session_id: '1760000002000_s2' });
    expect(rows[5].text).toContain('title=-');
  });

  it('reads a sessions table declared WITHOUT ROWID by its key: source_line is the position in session_id order', async () => {
    const img = image();
    // Inserted out of key order; a WITHOUT ROWID table keeps its rows in primary-key order and has no rowid.
    writeSessionsDb(path.join(img.dbDir, 'sessions.db'), [row(3), row(1), row(2, { metadata_json: '{"title": "cut off' })], {
      withoutRowid: true,
    });
    const rows = await collect(readSessionsDb, sourceFor(img));
    expect(rows.map((r) => `${r.source_line}.${r.source_seq} ${r.kind} ${r.session_id}`)).toEqual([
      '1.0 session_start 1760000001000_s1',
      '1.1 model 1760000001000_s1',
      '2.0 session_start 1760000002000_s2',
      '2.1 model 1760000002000_s2',
      '2.2 parser 1760000002000_s2',
      '3.0 session_start 1760000003000_s3',
      '3.1 model 1760000003000_s3',
    ]);
    expect(rows[0].text).toBe(
      'session start: source=cli status=running pid=101 cwd=/home/u/p1 workspace_root=/home/u/p1 title=task 1',
    );
    expect(rows[4].text).toMatch(
      /^parser: home\/u\/\.cline\/data\/db\/sessions\.db line 2: sessions\.metadata_json is not valid JSON/,
    );
  });

  it('turns a zero-length db into one parser row and creates nothing beside it', async () => {
    const img = image();
    fs.writeFileSync(path.join(img.dbDir, 'sessions.db'), '');
    const before = snapshotFolder(img.imageRoot);
    const rows = await collect(readSessionsDb, sourceFor(img));
    expect(snapshotFolder(img.imageRoot)).toEqual(before);
    expect(rows.map((r) => [r.kind, r.text])).toEqual([
      ['parser', 'parser: home/u/.cline/data/db/sessions.db: empty file (0 bytes), not an SQLite database'],
    ]);
  });

  it('turns a file that is not SQLite into one parser row', async () => {
    const img = image();
    fs.writeFileSync(path.join(img.dbDir, 'sessions.db'), 'this is not a database, just some text\n'.repeat(200));
    const rows = await collect(readSessionsDb, sourceFor(img));
    expect(rows).toHaveLength(1);
    expect(rows[0].text).toMatch(/^parser: home\/u\/\.cline\/data\/db\/sessions\.db: not an SQLite database/);
  });

  it('turns a db with an SQLite header but corrupt pages into one parser row', async () => {
    const img = image();
    const file = path.join(img.dbDir, 'sessions.db');
    writeSessionsDb(file, [row(1), row(2)]);
    const bytes = fs.readFileSync(file);
    for (let i = 100; i < bytes.length; i++) bytes[i] = (i * 7919) & 0xff;
    fs.writeFileSync(file, bytes);
    const before = snapshotFolder(img.imageRoot);
    const rows = await collect(readSessionsDb, sourceFor(img));
    expect(snapshotFolder(img.imageRoot)).toEqual(before);
    expect(rows).toHaveLength(1);
    expect(rows[0].kind).toBe('parser');
    expect(rows[0].text).toMatch(/^parser: home\/u\/\.cline\/data\/db\/sessions\.db: SQLite cannot read the database: /);
  });

  it('turns a db without a sessions table into one parser row', async () => {
    const img = image();
    const db = new Database(path.join(img.dbDir, 'sessions.db'));
    db.exec('CREATE TABLE other (x TEXT); INSERT INTO other VALUES (1);');
    db.close();
    const rows = await collect(readSessionsDb, sourceFor(img));
    expect(rows.map((r) => r.text)).toEqual([
      'parser: home/u/.cline/data/db/sessions.db: no sessions table (unknown schema; sessions.db)',
    ]);
  });
});

describe('openPrivateCopy', () => {
  it('opens a copy in its own temp folder and removes the folder on close', () => {
    const img = image();
    const file = path.join(img.dbDir, 'sessions.db');
    writeSessionsDb(file, [row(1), row(2)], { wal: true });
    const copy = openPrivateCopy(file);
    const dir = path.dirname(copy.copyPath);
    expect(path.basename(dir)).toMatch(/^clinetrail-sqlite-/);
    expect(dir.startsWith(os.tmpdir())).toBe(true);
    expect(copy.db.prepare('SELECT count(*) FROM sessions').pluck().get()).toBe(2);
    expect(() => copy.db.exec('DELETE FROM sessions')).toThrow(/readonly|query_only|attempt to write/i);
    copy.close();
    expect(fs.existsSync(dir)).toBe(false);
    copy.close();
  });
});
