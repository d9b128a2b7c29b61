import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Row } from '../../../src/core/row.js';
import { readSearchIndex } from '../../../src/readers/search-index/reader.js';
import { searchDocumentFields } from '../../../src/readers/search-index/document.js';
import { collect, fixture, makeSource } from '../../helpers/source.js';
import { useImages } from '../../helpers/temp-images.js';
import { GONE1, K3X9Q } from '../../helpers/demo-dbs.js';
import { snapshotFolder, writeSearchIndexDb, type SearchSession } from '../../helpers/sqlite-fixtures.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const brief = (r: Row) => ({
  line: r.source_line,
  turn: r.turn_type,
  kind: r.kind,
  at: iso(r.timestamp_utc),
  sid: r.session_id,
  project: r.project_path,
  text: r.text,
});

const image = useImages();
function sourceFor(img: { imageRoot: string; dataRoot: string }) {
  return makeSource({ store: 'search-index', role: 'secondary', imageRoot: img.imageRoot, root: img.dataRoot });
}

describe('readSearchIndex on the committed demo fixture', () => {
  const imageRoot = fixture('search-index', 'img');
  const source = makeSource({
    store: 'search-index',
    role: 'secondary',
    imageRoot,
    root: path.join(imageRoot, 'home', 'u', '.cline', 'data'),
  });

  it('yields one session row and one row per message document, in ordinal order', async () => {
    const before = snapshotFolder(imageRoot);
    const rows = await collect(readSearchIndex, source);
    expect(snapshotFolder(imageRoot)).toEqual(before);
    expect(Object.keys(before)).toEqual(['home/u/.cline/data/db/session-search.db']);

    expect(rows.map(brief)).toEqual([
      {
        line: null,
        turn: 'system',
        kind: 'search_index_session',
        at: '2026-10-03T09:00:00.000Z',
        sid: K3X9Q,
        project: '/home/u/proj',
        text:
          'session search index: title=fix tests workspace_root=/home/u/proj prompt=fix tests document_count=4' +
          ' indexed_at=2026-10-03T09:05:00.000Z',
      },
      { line: 1, turn: 'user', kind: 'search_document', at: null, sid: K3X9Q, project: '/home/u/proj', text: 'fix tests' },
      {
        line: 2,
        turn: 'assistant',
        kind: 'search_document',
        at: null,
        sid: K3X9Q,
        project: '/home/u/proj',
        text: 'thinking\ntool_use\ncall_1\nbash\npytest -q',
      },
      {
        line: 3,
        turn: 'tool_result',
        kind: 'search_document',
        at: null,
        sid: K3X9Q,
        project: '/home/u/proj',
        text: '3 passed',
      },
      {
        line: null,
        turn: 'system',
        kind: 'search_index_session',
        at: '2026-10-03T09:08:20.000Z',
        sid: GONE1,
        project: '/home/u/billing',
        text:
          'session search index: title=export the customer report workspace_root=/home/u/billing' +
          ' prompt=export the customer report document_count=4 indexed_at=2026-10-03T09:15:00.000Z',
      },
      {
        line: 1,
        turn: 'user',
        kind: 'search_document',
        at: null,
        sid: GONE1,
        project: '/home/u/billing',
        text: 'export the customer report',
      },
      {
        line: 2,
        turn: 'tool_use',
        kind: 'search_document',
        at: null,
        sid: GONE1,
        project: '/home/u/billing',
        text: 'psql -c "\\copy customers to out/customers.csv csv"',
      },
      {
        line: 4,
        turn: 'assistant',
        kind: 'search_document',
        at: null,
        sid: GONE1,
        project: '/home/u/billing',
        // the `text` type line goes: a text block's document reads as the text
        text: 'Wrote out/customers.csv (1204 rows).',
      },
    ]);

    expect(rows[0]).toEqual({
      host: 'test-host',
      store: 'search-index',
      home: 'home/u',
      user: 'u',
      client: 'cline',
      agent: 'cline',
      source_file: 'home/u/.cline/data/db/session-search.db',
      source_line: null,
      source_seq: 0,
      source_role: 'secondary',
      timestamp_utc: Date.parse('2026-10-03T09:00:00.000Z'),
      timestamp_source: 'recorded',
      session_id: K3X9Q,
      project_path: '/home/u/proj',
      git_branch: null,
      turn_type: 'system',
      kind: 'search_index_session',
      model: null,
      provider: null,
      tool_name: null,
      tool_use_id: null,
      text:
        'session search index: title=fix tests workspace_root=/home/u/proj prompt=fix tests document_count=4' +
        ' indexed_at=2026-10-03T09:05:00.000Z',
      tokens_in: null,
      tokens_out: null,
      cost_usd: null,
      is_error: null,
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
});

describe('readSearchIndex on databases built at test time', () => {
  const sessions: SearchSession[] = [
    {
      // Indexed, documents present, inserted out of ordinal order below via the array order.
      session_id: '1760000200000_bbbbb',
      started_at: '2026-10-03T11:00:00.000Z',
      workspace_root: '/w/b',
      title: 'b title',
      prompt: 'b prompt',
      documents: [
        { ordinal: 10, role: 'assistant', content: 'ten' },
        { ordinal: 2, role: 'unknown', content: 'two' },
        { ordinal: 0, role: 'user', content: 'zero' },
      ],
      indexed: { indexed_at: '2026-10-03T11:05:00.000Z', source_revision: 'r:1:2' },
    },
    {
      // Documents but no indexed_sessions row (the index was cut between its two writes).
      session_id: '1760000300000_ccccc',
      started_at: '2026-10-03T12:00:00.000Z',
      workspace_root: '/w/c',
      title: 'c title',
      prompt: 'c prompt',
      documents: [{ ordinal: 0, role: 'user', content: 'c prompt' }],
      indexed: null,
    },
    {
      // Indexed, but no metadata document: no time, no prompt.
      session_id: '1760000400000_ddddd',
      started_at: '2026-10-03T13:00:00.000Z',
      workspace_root: '/w/d',
      title: 'd title',
      prompt: null,
      documents: [{ ordinal: 0, role: 'user', content: 'd first' }],
      indexed: { indexed_at: '2026-10-03T13:05:00.000Z', source_revision: 'r:3:4' },
    },
    {
      // Indexed, sorts first, and has no documents at all.
      session_id: '1760000100000_aaaaa',
      started_at: '2026-10-03T10:00:00.000Z',
      workspace_root: '/w/a',
      title: 'a title',
      prompt: null,
      documents: [],
      indexed: { indexed_at: '2026-10-03T10:05:00.000Z', source_revision: 'r:missing', document_count: 1 },
    },
  ];

  it.each([
    ['', false],
    [' (indexed_sessions declared WITHOUT ROWID, read by its key)', true],
  ])(
    'orders sessions by id and documents by ordinal; keeps sessions missing from indexed_sessions%s',
    async (_what, withoutRowid) => {
      const img = image();
      writeSearchIndexDb(path.join(img.dbDir, 'session-search.db'), sessions, { withoutRowid });
      const before = snapshotFolder(img.imageRoot);
      const rows = await collect(readSearchIndex, sourceFor(img));
      expect(snapshotFolder(img.imageRoot)).toEqual(before);
      expect(
        rows.map((r) => `${r.session_id} ${r.source_line} ${r.turn_type} ${iso(r.timestamp_utc)} ${r.project_path} | ${r.text}`),
      ).toEqual([
        '1760000100000_aaaaa null system null null | session search index: title=a title workspace_root=- prompt=- document_count=1 indexed_at=2026-10-03T10:05:00.000Z',
        '1760000200000_bbbbb null system 2026-10-03T11:00:00.000Z /w/b | session search index: title=b title workspace_root=/w/b prompt=b prompt document_count=4 indexed_at=2026-10-03T11:05:00.000Z',
        '1760000200000_bbbbb 1 user null /w/b | zero',
        '1760000200000_bbbbb 3 system null /w/b | two',
        '1760000200000_bbbbb 11 assistant null /w/b | ten',
        '1760000300000_ccccc null system 2026-10-03T12:00:00.000Z /w/c | session search index: title=c title workspace_root=/w/c prompt=c prompt document_count=- indexed_at=-',
        '1760000300000_ccccc 1 user null /w/c | c prompt',
        '1760000400000_ddddd null system null /w/d | session search index: title=d title workspace_root=/w/d prompt=- document_count=2 indexed_at=2026-10-03T13:05:00.000Z',
        '1760000400000_ddddd 1 user null /w/d | d first',
      ]);
    },
  );

  it('says so and reads indexed_sessions alone when the SQLite build lacks the FTS5 module', async () => {
    const img = image();
    const file = path.join(img.dbDir, 'session-search.db');
    writeSearchIndexDb(file, sessions);
    // Simulate a build without FTS5: point the virtual table at a module no build has.
    const db = new Database(file);
    db.unsafeMode(true);
    db.pragma('writable_schema = ON');
    db.prepare(
      "UPDATE sqlite_master SET sql = replace(sql, 'USING fts5(', 'USING fts5_unavailable(') WHERE name = 'session_search'",
    ).run();
    db.close();
    const before = snapshotFolder(img.imageRoot);
    const rows = await collect(readSearchIndex, sourceFor(img));
    expect(snapshotFolder(img.imageRoot)).toEqual(before);
    expect(rows.map((r) => [r.kind, r.session_id, r.timestamp_utc, r.text])).toEqual([
      ['search_index_no_fts5', null, null, 'session search index: SQLite build lacks FTS5; session_search not read'],
      [
        'search_index_session',
        '1760000100000_aaaaa',
        null,
        'session search index: title=a title workspace_root=- prompt=- document_count=1 indexed_at=2026-10-03T10:05:00.000Z',
      ],
      [
        'search_index_session',
        '1760000200000_bbbbb',
        null,
        'session search index: title=b title workspace_root=- prompt=- document_count=4 indexed_at=2026-10-03T11:05:00.000Z',
      ],
      [
        'search_index_session',
        '1760000400000_ddddd',
        null,
        'session search index: title=d title workspace_root=- prompt=- document_count=2 indexed_at=2026-10-03T13:05:00.000Z',
      ],
    ]);
    expect(rows[0].turn_type).toBe('system');
  });

  it('turns a zero-length db into one parser row', async () => {
    const img = image();
    fs.writeFileSync(path.join(img.dbDir, 'session-search.db'), '');
    const rows = await collect(readSearchIndex, sourceFor(img));
    expect(rows.map((r) => [r.kind, r.text])).toEqual([
      ['parser', 'parser: home/u/.cline/data/db/session-search.db: empty file (0 bytes), not an SQLite database'],
    ]);
  });

  it('turns a corrupt db into one parser row and leaves it untouched', async () => {
    const img = image();
    const file = path.join(img.dbDir, 'session-search.db');
    writeSearchIndexDb(file, sessions);
    const bytes = fs.readFileSync(file);
    for (let i = 100; i < bytes.length; i++) bytes[i] = (i * 31) & 0xff;
    fs.writeFileSync(file, bytes);
    const before = snapshotFolder(img.imageRoot);
    const rows = await collect(readSearchIndex, sourceFor(img));
    expect(snapshotFolder(img.imageRoot)).toEqual(before);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'parser', turn_type: 'system', is_error: true });
    expect(rows[0].text).toMatch(/^parser: home\/u\/\.cline\/data\/db\/session-search\.db: SQLite cannot read the database: /);
  });

  it('turns a db with neither table into one parser row', async () => {
    const img = image();
    const db = new Database(path.join(img.dbDir, 'session-search.db'));
    db.exec('CREATE TABLE something_else (x)');
    db.close();
    const rows = await collect(readSearchIndex, sourceFor(img));
    expect(rows.map((r) => r.text)).toEqual([
      'parser: home/u/.cline/data/db/session-search.db: no indexed_sessions or session_search table (unknown schema)',
    ]);
  });
});

describe('searchDocumentFields: a message document as the row of its first block', () => {
  it('reads a prompt as typed with its mode, a run reminder as system, tool documents by their call id', () => {
    expect(searchDocumentFields('user', 'text\n<user_input mode="plan">add a test</user_input>')).toMatchObject({
      turn_type: 'user',
      text: 'add a test',
      permission_mode: 'plan',
    });
    expect(searchDocumentFields('user', 'text\n[SYSTEM] This run is not complete until you call one of these')).toMatchObject({
      turn_type: 'system',
    });
    expect(searchDocumentFields('user', 'tool_result\ncall_7\nrun_commands\nls\ntotal 0')).toMatchObject({
      turn_type: 'tool_result',
      tool_use_id: 'call_7',
      tool_name: 'run_commands',
      text: 'ls\ntotal 0',
    });
    expect(searchDocumentFields('assistant', 'text\nListing.\ntool_use\ncall_8\nrun_commands\nls')).toMatchObject({
      turn_type: 'assistant',
      tool_use_id: 'call_8',
      text: 'Listing.\ntool_use\ncall_8\nrun_commands\nls',
    });
    // a user text that is not one wrapper stays as found
    expect(searchDocumentFields('user', 'text\nplain <user_input mode="act">x</user_input>')).toMatchObject({
      turn_type: 'user',
      text: 'plain <user_input mode="act">x</user_input>',
      permission_mode: null,
    });
  });
});
