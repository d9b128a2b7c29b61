/**
 * `hub-runs` store: `~/.cline/data/db/hub-runs.db` or `hub-runs-<owner>.db` (cline-formats.md §3.4), the
 * durable queue of prompts the 3.x hub daemon admitted (`run.enqueue`) and ran one at a time per
 * session (`HubRunQueue`, sdk/packages/core/src/hub/server/hub-run-queue.ts at cline-formats H).
 *
 * DDL: `hub_runs(accepted_seq INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT UNIQUE, session_id, state,
 * input_json, client_id, accepted_at INTEGER, started_at INTEGER, ended_at INTEGER, error)`; times are
 * `Date.now()` ms. `state` is queued|running|completed|failed|aborted|interrupted (a daemon that died
 * mid-run leaves `interrupted` with error "Hub daemon exited before the run finished."). `input_json`
 * is the `run.start` payload: `prompt` (or `input`), `mode`, `attachments{userImages, userFiles}`, ...
 * Terminal runs are deleted 7 days after they ended.
 *
 * Per record, rows at their own times: `hub_run` at accepted_at
 * (`hub run: <run_id> state=... client=... accepted=... started=... ended=... mode=... files=N images=N
 * prompt=<prompt>`), and `hub_run_end` at ended_at when the run ended (`hub run end: <run_id> state=...
 * error=...`, an error when it failed or carries an error). `input_json` that is not a JSON object is a
 * `parser:` row of the record; the run row stays.
 */
import type { Row, RowFields, Source } from '../../core/row.js';
import type { PrivateCopy } from '../../evidence/sqlite-copy.js';
import { readEvidenceDatabases } from '../common/sqlite-evidence.js';
import { field, jsonColumn, type RecordRow, readTables, type TableSpec, textOf, timeField } from '../common/sqlite-tables.js';
import { epochMs, plainObject, nonEmptyString } from '../common/values.js';

const COLUMNS = [
  'run_id',
  'session_id',
  'state',
  'input_json',
  'client_id',
  'accepted_at',
  'started_at',
  'ended_at',
  'error',
] as const;

/** One `hub_runs` record as read (columns absent from an older schema are null). */
type HubRunRecord = Record<(typeof COLUMNS)[number], unknown>;

/** What the rows print of the `run.start` payload. */
interface HubRunInput {
  prompt: string | null;
  mode: string | null;
  files: number | null;
  images: number | null;
}

function inputOf(value: unknown): HubRunInput {
  const input = plainObject(value) ?? {};
  const attachments = plainObject(input.attachments);
  const count = (v: unknown) => (Array.isArray(v) ? v.length : null);
  return {
    prompt: nonEmptyString(input.prompt) ?? nonEmptyString(input.input),
    mode: nonEmptyString(input.mode),
    files: count(attachments?.userFiles),
    images: count(attachments?.userImages),
  };
}

function* hubRunRows(raw: Record<string, unknown>): Generator<RecordRow> {
  const r = raw as HubRunRecord;
  const parsed = jsonColumn(r.input_json, 'input_json');
  let problem = 'problem' in parsed ? parsed.problem : null;
  if (problem === null && 'value' in parsed && parsed.value !== null && plainObject(parsed.value) === null) {
    problem = 'input_json is not a JSON object';
  }
  const input = inputOf('value' in parsed ? parsed.value : null);
  const common: Partial<RowFields> = { session_id: textOf(r.session_id), turn_type: 'system' };
  const runId = textOf(r.run_id) ?? '-';
  const attachments =
    input.files === null && input.images === null ? '' : ` files=${input.files ?? 0} images=${input.images ?? 0}`;
  yield {
    ...common,
    turn_type: 'system',
    kind: 'hub_run',
    timestamp_utc: epochMs(r.accepted_at),
    text:
      `hub run: ${runId} ${field('state', r.state)} ${field('client', r.client_id)} ${timeField('accepted', r.accepted_at)}` +
      ` ${timeField('started', r.started_at)} ${timeField('ended', r.ended_at)} ${field('mode', input.mode)}${attachments}` +
      ` ${field('prompt', input.prompt)}`,
  };
  if (problem !== null) yield { problem, fields: { ...common, timestamp_utc: epochMs(r.accepted_at) } };
  const ended = epochMs(r.ended_at);
  if (ended !== null) {
    const error = textOf(r.error);
    yield {
      ...common,
      turn_type: 'system',
      kind: 'hub_run_end',
      timestamp_utc: ended,
      is_error: error !== null || r.state === 'failed' ? true : null,
      text: `hub run end: ${runId} ${field('state', r.state)} ${field('error', error)}`,
    };
  }
}

const TABLES: TableSpec[] = [{ table: 'hub_runs', columns: COLUMNS, rows: hubRunRows }];

/** Rows of every hub-runs database of the source (one per hub owner), in file order, then accepted order. */
export async function* readHubRuns(source: Source): AsyncGenerator<Row> {
  yield* readEvidenceDatabases(source, null, (copy: PrivateCopy, file: string) => readTables(source, copy, file, TABLES));
}
