/**
 * `tasks-db` store: `~/.cline/data/db/tasks.db` (cline-formats.md §3.4), the 3.x agenda: tasks a user or
 * an agent put on the list for an agent to run later, their runs, and the automation policy that may
 * start them unattended (`SqliteAgendaTaskStore`, sdk/packages/core/src/tasks/store/{task-schema,
 * sqlite-task-store}.ts at cline-formats H). Times are ISO strings; `*_json` columns hold an actor
 * (`{kind: user|agent|system|automation_policy, id?, sessionId?, agentId?, clientId?}`) or a model
 * selection (`{providerId, modelId?}`).
 *
 * Rows, table by table:
 * - `agenda_tasks` → `agenda_task` at created_at: `agenda task: <task_id> type=... status=... scope=...
 *   mode=... created_by=... origin_session=... title=... instructions=...`; `session_id` is the session that
 *   created it (else the last that ran it), `project_path` its workspace_root (else cwd), `model` and
 *   `provider` from model_selection_json.
 * - `agenda_task_runs` → `agenda_task_run` at started_at (else claimed_at), `session_id` the run's session,
 *   an error when it has one.
 * - `agenda_task_automation` → `agenda_automation` at updated_at: the policy (`manual`, `auto_start`,
 *   `unattended`) and its limits: the setting that lets agents start tasks with nobody watching.
 * A JSON column that does not parse is a `parser:` row of its record.
 */
import type { Row, Source } from '../../core/row.js';
import type { PrivateCopy } from '../../evidence/sqlite-copy.js';
import { shortenAtTokenBoundary } from '../parse/quote.js';
import { readEvidenceDatabases } from '../common/sqlite-evidence.js';
import {
  field,
  flagField,
  jsonColumn,
  type RecordRow,
  readTables,
  type TableSpec,
  textOf,
  timeField,
} from '../common/sqlite-tables.js';
import { epochMs, label, plainObject, nonEmptyString } from '../common/values.js';

/** Longest free text (instructions, a system prompt, a result summary) kept in one row. */
const MAX_FIELD_CHARS = 8000;

function free(value: unknown): string {
  const s = textOf(value);
  return s === null ? '-' : shortenAtTokenBoundary(s, MAX_FIELD_CHARS);
}

/** An actor as `kind:id@session`, `-` when absent. */
function actor(value: unknown): string {
  const a = plainObject(value);
  if (a === null) return '-';
  const id = nonEmptyString(a.id) ?? nonEmptyString(a.agentId);
  const session = nonEmptyString(a.sessionId);
  return `${label(a.kind ?? '?')}${id === null ? '' : `:${id}`}${session === null ? '' : `@${session}`}`;
}

/** The parsed JSON columns of a record and the problems of those that did not parse. */
function jsonColumns(
  record: Record<string, unknown>,
  columns: readonly string[],
): { values: Record<string, unknown>; problems: string[] } {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const c of columns) {
    const parsed = jsonColumn(record[c], c);
    if ('problem' in parsed) problems.push(parsed.problem);
    else values[c] = parsed.value;
  }
  return { values, problems };
}

const TASK_COLUMNS = [
  'task_id',
  'type',
  'status',
  'title',
  'description',
  'instructions',
  'scope',
  'workspace_root',
  'cwd',
  'resource_paths_json',
  'priority',
  'assignee',
  'model_selection_json',
  'mode',
  'system_prompt',
  'available_at',
  'expires_at',
  'automation_eligible',
  'revision',
  'approved_revision',
  'created_by_json',
  'updated_by_json',
  'origin_session_id',
  'origin_task_id',
  'last_run_id',
  'last_session_id',
  'spec_path',
  'error',
  'created_at',
  'completed_at',
  'archived_at',
] as const;
/** One `agenda_tasks` record. */
type AgendaTaskRecord = Record<(typeof TASK_COLUMNS)[number], unknown>;

function* taskRows(raw: Record<string, unknown>): Generator<RecordRow> {
  const r = raw as AgendaTaskRecord;
  const { values, problems } = jsonColumns(raw, [
    'model_selection_json',
    'created_by_json',
    'updated_by_json',
    'resource_paths_json',
  ]);
  const selection = plainObject(values.model_selection_json);
  const paths = values.resource_paths_json;
  const fields = {
    session_id: textOf(r.origin_session_id) ?? textOf(r.last_session_id),
    project_path: textOf(r.workspace_root) ?? textOf(r.cwd),
    timestamp_utc: epochMs(r.created_at),
  };
  yield {
    ...fields,
    turn_type: 'system',
    kind: 'agenda_task',
    model: nonEmptyString(selection?.modelId),
    provider: nonEmptyString(selection?.providerId),
    is_error: textOf(r.error) === null ? null : true,
    text:
      `agenda task: ${textOf(r.task_id) ?? '-'} ${field('type', r.type)} ${field('status', r.status)} ${field('scope', r.scope)}` +
      ` ${field('priority', r.priority)} ${field('mode', r.mode)} ${flagField('automation_eligible', r.automation_eligible)}` +
      ` ${field('revision', r.revision)} ${field('approved_revision', r.approved_revision)}` +
      ` created_by=${actor(values.created_by_json)} updated_by=${actor(values.updated_by_json)} ${field('assignee', r.assignee)}` +
      ` ${field('origin_session', r.origin_session_id)} ${field('origin_task', r.origin_task_id)} ${field('last_session', r.last_session_id)}` +
      ` ${field('last_run', r.last_run_id)} ${field('workspace_root', r.workspace_root)} ${field('cwd', r.cwd)}` +
      ` resources=${Array.isArray(paths) ? paths.map((p) => label(p)).join(',') || '-' : '-'} ${field('spec_path', r.spec_path)}` +
      ` ${timeField('available', r.available_at)} ${timeField('expires', r.expires_at)} ${timeField('completed', r.completed_at)}` +
      ` ${timeField('archived', r.archived_at)} title=${free(r.title)} instructions=${free(r.instructions)}` +
      ` description=${free(r.description)} system_prompt=${free(r.system_prompt)} error=${free(r.error)}`,
  };
  for (const problem of problems) yield { problem, fields };
}

const RUN_COLUMNS = [
  'run_id',
  'task_id',
  'task_revision',
  'attempt',
  'status',
  'requested_by_client_id',
  'session_id',
  'claimed_at',
  'started_at',
  'completed_at',
  'result_summary',
  'error',
] as const;
/** One `agenda_task_runs` record. */
type AgendaRunRecord = Record<(typeof RUN_COLUMNS)[number], unknown>;

function* runRows(raw: Record<string, unknown>): Generator<RecordRow> {
  const r = raw as AgendaRunRecord;
  const error = textOf(r.error);
  yield {
    session_id: textOf(r.session_id),
    timestamp_utc: epochMs(r.started_at) ?? epochMs(r.claimed_at),
    turn_type: 'system',
    kind: 'agenda_task_run',
    is_error: error === null ? null : true,
    text:
      `agenda task run: ${textOf(r.run_id) ?? '-'} ${field('task', r.task_id)} ${field('revision', r.task_revision)}` +
      ` ${field('attempt', r.attempt)} ${field('status', r.status)} ${field('client', r.requested_by_client_id)}` +
      ` ${field('session', r.session_id)} ${timeField('claimed', r.claimed_at)} ${timeField('started', r.started_at)}` +
      ` ${timeField('completed', r.completed_at)} result=${free(r.result_summary)} error=${free(error)}`,
  };
}

const AUTOMATION_COLUMNS = [
  'scope_key',
  'mode',
  'apply_to_agent_created',
  'max_concurrent_runs',
  'max_chain_depth',
  'max_starts_per_hour',
  'enabled_by_json',
  'enabled_at',
  'updated_at',
] as const;
/** One `agenda_task_automation` record. */
type AutomationRecord = Record<(typeof AUTOMATION_COLUMNS)[number], unknown>;

function* automationRows(raw: Record<string, unknown>): Generator<RecordRow> {
  const r = raw as AutomationRecord;
  const enabledBy = jsonColumn(r.enabled_by_json, 'enabled_by_json');
  const fields = { timestamp_utc: epochMs(r.updated_at) };
  yield {
    ...fields,
    turn_type: 'system',
    kind: 'agenda_automation',
    // the policy itself, for the settings model: whether agents may start agenda tasks with nobody watching
    setting_name: 'mode',
    setting_value: nonEmptyString(r.mode),
    text:
      `agenda automation: ${field('scope', r.scope_key)} ${field('mode', r.mode)} ${flagField('apply_to_agent_created', r.apply_to_agent_created)}` +
      ` ${field('max_concurrent_runs', r.max_concurrent_runs)} ${field('max_chain_depth', r.max_chain_depth)}` +
      ` ${field('max_starts_per_hour', r.max_starts_per_hour)} enabled_by=${actor('value' in enabledBy ? enabledBy.value : null)}` +
      ` ${timeField('enabled', r.enabled_at)} ${timeField('updated', r.updated_at)}`,
  };
  if ('problem' in enabledBy) yield { problem: enabledBy.problem, fields };
}

const TABLES: TableSpec[] = [
  { table: 'agenda_tasks', columns: TASK_COLUMNS, rows: taskRows },
  { table: 'agenda_task_runs', columns: RUN_COLUMNS, rows: runRows },
  { table: 'agenda_task_automation', columns: AUTOMATION_COLUMNS, rows: automationRows },
];

/** Rows of tasks.db, table by table; see the module comment. */
export async function* readTasksDb(source: Source): AsyncGenerator<Row> {
  yield* readEvidenceDatabases(source, 'tasks.db', (copy: PrivateCopy, file: string) => readTables(source, copy, file, TABLES));
}
