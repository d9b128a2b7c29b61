-- raw_events: every row every reader wrote, as stored in the Parquet partitions
-- OUT/parquet/events/host=H/store=S/*.parquet. Grain: one row per reader row, named by row_id.
-- host and store are columns of every Parquet file (always VARCHAR: a host named 0042 stays text), so the
-- partition folder names are not parsed (hive_partitioning = false).
--
-- row_id is the one identity of a row, which every model joins on: the MD5 (128 bits, UHUGEINT) of
-- (host, store, source_file, file_row). file_row is the row's position among the rows its partition wrote
-- for its source file (load/partition.ts), so the four are unique by construction (source_line and
-- source_seq are not: a task_metadata.json's arrays all number from 1, and a partition's parser rows have
-- no line), and the same evidence read by the same code gives the same row_id on every load. None of the
-- four holds a NUL, so the NUL-separated text hashed is itself unique. Two rows share a row_id only if MD5
-- collides on two such texts: by chance about n^2 / 2^129 (1e-19 for 10 billion rows); on purpose it takes
-- an MD5 collision whose differing bytes make valid UTF-8 path names without '/' or NUL, in two files of one
-- fleet. A 64-bit hash() was measured 2 to 7 times cheaper to compute (4.6 million rows: 1.1 s against 8.4 s) but
-- its collisions can be found by brute force over file names (2^32 tries), and the readable text key
-- host/store/source_file#file_row took 5 times longer than MD5 to join on itself.
-- row_id_of is the one definition; raw_secrets names the row a secret was found in with it too.
create or replace macro row_id_of(host, store, source_file, file_row) as
    md5_number(host || chr(0) || store || chr(0) || source_file || chr(0) || file_row::VARCHAR);

create or replace view raw_events as
select
    row_id_of(host, store, source_file, file_row) as row_id,
    *
from {{events_source}};

comment on view raw_events is 'Every row every reader wrote, as stored in the Parquet partitions. Grain: one row per reader row (row_id).';
comment on column raw_events.row_id is 'The row''s identity, unique over raw_events and events, the same on every load of the same evidence by the same code: MD5 (128 bits) of (host, store, source_file, file_row); of (''derived'', kind, the source row''s row_id) for a derived model: or permission mode: row (sql/00, sql/12). Every model joins on it.';
comment on column raw_events.host is 'Host image name (its folder under the fleet root, or --host NAME); partition key; always text.';
comment on column raw_events.store is 'Cline store the row was read from (vscode-tasks, cline-tasks, sdk-sessions, sessions-db, search-index, input-history, hooks-log, sync-queue, settings, credentials, discovery); partition key.';
comment on column raw_events.home is 'Home folder inside the image, / separated, e.g. C/Users/alice.';
comment on column raw_events.client is 'Whose store: the editor (vscode, cursor, vscode-server, ...) or cline for ~/.cline/data; - for files every client shares.';
comment on column raw_events.source_file is 'Path of the evidence file relative to the image root, / separated, as found (never redacted).';
comment on column raw_events.source_line is '1-based position of the record in its file: array index + 1, line number, SQLite rowid or primary-key order, search ordinal + 1; null for a row of the whole file.';
comment on column raw_events.source_seq is '0-based position of the row among the rows of one record (the content blocks of one message); a derived row sorts just before (model) or after (permission) the row it derives from.';
comment on column raw_events.source_role is 'primary (a store of record) or secondary (a store that repeats a transcript: hooks-log, input-history, search-index), which the duplicate rule may drop.';
comment on column raw_events.timestamp_utc is 'When it happened, UTC; null where the source records no time.';
comment on column raw_events.session_id is 'Legacy task id, SDK session id or Cline Cloud ses- id; null for rows of no session.';
comment on column raw_events.project_path is 'Workspace path as recorded on the host.';
comment on column raw_events.git_branch is 'Git branch where the source records one (hooks.jsonl workspaceInfo), else null.';
comment on column raw_events.turn_type is 'user, assistant, thinking, tool_use, tool_result or system.';
comment on column raw_events.kind is 'The source''s own discriminator: say:command, ask:tool, tool_use, text, model, permission, sync, origin, session_start, parser, ...';
comment on column raw_events.model is 'Model id in force for the row, where recorded.';
comment on column raw_events.provider is 'Provider id, where recorded.';
comment on column raw_events.tool_name is 'Tool name of a tool row.';
comment on column raw_events.tool_use_id is 'Call id pairing a tool_use with its tool_result (legacy tasks: the message ts).';
comment on column raw_events.text is 'The text: prompt, reply, command, tool input summary, or a system row''s text (model: ..., session synced: ..., parser: ...); secrets replaced by [REDACTED:kind:fingerprint] unless the load kept them; cut at 8 Mi characters.';
comment on column raw_events.tokens_in is 'Input tokens, where recorded.';
comment on column raw_events.tokens_out is 'Output tokens, where recorded.';
comment on column raw_events.cost_usd is 'Cost in US dollars, where recorded.';
comment on column raw_events.is_error is 'True for a failed tool result, an error row or a parser: row; null where the source does not say.';
comment on column raw_events.file_row is '1-based position of the row among the rows its partition wrote for its source file, in reader order (stamped by the partition writer; with host, store and source_file it names the row). A derived row has its source row''s.';
comment on column raw_events.permission_mode is 'Permission mode (plan, act) of a task_metadata model_usage entry and of the model:/permission mode: rows derived from it; null elsewhere.';
comment on column raw_events.sync_target is 'On a sync row whose transcript left the host, where to: cline-cloud, ''<adapter> bucket <bucket> object <key>'' (enterprise upload), or ''enterprise upload queue: <key>''; null elsewhere, and on a queue item not synced.';
comment on column raw_events.session_origin is 'remote on an origin row (a Cline Cloud session, from globalState.json or a pending sandbox start); null elsewhere.';
comment on column raw_events.imported_from is 'On an SDK session_start row, the agent the session was imported from (metadata.importedFrom.tool, - when not named); null elsewhere.';
