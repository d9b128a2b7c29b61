/**
 * The records of the 3.x CLI hub's event log, `db/hub-events[-<owner>].db` (cline-formats.md §3.4): the
 * `hub_events` table row, the event envelope it stores as JSON (`HubEventEnvelope`,
 * sdk/packages/shared/src/hub.ts), and the session record an envelope may carry, read as a manifest is
 * (`SessionRecord`, shapes/session-start.ts). Source: cline/cline sdk/packages/core/src/hub/server/
 * hub-event-log.ts (the table), handlers/session-event-projector.ts and run-handlers.ts (the payloads).
 */
import type { SessionRecord } from '../shapes/session-start.js';
import { epochMs, wholeNumber, plainObject, nonEmptyString } from '../common/values.js';

/** One row of `hub_events` as selected: `sequence INTEGER PRIMARY KEY AUTOINCREMENT, event, session_id, envelope_json, created_at` (ms). */
export interface HubEventRecord {
  /** The global sequence the hub gave the event (the rowid): the row's source_line. */
  sequence: number;
  /** The event name the hub stored beside the envelope (`session.created`, `run.completed`, ...). */
  event: unknown;
  session_id: unknown;
  envelope_json: unknown;
  /** Milliseconds since the epoch: the envelope's timestamp, else when the hub stored it. */
  created_at: unknown;
}

/** An envelope read from a record: what every row of the event takes. */
export interface HubEnvelope {
  /** The table's `event` column, else the envelope's `event`. */
  event: string;
  /** The table's `session_id` column, else the envelope's `sessionId`, else the payload's; null for hub-wide events. */
  session_id: string | null;
  /** The envelope's `timestamp` (ms), else the record's `created_at`. */
  timestamp_ms: number | null;
  payload: Record<string, unknown>;
}

/** An envelope, or why the record has none (one `parser:` row). */
export type EnvelopeResult =
  | { ok: true; envelope: HubEnvelope }
  | { ok: false; problem: string; session_id: string | null; timestamp_ms: number | null };

/** A text column's value as a string: a string as it is, a BLOB as UTF-8, null otherwise. */
export function sqliteText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  return null;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Reads the envelope of one `hub_events` row. Never throws. */
export function envelopeOf(record: HubEventRecord): EnvelopeResult {
  const columnSession = nonEmptyString(sqliteText(record.session_id));
  const created = epochMs(typeof record.created_at === 'bigint' ? Number(record.created_at) : record.created_at);
  const fail = (problem: string): EnvelopeResult => ({ ok: false, problem, session_id: columnSession, timestamp_ms: created });
  const text = sqliteText(record.envelope_json);
  if (text === null)
    return fail(`envelope_json is not text (${record.envelope_json === null ? 'null' : typeof record.envelope_json})`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return fail(`envelope_json is not valid JSON: ${message(err)}`);
  }
  const envelope = plainObject(parsed);
  if (!envelope) return fail('envelope_json is not a JSON object');
  const payload = plainObject(envelope.payload) ?? {};
  const event = nonEmptyString(sqliteText(record.event)) ?? nonEmptyString(envelope.event);
  if (event === null) return fail('the event has no name (event column and envelope event both empty)');
  return {
    ok: true,
    envelope: {
      event,
      session_id: columnSession ?? nonEmptyString(envelope.sessionId) ?? nonEmptyString(payload.sessionId),
      timestamp_ms: epochMs(envelope.timestamp) ?? created,
      payload,
    },
  };
}

/** The statuses after which a session has ended (`HubRuntimeStatus`; `cancelled` and `error` kept for older hubs). */
export const ENDED_STATUSES: ReadonlySet<string> = new Set(['completed', 'aborted', 'failed', 'cancelled', 'error']);

/**
 * The session record an envelope carries, or null: the core session snapshot (`payload.snapshot`:
 * source, status, createdAt, endedAt, exitCode, workspace, model) over the hub's session record
 * (`payload.session`: workspaceRoot, cwd, createdAt in ms, status, metadata). session.created,
 * session.updated, session.attached/detached and the run end events carry one or both.
 */
export function sessionRecordOf(payload: Record<string, unknown>, sessionId: string): SessionRecord | null {
  const snapshot = plainObject(payload.snapshot);
  const session = plainObject(payload.session);
  if (!snapshot && !session) return null;
  const metadata = plainObject(snapshot?.metadata) ?? plainObject(session?.metadata);
  const workspace = plainObject(snapshot?.workspace);
  const model = plainObject(snapshot?.model);
  return {
    session_id: nonEmptyString(snapshot?.sessionId) ?? nonEmptyString(session?.sessionId) ?? sessionId,
    source: nonEmptyString(snapshot?.source) ?? nonEmptyString(metadata?.source),
    status: nonEmptyString(snapshot?.status) ?? nonEmptyString(session?.status),
    pid: null,
    started_at: snapshot?.createdAt ?? session?.createdAt ?? null,
    ended_at: snapshot?.endedAt ?? null,
    exit_code: wholeNumber(snapshot?.exitCode),
    cwd: nonEmptyString(workspace?.cwd) ?? nonEmptyString(session?.cwd),
    workspace_root: nonEmptyString(workspace?.root) ?? nonEmptyString(session?.workspaceRoot),
    provider: nonEmptyString(model?.providerId) ?? nonEmptyString(metadata?.provider),
    model: nonEmptyString(model?.modelId) ?? nonEmptyString(metadata?.model),
    prompt: nonEmptyString(metadata?.prompt),
    metadata,
  };
}

/** The client that created a session, from the hub's session record (`createdByClientId`), or null. */
export function creatorOf(payload: Record<string, unknown>): string | null {
  return nonEmptyString(plainObject(payload.session)?.createdByClientId);
}

/** The messages of a run's result (`payload.result.messages`: the session's message list when the run ended), or null. */
export function runMessagesOf(payload: Record<string, unknown>): unknown[] | null {
  const messages = plainObject(payload.result)?.messages;
  return Array.isArray(messages) ? messages : null;
}

/** The events that end a run; run.completed, run.failed and run.aborted may carry the run's result. */
export const RUN_END_EVENTS: ReadonlySet<string> = new Set(['run.completed', 'run.failed', 'run.aborted', 'run.interrupted']);
