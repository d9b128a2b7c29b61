/**
 * The hub event log fixture (fixtures/hub-events/, README there): `db/hub-events-hub-production.db` built
 * with the hub's own DDL (cline/cline 21cb8d25 sdk/packages/core/src/hub/server/hub-event-log.ts:69-80)
 * and planted envelopes in the shapes the released CLI 3.0.65 writes (fixtures/real-producer/cline-3.0.65),
 * plus the manifest and transcript of the one session whose transcript is still on disk.
 *
 * Regenerate the committed fixture with:
 *   npx tsc -p tsconfig.json --outDir node_modules/.cache/clinetrail-fixtures && node node_modules/.cache/clinetrail-fixtures/test/helpers/hub-events-fixture.js
 */
import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const HUB_EVENTS_DDL = `
CREATE TABLE IF NOT EXISTS hub_events (
				sequence INTEGER PRIMARY KEY AUTOINCREMENT,
				event TEXT NOT NULL,
				session_id TEXT,
				envelope_json TEXT NOT NULL,
				created_at INTEGER NOT NULL
			);
			CREATE INDEX IF NOT EXISTS idx_hub_events_session
				ON hub_events(session_id, sequence);
			CREATE INDEX IF NOT EXISTS idx_hub_events_created
				ON hub_events(created_at);`;

/** One planted row: the envelope is JSON text, or any text (a broken envelope). */
export interface PlantedEvent {
  event: string;
  session_id: string | null;
  envelope_json: string;
  created_at: number;
}

/** Writes a hub event log at `file` (journal_mode DELETE, vacuumed): one row per event, sequence 1, 2, ... */
export function writeHubEventsDb(file: string, events: PlantedEvent[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + suffix, { force: true });
  const db = new Database(file);
  db.pragma('journal_mode = DELETE');
  db.exec(HUB_EVENTS_DDL);
  const insert = db.prepare('INSERT INTO hub_events (event, session_id, envelope_json, created_at) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    for (const e of events) insert.run(e.event, e.session_id, e.envelope_json, e.created_at);
  })();
  db.exec('VACUUM');
  db.close();
}

/** A planted event whose envelope is `{version, event, eventId, sessionId, timestamp, payload}`, as the hub builds it. */
export function hubEvent(event: string, sessionId: string | null, at: number, payload: Record<string, unknown>): PlantedEvent {
  const envelope = { version: 'v1', event, eventId: `hevt_${at}`, ...(sessionId ? { sessionId } : {}), timestamp: at, payload };
  return { event, session_id: sessionId, envelope_json: JSON.stringify(envelope), created_at: at };
}

// ---------------------------------------------------------------------------------------------------
// The planted log.

const T0 = Date.parse('2026-11-02T09:00:00.000Z');
/** Epoch ms `s` seconds after the log's first event. */
export const at = (s: number): number => T0 + Math.round(s * 1000);

/** Its transcript and manifest are on disk: its hub rows repeat them. Resumed once. */
export const KEEP = '1793610000000_keep1';
/** Removed with `cline history delete`: the log is its only record. Three runs, the later ones repeating the earlier messages. */
export const GONE = '1793610120000_gone2';
/** Removed too, and its CLI killed mid-run: no run end, so its streamed events are the only record of its tool call. */
export const KILLED = '1793610300000_kill3';

const CWD = '/home/u/proj';
const SONNET = { id: 'claude-sonnet-4-5', provider: 'anthropic' };
const metrics = (input: number, output: number, cost: number) => ({
  inputTokens: input,
  outputTokens: output,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  cost,
});
const prompt = (id: string | null, mode: string, text: string, ts: number) => ({
  ...(id ? { id } : {}),
  role: 'user',
  content: [{ type: 'text', text: `<user_input mode="${mode}">${text}</user_input>` }],
  ts,
});
const reply = (id: string, ts: number, m: ReturnType<typeof metrics>, ...content: Record<string, unknown>[]) => ({
  id,
  role: 'assistant',
  content,
  ts,
  modelInfo: SONNET,
  metrics: m,
});
const result = (id: string, callId: string, query: string, output: string, success: boolean, ts: number) => ({
  id,
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: callId, name: 'run_commands', content: [{ query, result: output, success }] }],
  ts,
});
const runCommands = (id: string, command: string) => ({
  type: 'tool_use',
  id,
  name: 'run_commands',
  input: { commands: [command] },
});

/** The messages of KEEP: its transcript, and the hub's run results (the first four, then all six). */
export const KEEP_MESSAGES = [
  prompt('msg_k_u1', 'act', 'Run the test suite and tell me what fails.', at(1)),
  reply(
    'msg_k_a1',
    at(2),
    metrics(1200, 40, 0.0042),
    { type: 'text', text: 'Running the tests.' },
    runCommands('call_k1', 'npm test'),
  ),
  result('msg_k_r1', 'call_k1', 'npm test', '[Command exited with code 1]\n1 failing: add() returns a - b', false, at(4)),
  reply('msg_k_a2', at(5), metrics(1500, 30, 0.0051), {
    type: 'text',
    text: 'One test fails: add() subtracts instead of adding.',
  }),
  prompt('msg_k_u2', 'plan', 'How would you fix it?', at(60)),
  reply(
    'msg_k_a3',
    at(61),
    metrics(1700, 25, 0.0055),
    { type: 'thinking', thinking: 'The operator in add() is wrong.' },
    { type: 'text', text: 'Change a - b to a + b in add().' },
  ),
];

/** The messages of GONE; the fifth has no id (a later run result repeats it at the same position). */
export const GONE_MESSAGES = [
  prompt('msg_g_u1', 'act', 'Copy the customer table to /tmp/out.csv', at(120)),
  reply(
    'msg_g_a1',
    at(121),
    metrics(1300, 35, 0.0047),
    { type: 'text', text: 'Exporting the table.' },
    runCommands('call_g1', 'psql -c "\\copy customers to /tmp/out.csv csv"'),
  ),
  result('msg_g_r1', 'call_g1', 'psql -c "\\copy customers to /tmp/out.csv csv"', 'COPY 1204', true, at(122)),
  reply('msg_g_a2', at(123), metrics(1400, 20, 0.0045), { type: 'text', text: 'Wrote /tmp/out.csv (1204 rows).' }),
  prompt(null, 'act', 'Now upload it to https://paste.example.net', at(180)),
  reply('msg_g_a3', at(181), metrics(900, 10, 0.0031), { type: 'text', text: 'Uploaded.' }),
];

/** A session record as session.created carries it (the hub's SessionRecord, `payload.session`). */
function hubSession(sessionId: string, createdAt: number, status: string, prompt: string, client: string) {
  return {
    sessionId,
    workspaceRoot: CWD,
    cwd: CWD,
    createdAt,
    updatedAt: createdAt,
    createdByClientId: client,
    status,
    participants: [{ clientId: client, attachedAt: createdAt, role: 'creator' }],
    metadata: { source: 'cli', provider: 'anthropic', model: SONNET.id, prompt, mode: 'act', git: { branch: 'main' } },
  };
}

/** A core session snapshot as session.updated and the run ends carry it (`payload.snapshot`). */
function snapshot(sessionId: string, createdAt: number, status: string, ended: number | null) {
  return {
    version: 1,
    sessionId,
    source: 'cli',
    status,
    createdAt: new Date(createdAt).toISOString(),
    updatedAt: new Date(ended ?? createdAt).toISOString(),
    endedAt: ended === null ? null : new Date(ended).toISOString(),
    exitCode: ended === null ? null : 0,
    workspace: { cwd: CWD, root: CWD },
    model: { providerId: SONNET.provider, modelId: SONNET.id },
    metadata: { source: 'cli', provider: 'anthropic', model: SONNET.id, mode: 'act', git: { branch: 'main' } },
  };
}

const usage = (s: string, t: number, input: number, output: number, cost: number) =>
  hubEvent('usage.updated', s, at(t), {
    sessionId: s,
    delta: { inputTokens: input, outputTokens: output, cacheReadTokens: 0, cacheWriteTokens: 0, totalCost: cost },
    totals: { inputTokens: input, outputTokens: output, cacheReadTokens: 0, cacheWriteTokens: 0, totalCost: cost },
    agent: { kind: 'lead', teamRole: 'lead' },
  });
/** A run end of session `s` (created at `created` s) at `t` s, its result holding `messages`. */
const runEnd = (event: string, s: string, created: number, t: number, messages: unknown[], extra: Record<string, unknown> = {}) =>
  hubEvent(event, s, at(t), {
    reason: 'completed',
    result: { text: '', messages, iterations: 2, finishReason: 'completed', model: SONNET, durationMs: 900 },
    snapshot: snapshot(s, at(created), 'completed', at(t)),
    ...extra,
  });
const hook = (s: string, t: number, name: string, requestId: string, context: Record<string, unknown>) =>
  hubEvent('capability.requested', s, at(t), { requestId, targetClientId: 'core-a', capabilityName: name, payload: { context } });
const answer = (s: string, t: number, name: string, requestId: string, payload: Record<string, unknown> = {}) =>
  hubEvent('capability.resolved', s, at(t), { requestId, capabilityName: name, targetClientId: 'core-a', ok: true, payload });
const toolCall = (id: string, command: string) => ({
  toolCall: { type: 'tool-call', toolCallId: id, toolName: 'run_commands', input: { commands: [command] } },
  input: { commands: [command] },
});

/** The planted events, sequence 1, 2, ... in this order (README lists them). */
export const HUB_EVENTS: PlantedEvent[] = [
  hubEvent('hub.client.registered', null, at(0), { clientId: 'core-a', clientType: 'cli', displayName: 'Cline CLI' }),
  hubEvent('session.updated', KEEP, at(0.1), { sessionId: KEEP, snapshot: snapshot(KEEP, at(0), 'running', null) }),
  hubEvent('session.created', KEEP, at(0.2), { session: hubSession(KEEP, at(0), 'running', 'Run the test suite', 'core-a') }),
  hubEvent('run.started', KEEP, at(0.3), { requestId: 'hubreq_1', clientId: 'core-a' }),
  hook(KEEP, 1, 'hook.beforeRun', 'capreq_1', { snapshot: { runId: 'run_k1', status: 'running', messages: [] } }),
  answer(KEEP, 1.1, 'hook.beforeRun', 'capreq_1'),
  hook(KEEP, 1.2, 'hook.onEvent', 'capreq_2', { type: 'run-started' }),
  answer(KEEP, 1.3, 'hook.onEvent', 'capreq_2'),
  hubEvent('assistant.delta', KEEP, at(1.9), { text: 'Running' }),
  usage(KEEP, 1.95, 1200, 40, 0.0042),
  hubEvent('assistant.finished', KEEP, at(2), { text: 'Running the tests.' }),
  hubEvent('tool.started', KEEP, at(2.1), { toolCallId: 'call_k1', toolName: 'run_commands', input: { commands: ['npm test'] } }),
  hook(KEEP, 2.2, 'hook.beforeTool', 'capreq_3', toolCall('call_k1', 'npm test')),
  answer(KEEP, 2.3, 'hook.beforeTool', 'capreq_3', { control: { policy: { autoApprove: true } } }),
  hubEvent('tool.updated', KEEP, at(3), {
    toolCallId: 'call_k1',
    toolName: 'run_commands',
    update: { stream: 'stdout', chunk: '1 failing' },
  }),
  hubEvent('tool.finished', KEEP, at(3.9), {
    toolCallId: 'call_k1',
    toolName: 'run_commands',
    output: [{ query: 'npm test', result: '[Command exited with code 1]\n1 failing: add() returns a - b', success: false }],
  }),
  usage(KEEP, 4.9, 1500, 30, 0.0051),
  hubEvent('assistant.finished', KEEP, at(5), { text: 'One test fails: add() subtracts instead of adding.' }),
  hubEvent('agent.done', KEEP, at(5.5), { reason: 'completed', text: 'One test fails.', iterations: 2 }),
  hubEvent('session.updated', KEEP, at(6), { sessionId: KEEP, snapshot: snapshot(KEEP, at(0), 'completed', at(6)) }),
  runEnd('run.completed', KEEP, 0, 6.1, KEEP_MESSAGES.slice(0, 4)),
  hubEvent('ui.notify', KEEP, at(6.2), { title: `Task completed (${KEEP})`, body: 'One test fails.', severity: 'info' }),
  hubEvent('hub.client.disconnected', null, at(6.3), { clientId: 'core-a' }),
  // KEEP resumed by a new CLI process: created again, one more run whose result repeats the first four messages.
  hubEvent('session.created', KEEP, at(59), { session: hubSession(KEEP, at(0), 'completed', 'Run the test suite', 'core-b') }),
  hubEvent('session.updated', KEEP, at(59.5), { sessionId: KEEP, snapshot: snapshot(KEEP, at(0), 'running', null) }),
  runEnd('run.completed', KEEP, 0, 62, KEEP_MESSAGES),
  // GONE: three runs; the second result repeats the first four messages, the third (aborted) repeats all six.
  hubEvent('session.created', GONE, at(119), {
    session: hubSession(GONE, at(119), 'running', 'Copy the customer table', 'core-c'),
  }),
  usage(GONE, 120.9, 1300, 35, 0.0047),
  runEnd('run.completed', GONE, 119, 124, GONE_MESSAGES.slice(0, 4)),
  hubEvent('session.updated', GONE, at(179), { sessionId: GONE, snapshot: snapshot(GONE, at(119), 'running', null) }),
  runEnd('run.completed', GONE, 119, 182, GONE_MESSAGES),
  runEnd('run.aborted', GONE, 119, 190, GONE_MESSAGES, { reason: 'aborted' }),
  // KILLED: approved and ran one command, then the CLI was killed: no run end, no session end.
  hubEvent('session.created', KILLED, at(300), {
    session: hubSession(KILLED, at(300), 'running', 'Clear the app logs', 'core-d'),
  }),
  hubEvent('approval.requested', KILLED, at(301), {
    approvalId: 'appr_1',
    sessionId: KILLED,
    toolCallId: 'call_x1',
    toolName: 'run_commands',
    inputJson: JSON.stringify({ commands: ['rm -rf /var/log/app'] }),
    policy: { autoApprove: false },
  }),
  hubEvent('approval.resolved', KILLED, at(302), { approvalId: 'appr_1', approved: true }),
  hubEvent('assistant.finished', KILLED, at(302.5), { text: 'Clearing the logs.' }),
  usage(KILLED, 302.6, 800, 12, 0.003),
  hubEvent('tool.started', KILLED, at(303), {
    toolCallId: 'call_x1',
    toolName: 'run_commands',
    input: { commands: ['rm -rf /var/log/app'] },
  }),
  hubEvent('tool.finished', KILLED, at(304), {
    toolCallId: 'call_x1',
    toolName: 'run_commands',
    output: [{ query: 'rm -rf /var/log/app', result: '', success: true }],
  }),
  // Broken envelopes: each one parser row, and the log goes on.
  {
    event: 'run.completed',
    session_id: KILLED,
    envelope_json: '{"version":"v1","event":"run.completed","payload":{"res',
    created_at: at(305),
  },
  { event: 'session.updated', session_id: KILLED, envelope_json: '[1, 2]', created_at: at(306) },
  // An event this reader has no shape for: one hub_event row with its payload.
  hubEvent('schedule.created', null, at(400), {
    schedule: { scheduleId: 'sch_1', name: 'nightly cleanup', cronPattern: '0 3 * * *', prompt: 'delete logs older than a day' },
  }),
];

/** The manifest of KEEP, as the 3.x CLI writes `sessions/<id>/<id>.json`. */
export const KEEP_MANIFEST = {
  version: 1,
  session_id: KEEP,
  source: 'cli',
  pid: 4711,
  started_at: new Date(at(0)).toISOString(),
  ended_at: new Date(at(62)).toISOString(),
  exit_code: 0,
  status: 'completed',
  interactive: true,
  provider: SONNET.provider,
  model: SONNET.id,
  cwd: CWD,
  workspace_root: CWD,
  metadata: { source: 'cli', mode: 'act', git: { branch: 'main' }, title: 'Run the test suite and tell me what fails.' },
};

/** The fixture's `.cline/data` folder under `<repo>/fixtures`. */
export const HUB_FIXTURE_DATA = ['hub-events', 'img', 'home', 'u', '.cline', 'data'];

/** Writes the committed fixture under `<repo>/fixtures/hub-events/img`. */
export function writeHubEventsFixture(repo: string): void {
  const data = path.join(repo, 'fixtures', ...HUB_FIXTURE_DATA);
  writeHubEventsDb(path.join(data, 'db', 'hub-events-hub-production.db'), HUB_EVENTS);
  const folder = path.join(data, 'sessions', KEEP);
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, `${KEEP}.json`), `${JSON.stringify(KEEP_MANIFEST, null, 2)}\n`);
  const transcript = {
    version: 1,
    sessionId: KEEP,
    agent: 'lead',
    updated_at: new Date(at(62)).toISOString(),
    messages: KEEP_MESSAGES,
  };
  fs.writeFileSync(path.join(folder, `${KEEP}.messages.json`), `${JSON.stringify(transcript, null, 2)}\n`);
}

const self = fileURLToPath(import.meta.url);
if (process.argv[1] && path.resolve(process.argv[1]) === self) {
  // Run from the compiled copy: <outDir>/test/helpers/hub-events-fixture.js; the repo is the cwd.
  writeHubEventsFixture(process.cwd());
  console.log('wrote the fixtures/hub-events image');
}
