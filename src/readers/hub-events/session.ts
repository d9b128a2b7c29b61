/**
 * A session as the hub event log follows it (readers/hub-events/reader.ts): what the rows of its events take
 * (project, branch, model, start time), which of its messages were already read, the rows its session
 * records give (the start, as a manifest's, shapes/session-start.ts; a resume; the end) and the rows of
 * the messages its run results add.
 */
import type { Row, RowFields, Source } from '../../core/row.js';
import { ENDED_STATUSES } from './envelope.js';
import { gitBranchOf, type SessionRecord, sessionStartFields } from '../shapes/session-start.js';
import { followModelInfo, type ModelInForce, sdkMessageRows, type TranscriptContext } from '../shapes/sdk-messages.js';
import { userInputOf } from '../shapes/user-input.js';
import { epochMs, plainObject, show, nonEmptyString } from '../common/values.js';

/** One session of one log, as its events so far describe it. */
export interface HubSessionState {
  session_id: string | null;
  /** Whether a `session_start` row was given for it (its first session.created). */
  started: boolean;
  /** Its last status (`running`, `idle`, `completed`, ...), null before any record. */
  status: string | null;
  /** Model and provider of its last record: the model in force when a run result's messages start. */
  model: string | null;
  provider: string | null;
  /** The model its last `model:` row named. */
  model_row: string | null;
  /** Workspace cwd, else root, of its last record that had one. */
  project_path: string | null;
  /** `metadata.git.branch` of its last record that had one. */
  git_branch: string | null;
  /** Its createdAt in epoch ms: the time of a message without `ts`. */
  started_ms: number | null;
  /** Ids of the messages already given rows (a later run result repeats them), and positions of those without one. */
  message_ids: Set<string>;
  message_positions: Set<number>;
}

export function newSessionState(sessionId: string | null): HubSessionState {
  return {
    session_id: sessionId,
    started: false,
    status: null,
    model: null,
    provider: null,
    model_row: null,
    project_path: null,
    git_branch: null,
    started_ms: null,
    message_ids: new Set(),
    message_positions: new Set(),
  };
}

/**
 * The rows of a session record carried by an event of the session, after taking its facts into `state`:
 *   - the first session.created: `session start: ...`, `model: ...` and the optional `session synced:`
 *     row, as a manifest gives them (timestamp: the session's createdAt); and, for a session no run result
 *     of the log holds a message of (`withPrompt`: its CLI killed before the first run ended), its first
 *     prompt from the record's `metadata.prompt`, as typed, in a user `session_prompt` row;
 *   - a later session.created (the session resumed by a new CLI process): `session resumed: source=...
 *     status=... cwd=... workspace_root=... client=<creator>`, and `model: <old> -> <new> provider=...`
 *     when its model changed;
 *   - a status that moves into an ended one (completed, aborted, failed): `session end: status=...
 *     exit_code=...` (timestamp: endedAt, else the event's), as a manifest's `ended_at` gives it.
 * Every other record gives no row (session.updated repeats each snapshot, two per change).
 */
export function sessionRecordFields(
  state: HubSessionState,
  event: string,
  record: SessionRecord,
  creator: string | null,
  timestampMs: number | null,
  withPrompt: boolean,
): RowFields[] {
  state.model = record.model ?? state.model;
  state.provider = record.provider ?? state.provider;
  state.project_path = record.cwd ?? record.workspace_root ?? state.project_path;
  state.git_branch = gitBranchOf(record.metadata) ?? state.git_branch;
  state.started_ms = epochMs(record.started_at) ?? state.started_ms;
  const common = {
    session_id: state.session_id,
    project_path: state.project_path,
    git_branch: state.git_branch,
    model: state.model,
    provider: state.provider,
    turn_type: 'system' as const,
  };
  const rows: RowFields[] = [];
  if (event === 'session.created' && !state.started) {
    state.started = true;
    state.model_row = record.model;
    for (const fields of sessionStartFields({ ...record, session_id: state.session_id ?? record.session_id }, 'hub event log')) {
      if (fields.kind === 'session_end') continue;
      rows.push({ ...fields, ...common, timestamp_utc: fields.timestamp_utc ?? timestampMs });
    }
    if (withPrompt && record.prompt !== null) {
      const typed = userInputOf(record.prompt);
      rows.push({
        ...common,
        timestamp_utc: epochMs(record.started_at) ?? timestampMs,
        turn_type: 'user',
        kind: 'session_prompt',
        text: typed?.text ?? record.prompt,
        permission_mode: typed?.mode ?? nonEmptyString(record.metadata?.mode),
      });
    }
  } else if (event === 'session.created') {
    rows.push({
      ...common,
      timestamp_utc: timestampMs,
      kind: 'session_resume',
      text:
        `session resumed: source=${show(record.source)} status=${show(record.status)} cwd=${show(record.cwd)}` +
        ` workspace_root=${show(record.workspace_root)} client=${show(creator)}`,
    });
    if (record.model !== null && record.model !== state.model_row) {
      rows.push({
        ...common,
        timestamp_utc: timestampMs,
        kind: 'model',
        text: `model: ${show(state.model_row)} -> ${record.model} provider=${show(record.provider)}`,
      });
      state.model_row = record.model;
    }
  }
  if (record.status !== null && record.status !== state.status) {
    state.status = record.status;
    if (ENDED_STATUSES.has(record.status)) {
      rows.push({
        ...common,
        timestamp_utc: epochMs(record.ended_at) ?? timestampMs,
        kind: 'session_end',
        text: `session end: status=${record.status} exit_code=${show(record.exit_code)}`,
      });
    }
  }
  return rows;
}

/**
 * The rows of the messages of a run result that no earlier result of the session gave (by id, else by
 * position), shaped as the transcript's: the model in force starts from the session's and follows every
 * message's modelInfo, the given ones too. source_seq continues after the event's rows so far.
 */
export function runMessageRows(
  source: Source,
  file: string,
  state: HubSessionState,
  messages: unknown[],
  line: number,
  firstSeq: number,
): Row[] {
  const context: TranscriptContext = {
    session_id: state.session_id,
    project_path: state.project_path,
    started_ms: state.started_ms,
    model: state.model,
    provider: state.provider,
    git_branch: state.git_branch,
  };
  const inForce: ModelInForce = { model: state.model, provider: state.provider };
  const rows: Row[] = [];
  for (let i = 0; i < messages.length; i++) {
    const value = plainObject(messages[i]);
    const id = nonEmptyString(value?.id);
    if (id !== null ? state.message_ids.has(id) : state.message_positions.has(i)) {
      if (value) followModelInfo(value, inForce);
      continue;
    }
    if (id !== null) state.message_ids.add(id);
    else state.message_positions.add(i);
    rows.push(...sdkMessageRows(source, file, messages[i], { line, firstSeq: firstSeq + rows.length }, context, inForce));
  }
  return rows;
}
