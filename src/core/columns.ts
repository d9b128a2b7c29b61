/**
 * The rows' column schema: one column per Row field (core/row.ts) with its Arrow/Parquet type, the
 * DuckDB type the warehouse reads it as, and what it holds. The Arrow schema (write/arrow-batch.ts), the
 * warehouse's raw-view comments (warehouse/record-comments.ts) and the SQL tests' tables are built from it.
 */
import type { Row } from './row.js';

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
  {
    name: 'home',
    type: 'utf8',
    sql: 'VARCHAR',
    doc: "The home as the machine names it, / separated, whatever collected it: C:/Users/alice (a KAPE tree's C folder, a Velociraptor C:), home/alice, Users/alice; source_file keeps the path in the image.",
  },
  {
    name: 'user',
    type: 'utf8',
    sql: 'VARCHAR',
    doc: "The home's user: the name of its folder in a profiles folder (C:/Users/alice, home/alice, Users/alice: alice) or root for root's home; null where the home's layout does not say whose it is.",
  },
  {
    name: 'client',
    type: 'utf8',
    sql: 'VARCHAR',
    doc: 'Whose store: the editor (vscode, cursor, vscode-server, ...) or cline for ~/.cline/data; - for files every client shares.',
  },
  {
    name: 'agent',
    type: 'utf8',
    sql: 'VARCHAR',
    doc: 'The agent of the Cline family the record is of: cline, roo-code (Roo Code) or kilo-code (Kilo Code); null on a problem of a file no one agent owns (an editor state database that cannot be opened).',
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
    doc: 'When it happened, UTC; null where the source records no time. timestamp_source says where it comes from.',
  },
  {
    name: 'timestamp_source',
    type: 'utf8',
    sql: 'VARCHAR',
    doc: "Where timestamp_utc comes from: recorded (the source wrote the instant for this record: epoch, or a time with its zone), local_clock (the source wrote a local wall clock with no zone: read in the host's --host-tz zone, hosts.time_zone, else as if UTC), derived (another record's time: an SDK message with no ts takes its session's start), file_mtime (the file's modification time: the file records no time, so copying the evidence moves it); null where timestamp_utc is null. Session spans and the report count recorded and local_clock times only.",
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
  {
    name: 'setting_name',
    type: 'utf8',
    sql: 'VARCHAR',
    doc: 'On a row of one setting, its name as its file or record spells it (permission: autoApprovalSettings.actions.executeAllCommands, mcpServers.<server>.autoApprove; task_settings: yoloModeToggled; agenda_automation: mode; hook_result: autoApprove); null elsewhere. The settings model reads it.',
  },
  {
    name: 'setting_value',
    type: 'utf8',
    sql: 'VARCHAR',
    doc: "The value of setting_name as its row text prints it (true, act, a tool name, JSON of an array; <set> for a credential's string); null elsewhere.",
  },
  {
    name: 'parent_session_id',
    type: 'utf8',
    sql: 'VARCHAR',
    doc: "On a task_history row of a subtask (Roo Code and Kilo Code orchestrator tasks: the history item's parentTaskId), the session_id of the task that started it; null elsewhere.",
  },
];
