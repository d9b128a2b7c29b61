/**
 * `teams-db` store: `~/.cline/data/db/teams.db` (cline-formats.md §3.3), the 3.x agent teams' store
 * (`SqliteTeamStore`, sdk/packages/core/src/services/storage/sqlite-team-store.ts at cline-formats H).
 * A team's name is the lead session's id (sanitised: lower case, `[^a-z0-9._-]+` → `-`) when the team
 * runs in a session, so `session_id` is the team name when it has the form of a session id
 * (`<ms>_<rand>`); else null. Times are ISO strings.
 *
 * Rows, table by table (each record's rows at its own time, `source_line` = its rowid or key position):
 * - `team_events` → `team_event` at `ts`: `team event: <team> <event_type> ...` (teams-db/team-events.ts).
 * - `team_runtime_snapshot` → `team` at updated_at (`team: <team> members=<agent(role,status)>
 *   tasks=N messages=N mission_log=N runs=N outcomes=N`) and one `teammate` row per `teammates_json`
 *   entry (`teammate: <team> <agent> model=... max_iterations=... role_prompt=...`, `model` set). The
 *   mailbox and mission log live only in `state_json` and in the `team_event` rows, which print them.
 * - `team_tasks` → `team_task` at updated_at; `team_runs` → `team_run` at started_at (an error when it has
 *   one); `team_outcomes` → `team_outcome` at finalized_at; `team_outcome_fragments` →
 *   `team_outcome_fragment` at reviewed_at.
 * A JSON column that does not parse is a `parser:` row of its record.
 */
import type { Row, RowFields, Source } from '../../core/row.js';
import type { PrivateCopy } from '../../evidence/sqlite-copy.js';
import { shortenAtTokenBoundary } from '../parse/quote.js';
import { readEvidenceDatabases } from '../common/sqlite-evidence.js';
import { field, jsonColumn, type RecordRow, readTables, type TableSpec, textOf, timeField } from '../common/sqlite-tables.js';
import { eventModel, eventSummary } from './team-events.js';
import { epochMs, wholeNumber, label, plainObject, nonEmptyString } from '../common/values.js';

/** Longest free text (a description, a fragment's content, a role prompt) kept in one row. */
const MAX_FIELD_CHARS = 8000;

/** The session a team belongs to: its name when that has the form of an SDK session id. */
function teamSession(team: unknown): string | null {
  const name = textOf(team);
  return name !== null && /^\d{10,}_[0-9a-z]+$/.test(name) ? name : null;
}

function free(value: unknown): string {
  const s = textOf(value);
  return s === null ? '-' : shortenAtTokenBoundary(s, MAX_FIELD_CHARS);
}

const EVENT_COLUMNS = ['team_name', 'ts', 'event_type', 'payload_json', 'correlation_id'] as const;
/** One `team_events` record. */
type TeamEventRecord = Record<(typeof EVENT_COLUMNS)[number], unknown>;

function* eventRows(raw: Record<string, unknown>): Generator<RecordRow> {
  const r = raw as TeamEventRecord;
  const common = { session_id: teamSession(r.team_name), timestamp_utc: epochMs(r.ts) };
  const parsed = jsonColumn(r.payload_json, 'payload_json');
  const payload = 'value' in parsed ? (plainObject(parsed.value) ?? {}) : {};
  const type = textOf(r.event_type) ?? nonEmptyString(payload.type) ?? '-';
  yield {
    ...common,
    turn_type: 'system',
    kind: 'team_event',
    model: eventModel(payload),
    text: `team event: ${textOf(r.team_name) ?? '-'} ${type} ${eventSummary(type, payload)} ${field('correlation', r.correlation_id)}`,
  };
  if ('problem' in parsed) yield { problem: parsed.problem, fields: common };
  else if (parsed.value !== null && plainObject(parsed.value) === null)
    yield { problem: 'payload_json is not a JSON object', fields: common };
}

const SNAPSHOT_COLUMNS = ['team_name', 'state_json', 'teammates_json', 'updated_at'] as const;
/** One `team_runtime_snapshot` record. */
type TeamSnapshotRecord = Record<(typeof SNAPSHOT_COLUMNS)[number], unknown>;

function count(value: unknown): string {
  return Array.isArray(value) ? String(value.length) : '-';
}

function* snapshotRows(raw: Record<string, unknown>): Generator<RecordRow> {
  const r = raw as TeamSnapshotRecord;
  const team = textOf(r.team_name) ?? '-';
  const common = { session_id: teamSession(r.team_name), timestamp_utc: epochMs(r.updated_at) };
  const stateJson = jsonColumn(r.state_json, 'state_json');
  const state = 'value' in stateJson ? (plainObject(stateJson.value) ?? {}) : {};
  const members = Array.isArray(state.members) ? state.members.map((m) => plainObject(m) ?? {}) : [];
  const memberList = members
    .map((m) => `${label(m.agentId ?? '-')}(${label(m.role ?? '-')},${label(m.status ?? '-')})`)
    .join(',');
  yield {
    ...common,
    turn_type: 'system',
    kind: 'team',
    text:
      `team: ${team} members=${memberList || '-'} tasks=${count(state.tasks)} messages=${count(state.mailbox)}` +
      ` mission_log=${count(state.missionLog)} runs=${count(state.runs)} outcomes=${count(state.outcomes)}` +
      ` ${timeField('updated', r.updated_at)}`,
  };
  if ('problem' in stateJson) yield { problem: stateJson.problem, fields: common };
  const matesJson = jsonColumn(r.teammates_json, 'teammates_json');
  if ('problem' in matesJson) {
    yield { problem: matesJson.problem, fields: common };
    return;
  }
  if (matesJson.value !== null && !Array.isArray(matesJson.value)) {
    yield { problem: 'teammates_json is not a JSON array', fields: common };
    return;
  }
  for (const entry of (matesJson.value as unknown[] | null) ?? []) {
    const mate = plainObject(entry) ?? {};
    const model = nonEmptyString(mate.modelId);
    yield {
      ...common,
      turn_type: 'system',
      kind: 'teammate',
      model,
      text:
        `teammate: ${team} ${label(mate.agentId ?? '-')} model=${model ?? '-'} max_iterations=${wholeNumber(mate.maxIterations) ?? '-'}` +
        ` role_prompt=${free(mate.rolePrompt)}`,
    };
  }
}

const TASK_COLUMNS = [
  'team_name',
  'task_id',
  'title',
  'description',
  'status',
  'assignee',
  'depends_on_json',
  'summary',
  'version',
  'updated_at',
] as const;
/** One `team_tasks` record. */
type TeamTaskRecord = Record<(typeof TASK_COLUMNS)[number], unknown>;

function* taskRows(raw: Record<string, unknown>): Generator<RecordRow> {
  const r = raw as TeamTaskRecord;
  yield {
    session_id: teamSession(r.team_name),
    timestamp_utc: epochMs(r.updated_at),
    turn_type: 'system',
    kind: 'team_task',
    text:
      `team task: ${textOf(r.team_name) ?? '-'} ${textOf(r.task_id) ?? '-'} ${field('status', r.status)} ${field('assignee', r.assignee)}` +
      ` depends_on=${free(r.depends_on_json)} ${field('version', r.version)} title=${free(r.title)}` +
      ` description=${free(r.description)} summary=${free(r.summary)}`,
  };
}

const RUN_COLUMNS = [
  'team_name',
  'run_id',
  'agent_id',
  'task_id',
  'status',
  'message',
  'started_at',
  'ended_at',
  'error',
  'lease_owner',
  'heartbeat_at',
  'version',
] as const;
/** One `team_runs` record. */
type TeamRunRecord = Record<(typeof RUN_COLUMNS)[number], unknown>;

function* runRows(raw: Record<string, unknown>): Generator<RecordRow> {
  const r = raw as TeamRunRecord;
  const error = textOf(r.error);
  yield {
    session_id: teamSession(r.team_name),
    timestamp_utc: epochMs(r.started_at),
    turn_type: 'system',
    kind: 'team_run',
    is_error: error === null ? null : true,
    text:
      `team run: ${textOf(r.team_name) ?? '-'} ${textOf(r.run_id) ?? '-'} ${field('agent', r.agent_id)} ${field('task', r.task_id)}` +
      ` ${field('status', r.status)} ${timeField('started', r.started_at)} ${timeField('ended', r.ended_at)}` +
      ` ${field('lease_owner', r.lease_owner)} ${timeField('heartbeat', r.heartbeat_at)} error=${free(error)} message=${free(r.message)}`,
  };
}

const OUTCOME_COLUMNS = ['team_name', 'outcome_id', 'title', 'status', 'schema_json', 'finalized_at'] as const;
/** One `team_outcomes` record. */
type TeamOutcomeRecord = Record<(typeof OUTCOME_COLUMNS)[number], unknown>;

function* outcomeRows(raw: Record<string, unknown>): Generator<RecordRow> {
  const r = raw as TeamOutcomeRecord;
  const schema = jsonColumn(r.schema_json, 'schema_json');
  const sections = 'value' in schema ? plainObject(schema.value)?.requiredSections : null;
  const fields: Partial<RowFields> = { session_id: teamSession(r.team_name), timestamp_utc: epochMs(r.finalized_at) };
  yield {
    ...fields,
    turn_type: 'system',
    kind: 'team_outcome',
    text:
      `team outcome: ${textOf(r.team_name) ?? '-'} ${textOf(r.outcome_id) ?? '-'} ${field('status', r.status)}` +
      ` sections=${Array.isArray(sections) ? sections.map((s) => label(s)).join(',') || '-' : '-'}` +
      ` ${timeField('finalized', r.finalized_at)} title=${free(r.title)}`,
  };
  if ('problem' in schema) yield { problem: schema.problem, fields };
}

const FRAGMENT_COLUMNS = [
  'team_name',
  'outcome_id',
  'fragment_id',
  'section',
  'source_agent_id',
  'source_run_id',
  'content',
  'status',
  'reviewed_by',
  'reviewed_at',
] as const;
/** One `team_outcome_fragments` record. */
type TeamFragmentRecord = Record<(typeof FRAGMENT_COLUMNS)[number], unknown>;

function* fragmentRows(raw: Record<string, unknown>): Generator<RecordRow> {
  const r = raw as TeamFragmentRecord;
  yield {
    session_id: teamSession(r.team_name),
    timestamp_utc: epochMs(r.reviewed_at),
    turn_type: 'system',
    kind: 'team_outcome_fragment',
    text:
      `team outcome fragment: ${textOf(r.team_name) ?? '-'} ${textOf(r.fragment_id) ?? '-'} ${field('outcome', r.outcome_id)}` +
      ` ${field('section', r.section)} ${field('agent', r.source_agent_id)} ${field('run', r.source_run_id)} ${field('status', r.status)}` +
      ` ${field('reviewed_by', r.reviewed_by)} ${timeField('reviewed', r.reviewed_at)} content=${free(r.content)}`,
  };
}

const TABLES: TableSpec[] = [
  { table: 'team_events', columns: EVENT_COLUMNS, rows: eventRows },
  { table: 'team_runtime_snapshot', columns: SNAPSHOT_COLUMNS, rows: snapshotRows },
  { table: 'team_tasks', columns: TASK_COLUMNS, rows: taskRows },
  { table: 'team_runs', columns: RUN_COLUMNS, rows: runRows },
  { table: 'team_outcomes', columns: OUTCOME_COLUMNS, rows: outcomeRows },
  { table: 'team_outcome_fragments', columns: FRAGMENT_COLUMNS, rows: fragmentRows },
];

/** Rows of teams.db, table by table; see the module comment. */
export async function* readTeamsDb(source: Source): AsyncGenerator<Row> {
  yield* readEvidenceDatabases(source, 'teams.db', (copy: PrivateCopy, file: string) => readTables(source, copy, file, TABLES));
}
