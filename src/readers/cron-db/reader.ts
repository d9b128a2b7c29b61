/**
 * `cron-db` store: `~/.cline/data/db/cron.db` (cline-formats.md §3.4), the 3.x scheduler: agent runs
 * that start by themselves, one-off, on a cron schedule or on an event (`SqliteCronStore`,
 * sdk/packages/core/src/cron/store/{cron-schema,sqlite-cron-store}.ts at cline-formats H). The specs are
 * reconciled from `~/.cline/cron/*.md` files (`source_path`; the files themselves are outside the data
 * folder), so a spec row says an agent prompt was set to run again and again: a persistence vector. Times
 * are ISO strings, `source_mtime_ms` epoch ms.
 *
 * Rows, table by table:
 * - `cron_specs` → `cron_spec` at created_at: `cron spec: <spec_id> trigger=... schedule=... enabled=...
 *   removed=... parse=... source=<spec file> ... last_run=... next_run=... title=... prompt=...`;
 *   `project_path` its workspace_root, `model` and `provider` its model_id and provider_id.
 * - `cron_runs` → `cron_run` at started_at (else scheduled_for, else created_at), `session_id` the run's
 *   session, an error when it failed or has one.
 * - `cron_event_log` → `cron_event` at occurred_at (else received_at): an event that may have started a
 *   run, with its payload (cut at 2,000 characters).
 */
import type { Row, Source } from '../../core/row.js';
import type { PrivateCopy } from '../../evidence/sqlite-copy.js';
import { shortenAtTokenBoundary } from '../parse/quote.js';
import { readEvidenceDatabases } from '../common/sqlite-evidence.js';
import { field, flagField, type RecordRow, readTables, type TableSpec, textOf, timeField } from '../common/sqlite-tables.js';
import { epochMs } from '../common/values.js';

/** Longest free text (a prompt, a system prompt) kept in one row. */
const MAX_FIELD_CHARS = 8000;
/** Longest JSON text (an event's payload, a spec's tools) kept in one row. */
const MAX_JSON_CHARS = 2000;

function free(value: unknown, max = MAX_FIELD_CHARS): string {
  const s = textOf(value);
  return s === null ? '-' : shortenAtTokenBoundary(s, max);
}

const SPEC_COLUMNS = [
  'spec_id',
  'external_id',
  'source_path',
  'trigger_kind',
  'source_mtime_ms',
  'parse_status',
  'parse_error',
  'enabled',
  'removed',
  'title',
  'prompt',
  'workspace_root',
  'schedule_expr',
  'timezone',
  'event_type',
  'filters_json',
  'mode',
  'system_prompt',
  'provider_id',
  'model_id',
  'max_iterations',
  'timeout_seconds',
  'max_parallel',
  'tools_json',
  'notes_directory',
  'source',
  'revision',
  'last_run_at',
  'next_run_at',
  'created_at',
  'updated_at',
] as const;
/** One `cron_specs` record. */
type CronSpecRecord = Record<(typeof SPEC_COLUMNS)[number], unknown>;

function* specRows(raw: Record<string, unknown>): Generator<RecordRow> {
  const r = raw as CronSpecRecord;
  yield {
    project_path: textOf(r.workspace_root),
    model: textOf(r.model_id),
    provider: textOf(r.provider_id),
    timestamp_utc: epochMs(r.created_at),
    turn_type: 'system',
    kind: 'cron_spec',
    is_error: r.parse_status === 'invalid' ? true : null,
    text:
      `cron spec: ${textOf(r.spec_id) ?? '-'} ${field('trigger', r.trigger_kind)} ${field('schedule', r.schedule_expr)}` +
      ` ${field('timezone', r.timezone)} ${field('event', r.event_type)} filters=${free(r.filters_json, MAX_JSON_CHARS)}` +
      ` ${flagField('enabled', r.enabled)} ${flagField('removed', r.removed)} ${field('parse', r.parse_status)}` +
      ` parse_error=${free(r.parse_error)} ${field('source', r.source_path)} ${timeField('source_mtime', r.source_mtime_ms)}` +
      ` ${field('external_id', r.external_id)} ${field('origin', r.source)} ${field('mode', r.mode)} ${field('revision', r.revision)}` +
      ` ${field('workspace_root', r.workspace_root)} tools=${free(r.tools_json, MAX_JSON_CHARS)} ${field('max_iterations', r.max_iterations)}` +
      ` ${field('timeout_seconds', r.timeout_seconds)} ${field('max_parallel', r.max_parallel)} ${field('notes_directory', r.notes_directory)}` +
      ` ${timeField('last_run', r.last_run_at)} ${timeField('next_run', r.next_run_at)} ${timeField('updated', r.updated_at)}` +
      ` title=${free(r.title)} prompt=${free(r.prompt)} system_prompt=${free(r.system_prompt)}`,
  };
}

const RUN_COLUMNS = [
  'run_id',
  'spec_id',
  'spec_revision',
  'trigger_kind',
  'status',
  'scheduled_for',
  'trigger_event_id',
  'started_at',
  'completed_at',
  'session_id',
  'report_path',
  'error',
  'attempt_count',
  'created_at',
] as const;
/** One `cron_runs` record. */
type CronRunRecord = Record<(typeof RUN_COLUMNS)[number], unknown>;

function* runRows(raw: Record<string, unknown>): Generator<RecordRow> {
  const r = raw as CronRunRecord;
  const error = textOf(r.error);
  yield {
    session_id: textOf(r.session_id),
    timestamp_utc: epochMs(r.started_at) ?? epochMs(r.scheduled_for) ?? epochMs(r.created_at),
    turn_type: 'system',
    kind: 'cron_run',
    is_error: error !== null || r.status === 'failed' ? true : null,
    text:
      `cron run: ${textOf(r.run_id) ?? '-'} ${field('spec', r.spec_id)} ${field('spec_revision', r.spec_revision)}` +
      ` ${field('trigger', r.trigger_kind)} ${field('status', r.status)} ${field('session', r.session_id)}` +
      ` ${timeField('scheduled', r.scheduled_for)} ${timeField('started', r.started_at)} ${timeField('completed', r.completed_at)}` +
      ` ${field('attempts', r.attempt_count)} ${field('trigger_event', r.trigger_event_id)} ${field('report', r.report_path)}` +
      ` ${timeField('created', r.created_at)} error=${free(error)}`,
  };
}

const EVENT_COLUMNS = [
  'event_id',
  'event_type',
  'source',
  'subject',
  'occurred_at',
  'received_at',
  'workspace_root',
  'dedupe_key',
  'payload_json',
  'attributes_json',
  'processing_status',
  'matched_spec_count',
  'queued_run_count',
  'suppressed_count',
  'error',
] as const;
/** One `cron_event_log` record. */
type CronEventRecord = Record<(typeof EVENT_COLUMNS)[number], unknown>;

function* eventRows(raw: Record<string, unknown>): Generator<RecordRow> {
  const r = raw as CronEventRecord;
  const error = textOf(r.error);
  yield {
    project_path: textOf(r.workspace_root),
    timestamp_utc: epochMs(r.occurred_at) ?? epochMs(r.received_at),
    turn_type: 'system',
    kind: 'cron_event',
    is_error: error !== null || r.processing_status === 'failed' ? true : null,
    text:
      `cron event: ${textOf(r.event_id) ?? '-'} ${field('type', r.event_type)} ${field('source', r.source)} ${field('subject', r.subject)}` +
      ` ${field('status', r.processing_status)} ${field('matched', r.matched_spec_count)} ${field('queued', r.queued_run_count)}` +
      ` ${field('suppressed', r.suppressed_count)} ${timeField('received', r.received_at)} ${field('workspace_root', r.workspace_root)}` +
      ` ${field('dedupe_key', r.dedupe_key)} error=${free(error)} payload=${free(r.payload_json, MAX_JSON_CHARS)}` +
      ` attributes=${free(r.attributes_json, MAX_JSON_CHARS)}`,
  };
}

const TABLES: TableSpec[] = [
  { table: 'cron_specs', columns: SPEC_COLUMNS, rows: specRows },
  { table: 'cron_runs', columns: RUN_COLUMNS, rows: runRows },
  { table: 'cron_event_log', columns: EVENT_COLUMNS, rows: eventRows },
];

/** Rows of cron.db, table by table; see the module comment. */
export async function* readCronDb(source: Source): AsyncGenerator<Row> {
  yield* readEvidenceDatabases(source, 'cron.db', (copy: PrivateCopy, file: string) => readTables(source, copy, file, TABLES));
}
