/**
 * sql/10 to sql/12 (int_legacy_failed_rows, int_legacy_result_pairs, int_primary_events) and sql/13_int_secondary_events.sql on hand-made rows: the sessions.db
 * stand-in rule, model_usage facts kept out of the timeline, and the project_path each takes from
 * another record (sync-queue from taskHistory, search-index from the SDK manifest).
 */
import { describe, expect, it } from 'vitest';
import type { AgentId } from '../../src/core/root-kinds.js';
import { files, useModelDbs, type TestRow } from '../helpers/models.js';

const T0 = Date.parse('2025-10-09T08:00:00.000Z');

const open = useModelDbs();

/** The session start / model rows a manifest or a sessions.db row yields (readers/shapes/session-start.ts). */
function startRows(store: 'sdk-sessions' | 'sessions-db', sid: string, extra: TestRow = {}): TestRow[] {
  const common: TestRow = {
    store,
    session_id: sid,
    timestamp_utc: T0,
    turn_type: 'system',
    model: 'claude-sonnet-4',
    provider: 'anthropic',
    ...extra,
  };
  return [
    {
      ...common,
      source_seq: 0,
      kind: 'session_start',
      text: 'session start: source=cli status=completed pid=1 cwd=/w workspace_root=/w title=-',
    },
    { ...common, source_seq: 1, kind: 'model', text: 'model: claude-sonnet-4 provider=anthropic' },
  ];
}

describe('sessions.db rows', () => {
  it('are kept only for sessions with no SDK manifest session_start on the same host', async () => {
    const db = await open([
      ...startRows('sdk-sessions', 'sA', { source_line: 1 }),
      ...startRows('sessions-db', 'sA', { source_line: 1 }), // manifest on h1: dropped
      ...startRows('sessions-db', 'sB', { source_line: 2 }), // no manifest: kept
      ...startRows('sessions-db', 'sA', { source_line: 1, host: 'h2' }), // manifest only on h1: kept on h2
      // A transcript row without a manifest session_start does not count as a manifest.
      { store: 'sdk-sessions', session_id: 'sC', source_line: 1, turn_type: 'user', kind: 'text', text: 'hi', timestamp_utc: T0 },
      ...startRows('sessions-db', 'sC', { source_line: 3 }),
    ]);
    const rows = await db.query(
      `select host, session_id, kind from events where store = 'sessions-db' order by host, session_id, source_seq`,
    );
    expect(rows).toEqual([
      { host: 'h1', session_id: 'sB', kind: 'session_start' },
      { host: 'h1', session_id: 'sB', kind: 'model' },
      { host: 'h1', session_id: 'sC', kind: 'session_start' },
      { host: 'h1', session_id: 'sC', kind: 'model' },
      { host: 'h2', session_id: 'sA', kind: 'session_start' },
      { host: 'h2', session_id: 'sA', kind: 'model' },
    ]);
    expect((await db.query(`select count(*)::INTEGER as n from events where store = 'sdk-sessions'`))[0].n).toBe(3);
  });
});

describe('model_usage facts', () => {
  it('are not timeline rows: neither in int_primary_events nor, as such, in events', async () => {
    const db = await open([
      {
        store: 'vscode-tasks',
        client: 'vscode',
        session_id: 't1',
        source_line: 1,
        turn_type: 'system',
        kind: 'model_usage',
        model: 'claude-3-5-sonnet',
        provider: 'anthropic',
        permission_mode: 'act',
        text: 'model usage: model_id=claude-3-5-sonnet model_provider_id=anthropic mode=act',
        timestamp_utc: T0,
      },
      {
        store: 'vscode-tasks',
        client: 'vscode',
        session_id: 't1',
        source_line: 1,
        turn_type: 'system',
        kind: 'environment_history',
        source_file: files.taskMetadata('t1'),
        text: 'environment: os_name=linux',
        timestamp_utc: T0,
      },
    ]);
    expect((await db.query(`select count(*)::INTEGER as n from int_primary_events where kind = 'model_usage'`))[0].n).toBe(0);
    expect((await db.query(`select kind from events order by kind`)).map((r) => r.kind)).toEqual([
      'environment_history',
      'model',
      'permission',
    ]);
  });
});

describe('sync-queue project_path', () => {
  const SYNCED =
    'session synced: enterprise prompt upload synced key api_conversation_history.json retries 0 (from saoudrizwan.claude-dev/cache/sync-queue.json, item timestamp)';
  const syncRow = (line: number, sid: string, extra: TestRow = {}): TestRow => ({
    store: 'sync-queue',
    client: 'vscode',
    session_id: sid,
    source_line: line,
    turn_type: 'system',
    kind: 'sync',
    sync_target: 'enterprise upload queue: api_conversation_history.json',
    text: SYNCED,
    timestamp_utc: T0,
    ...extra,
  });
  const historyRow = (line: number, sid: string, cwd: string, extra: TestRow = {}): TestRow => ({
    store: 'vscode-tasks',
    client: 'vscode',
    session_id: sid,
    source_line: line,
    turn_type: 'system',
    kind: 'task_history',
    project_path: cwd,
    text: 'task history: fix tests',
    timestamp_utc: T0,
    ...extra,
  });

  it("comes from the task's taskHistory entry (cwdOnTaskInitialization); a task not in the history keeps none", async () => {
    const db = await open([
      historyRow(1, '1760000000000', 'C:/work/app'),
      syncRow(1, '1760000000000'),
      syncRow(2, '1760000099999'),
    ]);
    const rows = await db.query(`select session_id, project_path from events where store = 'sync-queue' order by source_line`);
    expect(rows).toEqual([
      { session_id: '1760000000000', project_path: 'C:/work/app' },
      { session_id: '1760000099999', project_path: null },
    ]);
  });

  it('only sync-queue rows take it: another row of the task with no project_path keeps none', async () => {
    const db = await open([
      historyRow(1, '1760000000000', 'C:/work/app'),
      {
        store: 'settings',
        client: 'vscode',
        session_id: '1760000000000',
        source_line: 1,
        turn_type: 'system',
        kind: 'sync',
        text: 'x',
        timestamp_utc: T0,
      },
    ]);
    expect(await db.query(`select project_path from events where store = 'settings'`)).toEqual([{ project_path: null }]);
  });

  it('never comes from another host', async () => {
    const db = await open([historyRow(1, '1760000000000', 'C:/work/app', { host: 'h2' }), syncRow(1, '1760000000000')]);
    expect(await db.query(`select project_path from events where store = 'sync-queue'`)).toEqual([{ project_path: null }]);
  });

  // The spec takes project_path from "the task's cwdOnTaskInitialization from state/taskHistory.json", i.e.
  // the taskHistory.json of the same home as the sync-queue.json: the same task id can sit in two homes of
  // one host (a copied profile, Windows.old).
  it('comes from the taskHistory of the same home, not from another home of the host', async () => {
    const db = await open([
      historyRow(1, '1760000000000', '/home/b/other', { home: 'home/b' }),
      historyRow(1, '1760000000000', '/home/u/app'),
      syncRow(1, '1760000000000', { home: 'home/b' }),
      syncRow(1, '1760000000000'),
    ]);
    expect(await db.query(`select home, project_path from events where store = 'sync-queue' order by home`)).toEqual([
      { home: 'home/b', project_path: '/home/b/other' },
      { home: 'home/u', project_path: '/home/u/app' },
    ]);
  });
});

describe('search-index project_path', () => {
  const doc = (sid: string, extra: TestRow = {}): TestRow => ({
    store: 'search-index',
    session_id: sid,
    source_line: 1,
    turn_type: 'user',
    kind: 'search_document',
    project_path: '/index/root',
    text: 'not in any transcript',
    ...extra,
  });

  it("is the manifest's project_path (cwd, else workspace_root) when the manifest is on the host, else the index's", async () => {
    const db = await open([
      ...startRows('sdk-sessions', 's1', { project_path: '/manifest/cwd' }),
      doc('s1'),
      doc('s1', { source_line: null, turn_type: 'system', kind: 'search_index_session', text: 'session search index: title=-' }),
      doc('s2'), // no manifest at all
      doc('s3', { host: 'h2' }), // s1's manifest is on h1 only
      ...startRows('sessions-db', 's4', { project_path: '/db/cwd' }), // sessions.db is not the manifest
      doc('s4'),
    ]);
    const rows = await db.query(
      `select host, session_id, kind, project_path from events where store = 'search-index' order by host, session_id, kind`,
    );
    expect(rows).toEqual([
      { host: 'h1', session_id: 's1', kind: 'search_document', project_path: '/manifest/cwd' },
      { host: 'h1', session_id: 's1', kind: 'search_index_session', project_path: '/manifest/cwd' },
      { host: 'h1', session_id: 's2', kind: 'search_document', project_path: '/index/root' },
      { host: 'h1', session_id: 's4', kind: 'search_document', project_path: '/index/root' },
      { host: 'h2', session_id: 's3', kind: 'search_document', project_path: '/index/root' },
    ]);
  });

  it('does not replace the project_path of the other secondary stores', async () => {
    const db = await open([
      ...startRows('sdk-sessions', 's1', { project_path: '/manifest/cwd' }),
      {
        store: 'hooks-log',
        session_id: 's1',
        turn_type: 'system',
        kind: 'hook:agent_start',
        project_path: '/hook/root',
        text: 'hook audit: agent_start',
        timestamp_utc: T0,
      },
    ]);
    expect(await db.query(`select project_path from events where store = 'hooks-log'`)).toEqual([{ project_path: '/hook/root' }]);
  });
});

describe('task history totals (one place for totals)', () => {
  const request = (store: string, agent: AgentId, sid: string): TestRow => ({
    store: store as TestRow['store'],
    agent,
    session_id: sid,
    turn_type: 'system',
    kind: 'say:api_req_started',
    text: 'api request',
    tokens_in: 700,
    tokens_out: 30,
    timestamp_utc: T0,
  });
  const history = (store: string, agent: AgentId, sid: string): TestRow => ({
    store: store as TestRow['store'],
    agent,
    session_id: sid,
    turn_type: 'system',
    kind: 'task_history',
    text: 'task history: build the page',
    tokens_in: 700,
    tokens_out: 30,
    timestamp_utc: T0,
  });

  it("counts a Roo Code or Kilo Code task's totals once: its requests', not its history item's again", async () => {
    const db = await open([
      request('roo-tasks', 'roo-code', 'r1'),
      history('roo-tasks', 'roo-code', 'r1'),
      request('kilo-tasks', 'kilo-code', 'k1'),
      history('vscode-state', 'kilo-code', 'k1'),
    ]);
    const rows = await db.query(`select session_id, sum(tokens_in)::INTEGER as t from events group by all order by all`);
    expect(rows).toEqual([
      { session_id: 'k1', t: 700 },
      { session_id: 'r1', t: 700 },
    ]);
  });

  it("keeps the history item's totals of another agent's task under the same id", async () => {
    const db = await open([request('roo-tasks', 'roo-code', 'x1'), history('vscode-state', 'kilo-code', 'x1')]);
    const rows = await db.query(`select agent, sum(tokens_in)::INTEGER as t from events group by all order by all`);
    expect(rows).toEqual([
      { agent: 'kilo-code', t: 700 },
      { agent: 'roo-code', t: 700 },
    ]);
  });
});
