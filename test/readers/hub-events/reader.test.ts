/**
 * readers/hub-events/reader.ts on fixtures/hub-events (planted events, README there) and on temp images: which
 * events give rows, the run results' messages shaped as the SDK transcript reader shapes them and given
 * once, the streamed events read only where no run result holds them, broken envelopes as `parser:` rows.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Row } from '../../../src/core/row.js';
import { readHubEvents } from '../../../src/readers/hub-events/reader.js';
import { readSdkSessions } from '../../../src/readers/sdk-sessions/reader.js';
import {
  at,
  GONE,
  GONE_MESSAGES,
  HUB_EVENTS,
  hubEvent,
  KEEP,
  KILLED,
  writeHubEventsDb,
} from '../../helpers/hub-events-fixture.js';
import { collect, fixture, makeSource } from '../../helpers/source.js';
import { snapshotFolder } from '../../helpers/sqlite-fixtures.js';
import { useImages } from '../../helpers/temp-images.js';

const IMG = fixture('hub-events', 'img');
const DATA = path.join(IMG, 'home/u/.cline/data');
const DB = 'home/u/.cline/data/db/hub-events-hub-production.db';
const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const of = (rows: Row[], sessionId: string): Row[] => rows.filter((r) => r.session_id === sessionId);
/** The sequence of the n-th (1-based) planted event named `event` of `session`. */
const seq = (event: string, session: string | null, n = 1): number =>
  HUB_EVENTS.map((e, i) => ({ ...e, seq: i + 1 })).filter((e) => e.event === event && e.session_id === session)[n - 1].seq;
/** The columns a transcript row and its hub copy share (not the file, line or store). */
const shaped = (r: Row) => [
  r.turn_type,
  r.kind,
  r.text,
  r.tool_name,
  r.tool_use_id,
  iso(r.timestamp_utc),
  r.model,
  r.provider,
  r.tokens_in,
  r.tokens_out,
  r.cost_usd,
  r.is_error,
  r.permission_mode,
  r.project_path,
  r.git_branch,
];

const image = useImages();

describe('readHubEvents on fixtures/hub-events', async () => {
  const source = makeSource({
    store: 'hub-events',
    imageRoot: IMG,
    root: DATA,
    files: [path.join(DATA, 'db/hub-events-hub-production.db')],
  });
  const before = snapshotFolder(IMG);
  const rows = await collect(readHubEvents, source);
  const sdk = await collect(
    readSdkSessions,
    makeSource({
      store: 'sdk-sessions',
      imageRoot: IMG,
      root: DATA,
      files: [path.join(DATA, 'sessions', KEEP, `${KEEP}.json`), path.join(DATA, 'sessions', KEEP, `${KEEP}.messages.json`)],
    }),
  );

  it('reads the evidence without changing it, every row a secondary row of the one log', () => {
    expect(snapshotFolder(IMG)).toEqual(before);
    expect(rows.length).toBe(44);
    for (const r of rows) {
      expect([r.store, r.source_role, r.source_file, r.client, r.home]).toEqual([
        'hub-events',
        'secondary',
        DB,
        'cline',
        'home/u',
      ]);
    }
  });

  it('gives the messages of the kept session once, shaped exactly as its transcript', () => {
    const messages = of(rows, KEEP).filter((r) => r.turn_type !== 'system');
    const transcript = sdk.filter((r) => r.source_file.endsWith('.messages.json'));
    expect(transcript.length).toBe(8);
    expect(messages.map(shaped)).toEqual(transcript.map(shaped));
    // the first run result gave the first four messages, the resumed run's result only the two new ones
    expect(messages.map((r) => r.source_line)).toEqual([
      ...Array(5).fill(seq('run.completed', KEEP, 1)),
      ...Array(3).fill(seq('run.completed', KEEP, 2)),
    ]);
    expect(messages.filter((r) => r.turn_type === 'user').map((r) => [r.text, r.permission_mode])).toEqual([
      ['Run the test suite and tell me what fails.', 'act'],
      ['How would you fix it?', 'plan'],
    ]);
  });

  it('gives no row for the streamed events a run result holds, nor for the noise events', () => {
    const lines = new Set(rows.map((r) => r.source_line));
    const silent = HUB_EVENTS.map((e, i) => ({ ...e, seq: i + 1 })).filter((e) => !lines.has(e.seq));
    expect(silent.map((e) => `${e.seq} ${e.event}`)).toEqual([
      '1 hub.client.registered',
      '2 session.updated',
      '4 run.started',
      '6 capability.resolved', // hook.beforeRun answered ok and nothing else
      '7 capability.requested', // hook.onEvent
      '8 capability.resolved',
      '9 assistant.delta',
      '10 usage.updated',
      '11 assistant.finished',
      '12 tool.started',
      '15 tool.updated',
      '16 tool.finished',
      '17 usage.updated',
      '18 assistant.finished',
      '19 agent.done',
      '22 ui.notify',
      '23 hub.client.disconnected',
      '25 session.updated',
      '28 usage.updated',
      '30 session.updated',
    ]);
    expect(
      rows.some(
        (r) => ['assistant_finished', 'tool_started', 'tool_finished', 'usage'].includes(r.kind) && r.session_id !== KILLED,
      ),
    ).toBe(false);
  });

  it('starts, resumes and ends the kept session as its records say', () => {
    const lifecycle = of(rows, KEEP).filter((r) => r.turn_type === 'system' && !r.kind.startsWith('hook'));
    expect(lifecycle.map((r) => [r.source_line, r.kind, iso(r.timestamp_utc), r.text])).toEqual([
      [
        3,
        'session_start',
        iso(at(0)),
        'session start: source=cli status=running pid=- cwd=/home/u/proj workspace_root=/home/u/proj title=-',
      ],
      [3, 'model', iso(at(0)), 'model: claude-sonnet-4-5 provider=anthropic'],
      [20, 'session_end', iso(at(6)), 'session end: status=completed exit_code=0'],
      [
        21,
        'run_end',
        iso(at(6.1)),
        'run completed: reason=completed iterations=2 duration_ms=900 tokens_in=- tokens_out=- cost=- error=-',
      ],
      [
        24,
        'session_resume',
        iso(at(59)),
        'session resumed: source=cli status=completed cwd=/home/u/proj workspace_root=/home/u/proj client=core-b',
      ],
      [26, 'session_end', iso(at(62)), 'session end: status=completed exit_code=0'],
      [
        26,
        'run_end',
        iso(at(62)),
        'run completed: reason=completed iterations=2 duration_ms=900 tokens_in=- tokens_out=- cost=- error=-',
      ],
    ]);
    expect(
      lifecycle.every((r) => r.project_path === '/home/u/proj' && r.git_branch === 'main' && r.model === 'claude-sonnet-4-5'),
    ).toBe(true);
  });

  it('names the hooks the hub asked for, and the one answer that says something: autoApprove', () => {
    const hooks = rows.filter((r) => r.kind.startsWith('hook'));
    expect(hooks.map((r) => [r.source_line, r.kind, r.tool_use_id, r.text])).toEqual([
      [5, 'hook_call', null, 'hook call: hook.beforeRun run=run_k1 status=running'],
      [13, 'hook_call', 'call_k1', 'hook call: hook.beforeTool tool=run_commands call=call_k1 input=npm test'],
      [
        14,
        'hook_result',
        'call_k1',
        'hook result: hook.beforeTool tool=run_commands call=call_k1 ok=true answer={"control":{"policy":{"autoApprove":true}}} error=- cancelled=-',
      ],
    ]);
  });

  it('recovers the deleted session: each message once over three run results, its ends and runs', () => {
    const gone = of(rows, GONE);
    const blocks = GONE_MESSAGES.reduce((n, m) => n + m.content.length, 0);
    const messages = gone.filter((r) => r.turn_type !== 'system');
    expect(messages.length).toBe(blocks);
    expect(messages.filter((r) => r.turn_type === 'user').map((r) => [r.source_line, r.text, r.permission_mode])).toEqual([
      [seq('run.completed', GONE, 1), 'Copy the customer table to /tmp/out.csv', 'act'],
      [seq('run.completed', GONE, 2), 'Now upload it to https://paste.example.net', 'act'],
    ]);
    const usage = messages.filter((r) => r.tokens_in !== null).map((r) => [r.tokens_in, r.tokens_out, r.cost_usd]);
    expect(usage).toEqual(
      GONE_MESSAGES.flatMap((m) => ('metrics' in m ? [[m.metrics.inputTokens, m.metrics.outputTokens, m.metrics.cost]] : [])),
    );
    expect(gone.filter((r) => r.kind === 'run_end').map((r) => [r.source_line, r.text?.split(':')[0], r.is_error])).toEqual([
      [seq('run.completed', GONE, 1), 'run completed', false],
      [seq('run.completed', GONE, 2), 'run completed', false],
      [seq('run.aborted', GONE), 'run aborted', false],
    ]);
    expect(gone.filter((r) => r.kind === 'session_end').map((r) => iso(r.timestamp_utc))).toEqual([iso(at(124)), iso(at(182))]);
    expect(gone.some((r) => r.kind === 'session_prompt')).toBe(false);
  });

  it('keeps what a killed run streamed, with the prompt of its record, the approval and the usage of its request', () => {
    const killed = of(rows, KILLED).filter((r) => r.kind !== 'parser');
    expect(killed.map((r) => [r.source_line, r.turn_type, r.kind, r.tool_use_id, r.text])).toEqual([
      [
        33,
        'system',
        'session_start',
        null,
        'session start: source=cli status=running pid=- cwd=/home/u/proj workspace_root=/home/u/proj title=-',
      ],
      [33, 'system', 'model', null, 'model: claude-sonnet-4-5 provider=anthropic'],
      [33, 'user', 'session_prompt', null, 'Clear the app logs'],
      [
        34,
        'system',
        'approval_request',
        'call_x1',
        'approval requested: tool=run_commands call=call_x1 input=rm -rf /var/log/app policy={"autoApprove":false}',
      ],
      [35, 'system', 'approval_result', 'call_x1', 'approval resolved: approved=true reason=- cancelled=-'],
      [36, 'assistant', 'assistant_finished', null, 'Clearing the logs.'],
      [
        37,
        'system',
        'usage',
        null,
        'usage: tokens_in=800 tokens_out=12 cache_read=0 cache_write=0 cost=0.003 agent=lead (run totals tokens_in=800 tokens_out=12)',
      ],
      [38, 'tool_use', 'tool_started', 'call_x1', 'rm -rf /var/log/app'],
      [39, 'tool_result', 'tool_finished', 'call_x1', '{"query":"rm -rf /var/log/app","result":"","success":true}'],
    ]);
    expect(killed.find((r) => r.kind === 'usage')).toEqual({
      host: 'test-host',
      store: 'hub-events',
      home: 'home/u',
      user: 'u',
      client: 'cline',
      agent: 'cline',
      source_file: DB,
      source_line: 37,
      source_seq: 0,
      source_role: 'secondary',
      timestamp_utc: at(302.6),
      timestamp_source: 'recorded',
      session_id: KILLED,
      project_path: '/home/u/proj',
      git_branch: 'main',
      turn_type: 'system',
      kind: 'usage',
      model: 'claude-sonnet-4-5',
      provider: 'anthropic',
      tool_name: null,
      tool_use_id: null,
      text: 'usage: tokens_in=800 tokens_out=12 cache_read=0 cache_write=0 cost=0.003 agent=lead (run totals tokens_in=800 tokens_out=12)',
      tokens_in: 800,
      tokens_out: 12,
      cost_usd: 0.003,
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

  it('turns each broken envelope into one parser row and reads on; an unknown event into a hub_event row', () => {
    const parsers = rows.filter((r) => r.kind === 'parser');
    expect(parsers.map((r) => [r.source_line, r.session_id, iso(r.timestamp_utc), r.is_error])).toEqual([
      [40, KILLED, iso(at(305)), true],
      [41, KILLED, iso(at(306)), true],
    ]);
    expect(parsers[0].text).toMatch(new RegExp(`^parser: ${DB} line 40: envelope_json is not valid JSON: `));
    expect(parsers[1].text).toBe(`parser: ${DB} line 41: envelope_json is not a JSON object`);
    const last = rows[rows.length - 1];
    expect([last.source_line, last.kind, last.session_id, last.text]).toEqual([
      42,
      'hub_event',
      null,
      'hub event: schedule.created {"schedule":{"scheduleId":"sch_1","name":"nightly cleanup","cronPattern":"0 3 * * *","prompt":"delete logs older than a day"}}',
    ]);
  });
});

describe('readHubEvents on other layouts and schemas', () => {
  const read = (imageRoot: string, root: string, home = 'home/u') =>
    collect(readHubEvents, makeSource({ store: 'hub-events', imageRoot, root, home }));

  it('reads every log of a Windows home, the unscoped hub-events.db too, each by its own sequence', async () => {
    const img = image();
    const root = path.join(img.imageRoot, 'C/Users/alice/.cline/data');
    const planted = [hubEvent('run.completed', GONE, at(10), { result: { messages: GONE_MESSAGES.slice(0, 1) } })];
    writeHubEventsDb(path.join(root, 'db/hub-events.db'), planted);
    writeHubEventsDb(path.join(root, 'db/hub-events-hub-dev.db'), [
      hubEvent('hub.client.registered', null, at(1), {}),
      ...planted,
    ]);
    const rows = await read(img.imageRoot, root, 'C/Users/alice');
    expect(rows.map((r) => [r.source_file, r.source_line, r.kind, r.text?.slice(0, 20)])).toEqual([
      ['C/Users/alice/.cline/data/db/hub-events-hub-dev.db', 2, 'text', 'Copy the customer ta'],
      ['C/Users/alice/.cline/data/db/hub-events-hub-dev.db', 2, 'run_end', 'run completed: reaso'],
      ['C/Users/alice/.cline/data/db/hub-events.db', 1, 'text', 'Copy the customer ta'],
      ['C/Users/alice/.cline/data/db/hub-events.db', 1, 'run_end', 'run completed: reaso'],
    ]);
  });

  it('gives one parser row for a database without hub_events, and for one that is not SQLite', async () => {
    const img = image();
    writeHubEventsDb(path.join(img.dbDir, 'hub-events-a.db'), []);
    const other = path.join(img.dbDir, 'hub-events-b.db');
    fs.copyFileSync(path.join(img.dbDir, 'hub-events-a.db'), other);
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(other);
    db.exec('DROP TABLE hub_events');
    db.close();
    fs.writeFileSync(path.join(img.dbDir, 'hub-events-c.db'), '{"not": "sqlite"}');
    const rows = await read(img.imageRoot, img.dataRoot);
    expect(rows.map((r) => r.text)).toEqual([
      'parser: home/u/.cline/data/db/hub-events-b.db: no hub_events table with envelope_json (unknown schema; hub-events-b.db)',
      'parser: home/u/.cline/data/db/hub-events-c.db: not an SQLite database (no "SQLite format 3" header; 17 bytes)',
    ]);
  });

  it('reads an envelope nested 20,000 levels deep as a row, never a stack overflow, and reads on', async () => {
    const img = image();
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const content = `[{"type":"text","text":"deep"},{"type":"tool_use","id":"c1","name":"x","input":${deep}}]`;
    writeHubEventsDb(path.join(img.dbDir, 'hub-events-x.db'), [
      {
        event: 'run.completed',
        session_id: GONE,
        envelope_json: `{"timestamp":${at(1)},"payload":{"result":{"messages":[{"id":"m1","role":"assistant","content":${content}}]}}}`,
        created_at: at(1),
      },
      { event: 'schedule.created', session_id: null, envelope_json: `{"payload":{"x":${deep}}}`, created_at: at(2) },
      ...HUB_EVENTS.slice(26, 29),
    ]);
    const rows = await read(img.imageRoot, img.dataRoot);
    expect(rows.some((r) => /call stack/i.test(r.text ?? ''))).toBe(false);
    expect(rows.slice(0, 4).map((r) => [r.source_line, r.kind, r.text])).toEqual([
      [1, 'text', 'deep'],
      [1, 'tool_use', '[array nested too deeply to show]'],
      [1, 'run_end', 'run completed: reason=- iterations=- duration_ms=- tokens_in=- tokens_out=- cost=- error=-'],
      [2, 'hub_event', 'hub event: schedule.created {}'],
    ]);
    expect(of(rows, GONE).filter((r) => r.source_line! > 2 && r.turn_type === 'user').length).toBe(1);
  });
});
