/**
 * sql/32_sessions.sql on hand-made rows: one row per (host, session_id) with origin, sync, import,
 * transcript presence, the stores a session appears in and its row counts per turn type.
 */
import { describe, expect, it } from 'vitest';
import { files, useModelDbs, type TestRow } from '../helpers/models.js';

const T0 = Date.parse('2025-10-09T08:00:00.000Z');
const at = (s: number): number => T0 + s * 1000;

const open = useModelDbs();

const START = 'session start: source=cli status=completed pid=1 cwd=/w workspace_root=/w title=-';
function startRows(store: 'sdk-sessions' | 'sessions-db', sid: string, extra: TestRow = {}): TestRow[] {
  const common: TestRow = {
    store,
    session_id: sid,
    source_line: 1,
    timestamp_utc: at(0),
    turn_type: 'system',
    model: 'm-a',
    provider: 'anthropic',
    project_path: '/w',
    ...extra,
  };
  return [
    { ...common, source_seq: 0, kind: 'session_start', text: START },
    { ...common, source_seq: 1, kind: 'model', text: 'model: m-a provider=anthropic' },
  ];
}

/** The two settings rows a cloudSessionStatuses entry yields (readers/settings/cloud.ts). */
function cloudRows(sid: string, status: string, line: number): TestRow[] {
  const where = '(from .cline/data/globalState.json cloudSessionStatuses, observedAt)';
  const common: TestRow = { store: 'settings', session_id: sid, source_line: line, timestamp_utc: at(5), turn_type: 'system' };
  return [
    {
      ...common,
      source_seq: 0,
      kind: 'origin',
      session_origin: 'remote',
      text: `session origin: remote cline-cloud session ${sid} status ${status} ${where}`,
    },
    {
      ...common,
      source_seq: 1,
      kind: 'sync',
      sync_target: 'cline-cloud',
      text: `session synced: cline-cloud holds session ${sid}, no local transcript ${where}`,
    },
  ];
}

const SESSION_COLUMNS = `session_id, has_transcript, origin, is_synced, sync_target, imported_from, stores`;

describe('origin, sync and import', () => {
  it('a Cline Cloud session is remote, synced to cline-cloud, without a transcript; a local one is local and not synced', async () => {
    const db = await open([
      ...cloudRows('ses-abc', 'running', 1),
      ...startRows('sdk-sessions', 's1'),
      {
        store: 'sdk-sessions',
        session_id: 's1',
        source_line: 1,
        turn_type: 'user',
        kind: 'text',
        text: 'hi',
        timestamp_utc: at(1),
      },
    ]);
    expect(await db.query(`select ${SESSION_COLUMNS} from sessions order by session_id`)).toEqual([
      {
        session_id: 's1',
        has_transcript: true,
        origin: 'local',
        is_synced: false,
        sync_target: null,
        imported_from: null,
        stores: ['sdk-sessions'],
      },
      {
        session_id: 'ses-abc',
        has_transcript: false,
        origin: 'remote',
        is_synced: true,
        sync_target: 'cline-cloud',
        imported_from: null,
        stores: ['settings'],
      },
    ]);
  });

  it('a pending cloud sandbox start is remote too', async () => {
    const where = '(from .cline/data/cloud-pending-starts/4242-x.json, file mtime)';
    const db = await open([
      {
        store: 'settings',
        session_id: 'ses-new',
        source_line: 1,
        source_seq: 0,
        turn_type: 'system',
        kind: 'origin',
        session_origin: 'remote',
        timestamp_utc: at(0),
        text: `session origin: remote cline-cloud session ses-new sandbox start pending account=acct endpoint=- ${where}`,
      },
      {
        store: 'settings',
        session_id: 'ses-new',
        source_line: 1,
        source_seq: 1,
        turn_type: 'system',
        kind: 'sync',
        sync_target: 'cline-cloud',
        timestamp_utc: at(0),
        text: `session synced: cline-cloud holds session ses-new, no local transcript ${where}`,
      },
    ]);
    expect(await db.query(`select origin, is_synced, sync_target from sessions`)).toEqual([
      { origin: 'remote', is_synced: true, sync_target: 'cline-cloud' },
    ]);
  });

  it('an enterprise blobUpload session is synced to its bucket object', async () => {
    const db = await open([
      ...startRows('sdk-sessions', 's1'),
      {
        store: 'sdk-sessions',
        session_id: 's1',
        source_line: 1,
        source_seq: 2,
        timestamp_utc: at(0),
        turn_type: 'system',
        kind: 'sync',
        sync_target: 's3 bucket acme-prompts object sessions/user-7/s1/messages.json',
        text: 'session synced: enterprise prompt upload to s3 bucket acme-prompts object sessions/user-7/s1/messages.json endpoint=- region=us-east-1 account=- (from s1.json metadata enterprise.blobUpload, started_at)',
      },
    ]);
    expect(await db.query(`select is_synced, sync_target, has_transcript from sessions`)).toEqual([
      { is_synced: true, sync_target: 's3 bucket acme-prompts object sessions/user-7/s1/messages.json', has_transcript: false },
    ]);
  });

  it('a legacy task is synced only by a synced upload-queue item, never by a pending or failed one; is_synced is never NULL', async () => {
    const from = '(from saoudrizwan.claude-dev/cache/sync-queue.json, item timestamp)';
    const queue = (line: number, sid: string, text: string, target: string | null = null): TestRow => ({
      store: 'sync-queue',
      client: 'vscode',
      session_id: sid,
      source_line: line,
      turn_type: 'system',
      kind: 'sync',
      sync_target: target,
      text,
      timestamp_utc: at(line),
    });
    const ui = (sid: string): TestRow => ({
      store: 'vscode-tasks',
      client: 'vscode',
      session_id: sid,
      source_line: 1,
      turn_type: 'user',
      kind: 'say:task',
      text: 'fix',
      timestamp_utc: at(0),
    });
    const db = await open([
      ui('1760000000000'),
      ui('1760000020000'),
      ui('1760000030000'),
      queue(
        1,
        '1760000000000',
        `session synced: enterprise prompt upload synced key api_conversation_history.json retries 0 ${from}`,
        'enterprise upload queue: api_conversation_history.json',
      ),
      queue(2, '1760000000000', `enterprise prompt upload pending key ui_messages.json retries 1 ${from}`),
      queue(3, '1760000020000', `enterprise prompt upload failed key api_conversation_history.json retries 3 ${from}`),
    ]);
    expect(await db.query(`select session_id, is_synced, sync_target, stores from sessions order by session_id`)).toEqual([
      {
        session_id: '1760000000000',
        is_synced: true,
        sync_target: 'enterprise upload queue: api_conversation_history.json',
        stores: ['sync-queue', 'vscode-tasks'],
      },
      { session_id: '1760000020000', is_synced: false, sync_target: null, stores: ['sync-queue', 'vscode-tasks'] },
      { session_id: '1760000030000', is_synced: false, sync_target: null, stores: ['vscode-tasks'] },
    ]);
    expect(
      await db.query(
        `select count(*)::INTEGER as n from sessions where is_synced is null or origin is null or has_transcript is null`,
      ),
    ).toEqual([{ n: 0 }]);
  });

  it('an imported session names the agent it was imported from', async () => {
    const db = await open(
      startRows('sdk-sessions', 's1').map((r) =>
        r.kind === 'session_start'
          ? {
              ...r,
              imported_from: 'claude-code',
              text: `${START} imported_from=claude-code imported_session=9f1c imported_path=/home/u/.claude/projects/x/9f1c.jsonl imported_at=2025-10-09T07:00:00Z imported_provider=anthropic imported_model=claude-opus-4`,
            }
          : r,
      ),
    );
    expect(await db.query(`select imported_from from sessions`)).toEqual([{ imported_from: 'claude-code' }]);
  });
});

describe('has_transcript and stores', () => {
  it('is false for a session known only from secondary stores, from sessions.db or from a manifest without messages file', async () => {
    const db = await open([
      {
        store: 'hooks-log',
        session_id: 'sHook',
        turn_type: 'system',
        kind: 'hook:agent_start',
        text: 'hook audit: agent_start',
        timestamp_utc: at(0),
      },
      {
        store: 'search-index',
        session_id: 'sIdx',
        source_line: 1,
        turn_type: 'user',
        kind: 'search_document',
        text: 'gone prompt',
      },
      ...startRows('sessions-db', 'sDb'),
      ...startRows('sdk-sessions', 'sMan'),
      // Transcripts: SDK lead messages file, legacy ui_messages.json, legacy api history without ui_messages.
      {
        store: 'sdk-sessions',
        session_id: 'sSdk',
        source_line: 1,
        turn_type: 'user',
        kind: 'text',
        text: 'a',
        timestamp_utc: at(1),
      },
      {
        store: 'cline-tasks',
        session_id: 'tUi',
        source_line: 1,
        turn_type: 'user',
        kind: 'say:task',
        text: 'b',
        timestamp_utc: at(2),
      },
      {
        store: 'vscode-tasks',
        client: 'vscode',
        session_id: 'tApi',
        source_file: files.apiHistory('tApi'),
        source_line: 1,
        turn_type: 'user',
        kind: 'text',
        text: '<task>c</task>',
        timestamp_utc: null,
      },
      // A messages file that is only a parser row is not a transcript.
      {
        store: 'sdk-sessions',
        session_id: 'sBad',
        source_line: null,
        turn_type: 'system',
        kind: 'parser',
        text: 'parser: x: bad',
        is_error: true,
      },
    ]);
    expect(await db.query(`select session_id, has_transcript, stores from sessions order by session_id`)).toEqual([
      { session_id: 'sBad', has_transcript: false, stores: ['sdk-sessions'] },
      { session_id: 'sDb', has_transcript: false, stores: ['sessions-db'] },
      { session_id: 'sHook', has_transcript: false, stores: ['hooks-log'] },
      { session_id: 'sIdx', has_transcript: false, stores: ['search-index'] },
      { session_id: 'sMan', has_transcript: false, stores: ['sdk-sessions'] },
      { session_id: 'sSdk', has_transcript: true, stores: ['sdk-sessions'] },
      { session_id: 'tApi', has_transcript: true, stores: ['vscode-tasks'] },
      { session_id: 'tUi', has_transcript: true, stores: ['cline-tasks'] },
    ]);
  });

  it('has one row per host and session: the same session id on two hosts is two sessions', async () => {
    const db = await open([...startRows('sdk-sessions', 's1'), ...startRows('sdk-sessions', 's1', { host: 'h2' })]);
    expect(await db.query(`select host, session_id from sessions order by host`)).toEqual([
      { host: 'h1', session_id: 's1' },
      { host: 'h2', session_id: 's1' },
    ]);
  });
});

describe('counts', () => {
  it('count the events of a session per turn type (derived and kept secondary rows in, dropped duplicates out); stores list dropped ones too', async () => {
    const t = (line: number, seq: number, fields: TestRow): TestRow => ({
      store: 'sdk-sessions',
      session_id: 's1',
      source_line: line,
      source_seq: seq,
      timestamp_utc: at(line * 10),
      project_path: '/w',
      model: 'm-a',
      provider: 'anthropic',
      ...fields,
    });
    const hook = (line: number, fields: TestRow): TestRow => ({
      store: 'hooks-log',
      session_id: 's1',
      source_line: line,
      project_path: '/w',
      ...fields,
    });
    const db = await open([
      ...startRows('sdk-sessions', 's1'), // system 2
      t(1, 0, { turn_type: 'user', kind: 'text', text: 'add a test' }),
      t(2, 0, { turn_type: 'thinking', kind: 'thinking', text: 'hmm', model: 'm-b' }), // + derived system row
      t(2, 1, { turn_type: 'assistant', kind: 'text', text: 'On it.', model: 'm-b' }),
      t(2, 2, { turn_type: 'tool_use', kind: 'tool_use', tool_use_id: 'toolu_1', text: '{"path":"a.ts"}', model: 'm-b' }),
      t(3, 0, {
        turn_type: 'tool_result',
        kind: 'tool_result',
        tool_use_id: 'toolu_1',
        text: 'ENOENT',
        is_error: true,
        model: 'm-b',
      }),
      t(4, 0, { turn_type: 'assistant', kind: 'text', text: 'Done.', model: 'm-b' }),
      hook(1, { turn_type: 'system', kind: 'hook:agent_start', text: 'hook audit: agent_start', timestamp_utc: at(-1) }), // kept
      hook(2, { turn_type: 'user', kind: 'hook:prompt_submit', text: 'add a test', timestamp_utc: at(10) }), // dropped
      hook(3, { turn_type: 'tool_use', kind: 'hook:tool_call', tool_use_id: 'toolu_1', text: 'a.ts', timestamp_utc: at(20) }), // dropped
      hook(4, { turn_type: 'assistant', kind: 'hook:agent_end', text: 'Done.', timestamp_utc: at(40) }), // dropped
      // The index's copy of the prompt the hook took too: each store's copy goes (one per rule).
      {
        store: 'search-index',
        session_id: 's1',
        source_line: 1,
        turn_type: 'user',
        kind: 'search_document',
        text: 'add a test',
        project_path: '/w',
      },
    ]);
    const [row] = await db.query(
      `select count_rows::INTEGER as rows_, count_user::INTEGER as u, count_assistant::INTEGER as a, count_thinking::INTEGER as th,
              count_tool_use::INTEGER as tu, count_tool_result::INTEGER as tr, count_system::INTEGER as sy, count_errors::INTEGER as err,
              models, project_path, home, client, strftime(first_timestamp_utc, '%H:%M:%S') as first_at,
              strftime(last_timestamp_utc, '%H:%M:%S') as last_at, stores, has_transcript
       from sessions`,
    );
    expect(row).toEqual({
      rows_: 10,
      u: 1,
      a: 2,
      th: 1,
      tu: 1,
      tr: 1,
      sy: 4,
      err: 1,
      models: ['m-a', 'm-b'],
      project_path: '/w',
      home: 'home/u',
      client: 'cline',
      first_at: '07:59:59',
      last_at: '08:00:40',
      stores: ['hooks-log', 'sdk-sessions', 'search-index'],
      has_transcript: true,
    });
    expect((await db.query(`select count(*)::INTEGER as n from duplicates`))[0].n).toBe(4);
  });

  it("takes the project_path of the session's earliest dated row that has one", async () => {
    const db = await open([
      {
        store: 'search-index',
        session_id: 's9',
        source_line: 1,
        turn_type: 'user',
        kind: 'search_document',
        text: 'x',
        project_path: '/undated',
      },
      {
        store: 'hooks-log',
        session_id: 's9',
        turn_type: 'system',
        kind: 'hook:agent_start',
        text: 'hook audit: agent_start',
        project_path: '/later',
        timestamp_utc: at(60),
      },
      {
        store: 'hooks-log',
        session_id: 's9',
        turn_type: 'system',
        kind: 'hook:agent_start',
        text: 'hook audit: agent_start',
        project_path: null,
        timestamp_utc: at(0),
      },
      {
        store: 'hooks-log',
        session_id: 's9',
        turn_type: 'system',
        kind: 'hook:agent_start',
        text: 'hook audit: agent_start',
        project_path: '/earliest',
        timestamp_utc: at(30),
      },
    ]);
    expect(await db.query(`select project_path from sessions`)).toEqual([{ project_path: '/earliest' }]);
  });
});
