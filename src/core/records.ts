/**
 * The shapes of what a load writes, in one place: the rows (`COLUMNS`, core/columns.ts: the Arrow/Parquet schema of the
 * Row type of core/row.ts) and the records beside them: the inventory of evidence files of a partition
 * (`_files.<gen>.jsonl`), the secrets redacted from its rows (`_secrets.<gen>.jsonl`) and the record of
 * one run (`OUT/state/runs/*.json`). Each record shape is a TypeScript type and a column table (DuckDB
 * type and meaning of every field) that the compiler checks against the type. The Arrow schema
 * (write/arrow-batch.ts), the warehouse's column lists and raw-view comments (warehouse/build.ts,
 * warehouse/record-comments.ts) and the SQL tests' tables (test/helpers/models.ts) are built from here.
 */
import type { Row, StoreId } from './row.js';

export { COLUMNS, type Column, type ColumnType } from './columns.js';

/** A field of a written record: the DuckDB type the warehouse reads it as, and what it holds. */
export interface RecordColumn {
  sql:
    | 'VARCHAR'
    | 'VARCHAR[]'
    | 'STRUCT(host VARCHAR, image_path VARCHAR, status VARCHAR, hostname VARCHAR, collection VARCHAR, time_zone VARCHAR)[]'
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
  user: string | null;
  client: string;
  source_file: string;
  size: number | null;
  mtime_ms: number | null;
  sha256: string | null;
  rows: number;
  errors: number;
  first_error: string | null;
  /** The agents of the Cline family its rows are of (raw_events.agent), sorted: one state database holds several. */
  agents: string[];
  /** The archive (or encoded collection folder) the file was read from, as the load was given it; null for a folder image. */
  archive: string | null;
  /** The file's path inside that archive as stored there (raw, undecoded); null for a folder image. */
  archive_member: string | null;
}

export const FILE_SHAPE: RecordShape<FileRecord> = {
  host: { sql: 'VARCHAR', doc: 'Host image name (the fleet folder name or --host NAME).' },
  store: { sql: 'VARCHAR', doc: 'Store id of the partition that read the file.' },
  home: { sql: 'VARCHAR', doc: 'The home as the machine names it (C:/Users/alice), as in raw_events.' },
  user: {
    sql: 'VARCHAR',
    doc: "The home's user, as in raw_events; null where the home's layout does not say, and in inventories written before it was recorded.",
  },
  client: { sql: 'VARCHAR', doc: 'Whose store: vscode, cursor, vscode-server, ..., cline for ~/.cline/data.' },
  source_file: { sql: 'VARCHAR', doc: 'Path of the file relative to the image root, / separated.' },
  size: { sql: 'BIGINT', doc: 'Size in bytes when read; null when it could not be stat-ed.' },
  mtime_ms: { sql: 'BIGINT', doc: 'Modification time when read, milliseconds since the Unix epoch (UTC).' },
  sha256: { sql: 'VARCHAR', doc: 'SHA-256 of the bytes read, hex; null when the file could not be read.' },
  rows: { sql: 'BIGINT', doc: 'Rows the file gave, parser: rows included.' },
  errors: { sql: 'BIGINT', doc: 'parser: rows among them.' },
  first_error: { sql: 'VARCHAR', doc: 'Text of the first parser: row of the file.' },
  agents: {
    sql: 'VARCHAR[]',
    doc: 'Agents of the Cline family its rows are of (cline, roo-code, kilo-code), sorted; empty when no row names one, null in inventories written before it was recorded.',
  },
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
  | 'imported_from'
  | 'setting_name'
  | 'setting_value'
  | 'parent_session_id';

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
  /** K of `--shard K/N`: the load took only the hosts of shard K (load/shard.ts); null for a plain load. */
  shard_index: number | null;
  /** N of `--shard K/N`; null for a plain load. */
  shard_count: number | null;
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
  /**
   * Every host image of the input, with what the load found in it (load/membership.ts HostStatus), the
   * host name it claims (`host` unless another image claims it too) and, for a client of a Velociraptor
   * hunt download, its folder in it (both unknown to the record of a shard not finished or not run).
   */
  host_images: Array<{
    host: string;
    image_path: string;
    status: string;
    hostname?: string;
    collection?: string | null;
    /** The zone its local clocks were read in (`--host-tz`); null when none was given (read as if UTC). */
    time_zone?: string | null;
  }>;
  /** Hosts of this input named `NAME#2`, `NAME#3`, ...: another image of the input claims their host name NAME. */
  hosts_renamed: string[];
  /** The `--fleet` folder, absolute; null for a load of `--host` images only. With host_images, the input roots no output may be written into. */
  fleet: string | null;
  /**
   * True for the record `clinetrail models` writes for a shard of the split that did not run (load/split-check.ts):
   * no load wrote it, its host_images are the hosts that shard was to load. False (null in old runs) for every load.
   */
  shard_missing: boolean;
}

/** What a run knows only once it has read its hosts: null in the record of a run not finished. */
export type RunFigure =
  | 'ended_at'
  | 'partitions_written'
  | 'partitions_unchanged'
  | 'partitions_removed'
  | 'files_read'
  | 'files_unchanged'
  | 'rows_written'
  | 'parser_errors'
  | 'discovery_problems'
  | 'is_full_load'
  | 'secrets_found'
  | 'hosts_absent'
  | 'hosts_kept_empty'
  | 'hosts_renamed';

/** The figures of a run not finished: all null. */
export const NO_FIGURES: { readonly [K in RunFigure]: null } = {
  ended_at: null,
  partitions_written: null,
  partitions_unchanged: null,
  partitions_removed: null,
  files_read: null,
  files_unchanged: null,
  rows_written: null,
  parser_errors: null,
  discovery_problems: null,
  is_full_load: null,
  secrets_found: null,
  hosts_absent: null,
  hosts_kept_empty: null,
  hosts_renamed: null,
};

/** What a run record says before the run has read its hosts: all but its figures and its hosts' statuses. */
export type RunStart = Omit<RunRecord, RunFigure | 'host_images'>;

/**
 * The record of a run not finished: a shard load's, written as it starts (its hosts `shard not loaded`)
 * and replaced by its RunRecord at its end, so a shard killed or failed leaves it; or the record of a
 * shard that did not run, written by `clinetrail models` (`shard_missing`, its settings unknown).
 */
export type UnfinishedRunRecord = Omit<RunRecord, RunFigure | 'secrets_redacted' | 'prune'> & {
  [K in RunFigure]: null;
} & { secrets_redacted: boolean | null; prune: boolean | null };

export const RUN_SHAPE: RecordShape<RunRecord> = {
  run_id: { sql: 'VARCHAR', doc: 'Random id of the run.' },
  clinetrail_version: {
    sql: 'VARCHAR',
    doc: 'clinetrail version that wrote the run: package version + loader code version; null for runs written before it was recorded.',
  },
  started_at: { sql: 'TIMESTAMPTZ', doc: 'When the run started (UTC).' },
  ended_at: {
    sql: 'TIMESTAMPTZ',
    doc: 'When its partitions were written, before the warehouse build (UTC); null for a shard load not finished (killed, failed or running: its figures are null too) and for a shard that did not run (shard_missing).',
  },
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
  shard_index: {
    sql: 'BIGINT',
    doc: 'K of --shard K/N: the run loaded only the hosts of shard K and built no model; null for a plain load.',
  },
  shard_count: { sql: 'BIGINT', doc: 'N of --shard K/N; null for a plain load.' },
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
    sql: 'STRUCT(host VARCHAR, image_path VARCHAR, status VARCHAR, hostname VARCHAR, collection VARCHAR, time_zone VARCHAR)[]',
    doc: 'Every host image of the input: name, path, what the load found (loaded, no Cline data, unreadable, encrypted, kept after empty image; shard not loaded in the record of a shard load not finished or not run), the host name it claims (hostname: the name unless another image claims it too; null for older runs and unfinished shards), its client folder in a Velociraptor hunt download (collection) and the zone its local clocks were read in (time_zone: --host-tz; null when none was given); null for old runs.',
  },
  hosts_renamed: {
    sql: 'VARCHAR[]',
    doc: 'Hosts of the input named NAME#2, NAME#3, ... because another image of the input claims their host name NAME; null for old runs and runs not finished.',
  },
  hosts_kept_empty: {
    sql: 'VARCHAR[]',
    doc: 'Hosts of the input whose image gave no Cline store while the warehouse held data for them: their data was kept (--accept-empty replaces it); null for old runs.',
  },
  fleet: {
    sql: 'VARCHAR',
    doc: 'The --fleet folder of the load, absolute; null for a load of --host images only, and for old runs.',
  },
  shard_missing: {
    sql: 'BOOLEAN',
    doc: 'True for the record clinetrail models writes for a shard of the split that did not run since the last complete build: no load wrote it; host_images are the hosts it was to load. False for a load; null for old runs.',
  },
};
