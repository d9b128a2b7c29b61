/**
 * The shapes of what a load writes, in one place: the rows (`COLUMNS`: the Arrow/Parquet schema of the
 * Row type of core/row.ts) and the records beside them: the inventory of evidence files of a partition
 * (`_files.<gen>.jsonl`), the secrets redacted from its rows (`_secrets.<gen>.jsonl`) and the record of
 * one run (`OUT/state/runs/*.json`). Each record shape is a TypeScript type and a column table (DuckDB
 * type and meaning of every field) that the compiler checks against the type. The Arrow schema
 * (write/arrow-batch.ts), the warehouse's column lists and raw-view comments (warehouse/build.ts,
 * warehouse/record-comments.ts) and the SQL tests' tables (test/helpers/models.ts) are built from here.
 */
import type { Row, StoreId } from './row.js';

/**
 * The Arrow/Parquet schema of raw rows: one column per Row field, in DESIGN.md's order (plus
 * `source_seq`, the position of a row among the rows of one record), then `file_row` (stamped by the
 * partition writer) and the fact columns readers fill beside their texts. Names are a contract.
 */
/** `timestamp`: the row holds epoch milliseconds; Parquet stores INT64 microseconds, UTC-adjusted (write/arrow-batch.ts). */
export type ColumnType = 'utf8' | 'int64' | 'int32' | 'float64' | 'bool' | 'timestamp';

export interface Column {
  name: keyof Row;
  type: ColumnType;
  /** DuckDB type the warehouse reads the column as. */
  sql: string;
  /** What it holds: the catalog comment of the column in raw_events and events (warehouse/record-comments.ts). */
  doc: string;
}

export const COLUMNS: readonly Column[] = [
  {
    name: 'host',
    type: 'utf8',
    sql: 'VARCHAR',
    doc: 'Host image name (its folder under the fleet root, or --host NAME); partition key; always text.',
  },
  {
    name: 'store',
    type: 'utf8',
    sql: 'VARCHAR',
    doc: 'Cline store the row was read from: a store of the stores table, or discovery; partition key.',
  },
  { name: 'home', type: 'utf8', sql: 'VARCHAR', doc: 'Home folder inside the image, / separated, e.g. C/Users/alice.' },
  {
    name: 'client',
    type: 'utf8',
    sql: 'VARCHAR',
    doc: 'Whose store: the editor (vscode, cursor, vscode-server, ...) or cline for ~/.cline/data; - for files every client shares.',
  },
  {
    name: 'source_file',
    type: 'utf8',
    sql: 'VARCHAR',
    doc: 'Path of the evidence file relative to the image root, / separated, as found (never redacted).',
  },
  {
    name: 'source_line',
    type: 'int64',
    sql: 'BIGINT',
    doc: '1-based position of the record in its file: array index + 1, line number, SQLite rowid or primary-key order, search ordinal + 1, the place of an object in a git pack; null for a row of the whole file (a loose git object).',
  },
  {
    name: 'source_seq',
    type: 'int32',
    sql: 'INTEGER',
    doc: '0-based position of the row among the rows of one record (the content blocks of one message); a derived row sorts just before (model) or after (permission) the row it derives from.',
  },
  {
    name: 'source_role',
    type: 'utf8',
    sql: 'VARCHAR',
    doc: 'primary (a store of record) or secondary (a store that repeats a transcript: hooks-log, input-history, search-index, hub-events), which the duplicate rule may drop.',
  },
  {
    name: 'timestamp_utc',
    type: 'timestamp',
    sql: 'TIMESTAMPTZ',
    doc: 'When it happened, UTC; null where the source records no time.',
  },
  {
    name: 'session_id',
    type: 'utf8',
    sql: 'VARCHAR',
    doc: 'Legacy task id, SDK session id or Cline Cloud ses- id; null for rows of no session.',
  },
  { name: 'project_path', type: 'utf8', sql: 'VARCHAR', doc: 'Workspace path as recorded on the host.' },
  {
    name: 'git_branch',
    type: 'utf8',
    sql: 'VARCHAR',
    doc: "Git branch where the source records one (hooks.jsonl workspaceInfo; a session's metadata git.branch in SDK manifests and sessions.db), else null.",
  },
  { name: 'turn_type', type: 'utf8', sql: 'VARCHAR', doc: 'user, assistant, thinking, tool_use, tool_result or system.' },
  {
    name: 'kind',
    type: 'utf8',
    sql: 'VARCHAR',
    doc: "The source's own discriminator: say:command, ask:tool, tool_use, text, model, permission, sync, origin, session_start, parser, ...",
  },
  { name: 'model', type: 'utf8', sql: 'VARCHAR', doc: 'Model id in force for the row, where recorded.' },
  { name: 'provider', type: 'utf8', sql: 'VARCHAR', doc: 'Provider id, where recorded.' },
  { name: 'tool_name', type: 'utf8', sql: 'VARCHAR', doc: 'Tool name of a tool row.' },
  {
    name: 'tool_use_id',
    type: 'utf8',
    sql: 'VARCHAR',
    doc: 'Call id pairing a tool_use with its tool_result (legacy tasks: the message ts).',
  },
  {
    name: 'text',
    type: 'utf8',
    sql: 'VARCHAR',
    doc: "The text: prompt, reply, command, tool input summary, or a system row's text (model: ..., session synced: ..., parser: ...); secrets replaced by [REDACTED:kind:fingerprint] unless the load kept them; cut at 8 Mi characters.",
  },
  {
    name: 'tokens_in',
    type: 'int64',
    sql: 'BIGINT',
    doc: "Input tokens as Cline counted them (some providers leave cache reads out), on the row of each model request; a legacy task_history row's totals count in events only when its task has no request rows, so sum(tokens_in) per session in events is the session's total.",
  },
  { name: 'tokens_out', type: 'int64', sql: 'BIGINT', doc: 'Output tokens, counted as tokens_in is.' },
  {
    name: 'cost_usd',
    type: 'float64',
    sql: 'DOUBLE',
    doc: 'Cost in US dollars where Cline priced the request, counted as tokens_in is.',
  },
  {
    name: 'is_error',
    type: 'bool',
    sql: 'BOOLEAN',
    doc: 'True for a failed tool result (legacy tasks: in events, the result of a tool the next request reports failed), an error row or a parser: row; null where the source does not say.',
  },
  {
    name: 'file_row',
    type: 'int64',
    sql: 'BIGINT',
    doc: "1-based position of the row among the rows its partition wrote for its source file, in reader order (stamped by the partition writer; with host, store and source_file it names the row). A derived row has its source row's.",
  },
  {
    name: 'permission_mode',
    type: 'utf8',
    sql: 'VARCHAR',
    doc: 'Permission mode (plan, act) of a task_metadata model_usage entry and of the model:/permission mode: rows derived from it; null elsewhere.',
  },
  {
    name: 'sync_target',
    type: 'utf8',
    sql: 'VARCHAR',
    doc: "On a sync row whose transcript left the host, where to: cline-cloud, '<adapter> bucket <bucket> object <key>' (enterprise upload), or 'enterprise upload queue: <key>'; null elsewhere, and on a queue item not synced.",
  },
  {
    name: 'session_origin',
    type: 'utf8',
    sql: 'VARCHAR',
    doc: 'remote on an origin row (a Cline Cloud session, from globalState.json or a pending sandbox start); null elsewhere.',
  },
  {
    name: 'imported_from',
    type: 'utf8',
    sql: 'VARCHAR',
    doc: 'On an SDK session_start row, the agent the session was imported from (metadata.importedFrom.tool, - when not named); null elsewhere.',
  },
];

/** A field of a written record: the DuckDB type the warehouse reads it as, and what it holds. */
export interface RecordColumn {
  sql:
    | 'VARCHAR'
    | 'VARCHAR[]'
    | 'STRUCT(host VARCHAR, image_path VARCHAR, status VARCHAR)[]'
    | 'BIGINT'
    | 'INTEGER'
    | 'BOOLEAN'
    | 'TIMESTAMPTZ'
    | 'DOUBLE';
  doc: string;
}

/** One column per field of R, no more, no fewer. */
export type RecordShape<R> = { readonly [K in keyof Required<R>]: RecordColumn };

/** The (name, DuckDB type) list of a shape, in its order. */
export function columnList<R>(shape: RecordShape<R>): ReadonlyArray<readonly [string, string]> {
  return Object.entries<RecordColumn>(shape).map(([name, c]) => [name, c.sql] as const);
}

/** One evidence file a partition read: a line of `_files.<gen>.jsonl`, a row of `raw_files`. */
export interface FileRecord {
  host: string;
  store: StoreId;
  home: string;
  client: string;
  source_file: string;
  size: number | null;
  mtime_ms: number | null;
  sha256: string | null;
  rows: number;
  errors: number;
  first_error: string | null;
  /** The archive (or encoded collection folder) the file was read from, as the load was given it; null for a folder image. */
  archive: string | null;
  /** The file's path inside that archive as stored there (raw, undecoded); null for a folder image. */
  archive_member: string | null;
}

export const FILE_SHAPE: RecordShape<FileRecord> = {
  host: { sql: 'VARCHAR', doc: 'Host image name (the fleet folder name or --host NAME).' },
  store: { sql: 'VARCHAR', doc: 'Store id of the partition that read the file.' },
  home: { sql: 'VARCHAR', doc: 'Home folder inside the image, / separated.' },
  client: { sql: 'VARCHAR', doc: 'Whose store: vscode, cursor, vscode-server, ..., cline for ~/.cline/data.' },
  source_file: { sql: 'VARCHAR', doc: 'Path of the file relative to the image root, / separated.' },
  size: { sql: 'BIGINT', doc: 'Size in bytes when read; null when it could not be stat-ed.' },
  mtime_ms: { sql: 'BIGINT', doc: 'Modification time when read, milliseconds since the Unix epoch (UTC).' },
  sha256: { sql: 'VARCHAR', doc: 'SHA-256 of the bytes read, hex; null when the file could not be read.' },
  rows: { sql: 'BIGINT', doc: 'Rows the file gave, parser: rows included.' },
  errors: { sql: 'BIGINT', doc: 'parser: rows among them.' },
  first_error: { sql: 'VARCHAR', doc: 'Text of the first parser: row of the file.' },
  archive: {
    sql: 'VARCHAR',
    doc: 'Archive (zip, tar, tar.gz) or encoded collection folder the file was read from, as given to the load; null for a folder image.',
  },
  archive_member: {
    sql: 'VARCHAR',
    doc: 'Path of the file inside that archive as stored there (raw, undecoded); null for a folder image.',
  },
};

/** The columns a secret can be redacted from (write/redact-row.ts REDACTED_COLUMNS). */
export type RedactedColumnName =
  | 'text'
  | 'session_id'
  | 'project_path'
  | 'git_branch'
  | 'model'
  | 'provider'
  | 'tool_name'
  | 'tool_use_id'
  | 'kind'
  | 'permission_mode'
  | 'sync_target'
  | 'session_origin'
  | 'imported_from';

/**
 * One secret redacted from a row (write/redact.ts), as `_secrets.<gen>.jsonl` holds it and the `secrets`
 * table reads it: where it was and what it was, never its value. `session_id` and `row_kind` are the
 * row's redacted values, so they join to `raw_events`.
 */
export type SecretRecord = Pick<
  Row,
  'host' | 'store' | 'home' | 'client' | 'source_file' | 'source_line' | 'source_seq' | 'session_id' | 'file_row'
> & {
  /** The row's timestamp_utc, epoch ms. */
  timestamp_ms: number | null;
  /** The row's kind (`say:command`, `tool_result`, ...). */
  row_kind: string;
  /** The column that held the secret. Lines written before it existed held `text` secrets. */
  column_name: RedactedColumnName;
  /** The detector that matched (`anthropic`, `aws_access_key_id`, ...). */
  kind: string;
  /** First 12 hex of the secret's SHA-256. */
  fingerprint: string;
};

export const SECRET_SHAPE: RecordShape<SecretRecord> = {
  host: { sql: 'VARCHAR', doc: 'Host image name of the row that held the secret.' },
  store: { sql: 'VARCHAR', doc: 'Store id of that row.' },
  home: { sql: 'VARCHAR', doc: 'Home folder of that row.' },
  client: { sql: 'VARCHAR', doc: 'Client of that row.' },
  source_file: { sql: 'VARCHAR', doc: 'Image-relative file of that row.' },
  source_line: { sql: 'BIGINT', doc: 'source_line of that row.' },
  source_seq: { sql: 'INTEGER', doc: 'source_seq of that row.' },
  session_id: { sql: 'VARCHAR', doc: 'session_id of that row, as stored (redacted where it held a secret).' },
  timestamp_ms: { sql: 'BIGINT', doc: "The row's time, milliseconds since the Unix epoch (UTC)." },
  row_kind: { sql: 'VARCHAR', doc: "The row's kind (say:command, tool_result, ...)." },
  column_name: { sql: 'VARCHAR', doc: 'The column that held the secret (text, model, git_branch, ...).' },
  kind: { sql: 'VARCHAR', doc: 'The detector that matched (anthropic, aws_access_key_id, ...).' },
  fingerprint: {
    sql: 'VARCHAR',
    doc: "First 12 hex digits of the secret's SHA-256: the same secret has the same fingerprint everywhere.",
  },
  file_row: {
    sql: 'BIGINT',
    doc: "file_row of that row (with host, store and source_file it gives the row's row_id); null in lines written before it existed.",
  },
};

/** One `clinetrail load`: a file of OUT/state/runs/, a row of `raw_runs`; every figure of the summary line. */
export interface RunRecord {
  run_id: string;
  /** Version of clinetrail that wrote the run (package.json version and loader code version). */
  clinetrail_version: string;
  started_at: string;
  ended_at: string;
  hosts: number;
  partitions_written: number;
  partitions_unchanged: number;
  partitions_removed: number;
  files_read: number;
  files_unchanged: number;
  rows_written: number;
  parser_errors: number;
  discovery_problems: number;
  is_full_load: boolean;
  /** False when the load kept secrets in the texts (`--keep-secrets`). */
  secrets_redacted: boolean;
  /** Secrets redacted from the partitions written by this run. */
  secrets_found: number;
  /** Rows the duplicate rule dropped in the warehouse this run left; null until it is built. */
  duplicates_dropped: number | null;
  /** When the warehouse was built or kept and old files retired; null until then (a killed run). */
  finished_at: string | null;
  /** Whether the load withdrew the hosts not in its input (`--prune`). */
  prune: boolean;
  /** Hosts the warehouse holds that were not in this input: kept (absent without `--prune`), or withdrawn with it. */
  hosts_absent: string[];
  /** Hosts of this input whose image gave no store while the warehouse held data for them: that data was kept. */
  hosts_kept_empty: string[];
  /** Every host image of the input, with what the load found in it (load/membership.ts HostStatus). */
  host_images: Array<{ host: string; image_path: string; status: string }>;
}

export const RUN_SHAPE: RecordShape<RunRecord> = {
  run_id: { sql: 'VARCHAR', doc: 'Random id of the run.' },
  clinetrail_version: {
    sql: 'VARCHAR',
    doc: 'clinetrail version that wrote the run: package version + loader code version; null for runs written before it was recorded.',
  },
  started_at: { sql: 'TIMESTAMPTZ', doc: 'When the run started (UTC).' },
  ended_at: { sql: 'TIMESTAMPTZ', doc: 'When its partitions were written, before the warehouse build (UTC).' },
  hosts: { sql: 'BIGINT', doc: 'Host images in the input.' },
  partitions_written: { sql: 'BIGINT', doc: 'Partitions (host, store) read and written again.' },
  partitions_unchanged: { sql: 'BIGINT', doc: 'Partitions kept because nothing about them changed.' },
  partitions_removed: { sql: 'BIGINT', doc: 'Partitions withdrawn because their source left the input.' },
  files_read: { sql: 'BIGINT', doc: 'Evidence files read.' },
  files_unchanged: { sql: 'BIGINT', doc: 'Evidence files of unchanged partitions, not read.' },
  rows_written: { sql: 'BIGINT', doc: 'Rows written, parser: rows included.' },
  parser_errors: { sql: 'BIGINT', doc: 'parser: rows written.' },
  discovery_problems: { sql: 'BIGINT', doc: 'Paths discovery found but could not search or read.' },
  is_full_load: { sql: 'BOOLEAN', doc: 'Every partition was read (--full, or nothing was unchanged).' },
  secrets_redacted: {
    sql: 'BOOLEAN',
    doc: 'Secrets were redacted from the texts (false with --keep-secrets); null for old runs.',
  },
  secrets_found: { sql: 'BIGINT', doc: 'Secrets redacted from the partitions this run wrote; null for old runs.' },
  duplicates_dropped: { sql: 'BIGINT', doc: 'Rows the duplicate rule dropped from events in the warehouse the run left.' },
  finished_at: {
    sql: 'TIMESTAMPTZ',
    doc: 'When the run finished: warehouse built or kept, old files retired (UTC); null for a run killed before.',
  },
  prune: { sql: 'BOOLEAN', doc: 'The load withdrew the hosts not in its input (--prune); null for old runs.' },
  hosts_absent: {
    sql: 'VARCHAR[]',
    doc: 'Hosts the warehouse held that were not in the input: kept, or withdrawn with --prune; null for old runs.',
  },
  host_images: {
    sql: 'STRUCT(host VARCHAR, image_path VARCHAR, status VARCHAR)[]',
    doc: 'Every host image of the input: name, path and what the load found (loaded, no Cline data, unreadable, kept after empty image); null for old runs.',
  },
  hosts_kept_empty: {
    sql: 'VARCHAR[]',
    doc: 'Hosts of the input whose image gave no Cline store while the warehouse held data for them: their data was kept (--accept-empty replaces it); null for old runs.',
  },
};
