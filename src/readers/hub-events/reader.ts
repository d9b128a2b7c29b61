/**
 * Reader of the 3.x CLI hub's event log `~/.cline/data/db/hub-events[-<owner>].db` (cline-formats.md
 * §3.4; cline/cline sdk/packages/core/src/hub/server/hub-event-log.ts), a secondary source: the hub
 * appends every event it publishes, kept 7 days and at most 200,000 rows. It repeats the transcripts of
 * the sessions that still exist, and is the only record left of a session `cline history delete`
 * removed (with the search index). One or more rows per event, in sequence order; source_line is the
 * event's sequence, timestamp_utc the envelope's timestamp (ms), else the message's `ts`.
 *
 * What each event gives:
 *   - run.completed / run.failed / run.aborted / run.interrupted: the messages of `result.messages`
 *     (the session's message list so far) that no earlier run result of the session gave, shaped as the
 *     SDK transcript reader shapes them (shapes/sdk-messages.ts: prompts as typed with permission_mode,
 *     tool_use and tool_result rows, is_error, each message's usage on its first block row), each
 *     message once (by id, else by position); then one `run_end` row (hub-events/activity.ts).
 *   - a session record (session.created, session.updated, session.attached/detached, the run end events):
 *     `session_start`, `model` and `sync` rows at the first session.created (and a `session_prompt` user
 *     row, the first prompt of the record, when no run result holds the session's messages),
 *     `session_resume` at a later one, `session_end` when the status moves into an ended one
 *     (hub-events/session.ts).
 *   - capability.requested / capability.resolved: `hook_call` and `hook_result` rows for the hooks the hub
 *     asks a client to run (hook.beforeRun, hook.beforeTool, ...; a plain answer, ok and empty, gives no
 *     row), `capability_call` / `capability_result` for other capabilities. approval.requested / resolved:
 *     `approval_request` / `approval_result`.
 *   - assistant.finished, reasoning.finished, tool.started, tool.finished, usage.updated: a row only when
 *     no run result of the session holds what the event says (hub-events/coverage.ts), as
 *     `assistant_finished`, `reasoning_finished`, `tool_started`, `tool_finished` and `usage` rows.
 *   - no row (noise): assistant.delta and reasoning.delta (fragments of the text the finished event and
 *     the messages hold), tool.updated (output chunks of what tool.finished holds), iteration.*,
 *     run.started and run.heartbeat, agent.done and ui.notify (repeat the run's end), hub.client.*
 *     (client connections), the records of session.updated / attached / detached beyond the rows above,
 *     and the hook.onEvent capability (the hub forwards every agent event to the client's hooks).
 *   - any other event (schedules, tasks, notices, settings, ...): one `hub_event` row with its payload.
 *   - a record whose envelope_json is not a JSON object: one `parser:` row.
 * Token counts and cost are only on the message rows (as in a transcript) and on `usage` rows, which
 * exist only where no run result holds the request; the duplicate rule (sql/20, sql/22) drops the rows a
 * transcript or manifest of the host already records, so the sums of `events` count each request once.
 *
 * The db is read through a private copy (evidence/sqlite-copy.ts), twice: the run results first (which
 * messages each session's results hold), then every event in sequence order.
 */
import * as path from 'node:path';
import type Database from 'better-sqlite3';
import type { Row, RowFields, Source } from '../../core/row.js';
import { columnsOf, hasTable, ident, type PrivateCopy, storedOrder } from '../../evidence/sqlite-copy.js';
import {
  approvalRequestFields,
  approvalResultFields,
  type CapabilityCall,
  capabilityCallFields,
  capabilityResultFields,
  EVERY_EVENT_HOOK,
  otherEventFields,
  runEndFields,
  streamedFields,
} from './activity.js';
import { type Coverage, coverMessages, holdsMessages, isCovered } from './coverage.js';
import {
  creatorOf,
  envelopeOf,
  type HubEnvelope,
  type HubEventRecord,
  RUN_END_EVENTS,
  runMessagesOf,
  sessionRecordOf,
} from './envelope.js';
import { type HubSessionState, newSessionState, runMessageRows, sessionRecordFields } from './session.js';
import { parserRow, rowFor } from '../common/rows.js';
import { readEvidenceDatabases } from '../common/sqlite-evidence.js';
import { nonEmptyString } from '../common/values.js';

/** Events that give no row of their own (see the header); the session records they carry still count. */
const NOISE: ReadonlySet<string> = new Set([
  'assistant.delta',
  'reasoning.delta',
  'tool.updated',
  'iteration.started',
  'iteration.finished',
  'run.started',
  'run.heartbeat',
  'agent.done',
  'ui.notify',
  'hub.client.registered',
  'hub.client.disconnected',
  'hub.client.updated',
  'session.created',
  'session.updated',
  'session.attached',
  'session.detached',
]);

const STREAMED: ReadonlySet<string> = new Set([
  'assistant.finished',
  'reasoning.finished',
  'tool.started',
  'tool.finished',
  'usage.updated',
]);

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Rows of every hub event log of the source, file by file, in sequence order. */
export async function* readHubEvents(source: Source): AsyncGenerator<Row> {
  yield* readEvidenceDatabases(source, null, (copy, file) => readOne(source, copy, file));
}

/** The SELECT of the events in sequence order (`where`: an extra condition), for the columns the table has. */
function eventsQuery(db: Database.Database, where: string): string | null {
  const columns = columnsOf(db, 'hub_events');
  if (!columns.has('envelope_json')) return null;
  const pick = (c: string): string => (columns.has(c) ? ident(c) : 'NULL');
  const order = columns.has('sequence') ? ident('sequence') : storedOrder(db, 'hub_events');
  const sequence = columns.has('sequence') ? ident('sequence') : order === 'rowid' ? 'rowid' : 'NULL';
  const filter = where === '' ? '' : ` WHERE ${columns.has('event') ? where : 'true'}`;
  return (
    `SELECT ${sequence} AS sequence, ${pick('event')} AS event, ${pick('session_id')} AS session_id, ` +
    `envelope_json, ${pick('created_at')} AS created_at FROM hub_events${filter} ORDER BY ${order}`
  );
}

/** What the run results of the log hold, per session. A failure ends the scan; the second pass reports it. */
function scanRunResults(db: Database.Database, copy: PrivateCopy): Coverage {
  const coverage: Coverage = new Map();
  const names = [...RUN_END_EVENTS].map((e) => `'${e}'`).join(', ');
  const sql = eventsQuery(db, `event IN (${names}) OR event IS NULL`);
  if (sql === null) return coverage;
  try {
    for (const record of db.prepare(sql).iterate() as IterableIterator<HubEventRecord>) {
      const read = envelopeOf(record);
      if (!read.ok || !RUN_END_EVENTS.has(read.envelope.event)) continue;
      const messages = runMessagesOf(read.envelope.payload);
      if (messages !== null) coverMessages(coverage, read.envelope.session_id, messages);
    }
  } catch (err) {
    const own = copy.ownFault(err);
    if (own) throw own;
  }
  return coverage;
}

async function* readOne(source: Source, copy: PrivateCopy, file: string): AsyncGenerator<Row> {
  let last: number | null = null;
  try {
    const db = copy.db;
    const sql = hasTable(db, 'hub_events') ? eventsQuery(db, '') : null;
    if (sql === null) {
      yield parserRow(source, file, null, `no hub_events table with envelope_json (unknown schema; ${path.basename(file)})`);
      return;
    }
    const log = newLogState(scanRunResults(db, copy));
    let position = 0;
    for (const record of db.prepare(sql).iterate() as IterableIterator<HubEventRecord>) {
      position += 1;
      const line = Number.isSafeInteger(record.sequence) ? record.sequence : position;
      last = line;
      yield* eventRows(source, file, log, { ...record, sequence: line });
    }
  } catch (err) {
    const own = copy.ownFault(err);
    if (own) throw own;
    const where = last === null ? '' : ` after sequence ${last}`;
    yield parserRow(source, file, null, `reading hub_events failed${where}: ${message(err)}`);
  }
}

/** What the reader keeps while it reads one log. */
interface LogState {
  coverage: Coverage;
  sessions: Map<string, HubSessionState>;
  /** Capability and approval requests not answered yet, by request id (the answer names only the id). */
  calls: Map<string, CapabilityCall>;
}

function newLogState(coverage: Coverage): LogState {
  return { coverage, sessions: new Map(), calls: new Map() };
}

function sessionState(log: LogState, sessionId: string | null): HubSessionState {
  const key = sessionId ?? '';
  let state = log.sessions.get(key);
  if (!state) {
    state = newSessionState(sessionId);
    log.sessions.set(key, state);
  }
  return state;
}

/** The rows of one event, in order; a throw while shaping them costs this event only (one `parser:` row). */
function eventRows(source: Source, file: string, log: LogState, record: HubEventRecord): Row[] {
  const line = record.sequence;
  const read = envelopeOf(record);
  if (!read.ok) {
    return [parserRow(source, file, line, read.problem, { session_id: read.session_id, timestamp_utc: read.timestamp_ms })];
  }
  const envelope = read.envelope;
  try {
    return shapeEvent(source, file, log, envelope, line);
  } catch (err) {
    return [
      parserRow(source, file, line, `${envelope.event} not read: ${message(err)}`, {
        session_id: envelope.session_id,
        timestamp_utc: envelope.timestamp_ms,
      }),
    ];
  }
}

function shapeEvent(source: Source, file: string, log: LogState, envelope: HubEnvelope, line: number): Row[] {
  const { event, payload, session_id: sessionId, timestamp_ms: ts } = envelope;
  const state = sessionState(log, sessionId);
  const rows: Row[] = [];
  /** A row of this event: its place and time, the session's project, branch and model unless the fields say. */
  const add = (fields: RowFields): void => {
    rows.push(
      rowFor(source, file, {
        session_id: sessionId,
        project_path: state.project_path,
        git_branch: state.git_branch,
        timestamp_utc: ts,
        ...fields,
        model: fields.model ?? state.model,
        provider: fields.provider ?? state.provider,
        source_line: line,
        source_seq: rows.length,
      }),
    );
  };
  const record = sessionId === null ? null : sessionRecordOf(payload, sessionId);
  if (record !== null) {
    const withPrompt = !holdsMessages(log.coverage, sessionId);
    for (const fields of sessionRecordFields(state, event, record, creatorOf(payload), ts, withPrompt)) add(fields);
  }

  if (RUN_END_EVENTS.has(event)) {
    rows.push(...runMessageRows(source, file, state, runMessagesOf(payload) ?? [], line, rows.length));
    add(runEndFields(event, payload));
  } else if (STREAMED.has(event)) {
    const fields = isCovered(log.coverage, sessionId, event, payload) ? null : streamedFields(event, payload);
    if (fields !== null) add(fields);
  } else if (event === 'capability.requested') {
    const requestId = nonEmptyString(payload.requestId);
    if (payload.capabilityName === EVERY_EVENT_HOOK) return rows;
    const { fields, call } = capabilityCallFields(payload);
    if (requestId !== null) log.calls.set(requestId, call);
    add(fields);
  } else if (event === 'capability.resolved') {
    const requestId = nonEmptyString(payload.requestId);
    const call = requestId === null ? null : (log.calls.get(requestId) ?? null);
    if (requestId !== null) log.calls.delete(requestId);
    const fields = payload.capabilityName === EVERY_EVENT_HOOK ? null : capabilityResultFields(payload, call);
    if (fields !== null) add(fields);
  } else if (event === 'approval.requested') {
    const fields = approvalRequestFields(payload);
    const approvalId = nonEmptyString(payload.approvalId);
    if (approvalId !== null)
      log.calls.set(approvalId, {
        name: 'approval',
        tool_name: fields.tool_name ?? null,
        tool_use_id: fields.tool_use_id ?? null,
      });
    add(fields);
  } else if (event === 'approval.resolved') {
    const approvalId = nonEmptyString(payload.approvalId);
    add(approvalResultFields(payload, approvalId === null ? null : (log.calls.get(approvalId) ?? null)));
    if (approvalId !== null) log.calls.delete(approvalId);
  } else if (!NOISE.has(event)) {
    add(otherEventFields(event, payload));
  }
  return rows;
}
