-- events: the hunt timeline (sql/27_int_timeline.sql), ordered by host, time (undated rows last), file
-- and position. Grain: one row per event, same columns as raw_events.
create or replace view events as
select * from int_timeline
order by host, timestamp_utc nulls last, source_file, source_line nulls first, source_seq, session_id, kind;

comment on view events is 'The hunt timeline: every primary row, every secondary row the duplicate rule kept, and the derived model and permission-mode change rows, ordered by host, time (undated last), file and position. Grain: one row per event (row_id); same columns as raw_events.';
comment on column events.row_id is 'The row''s identity, unique over raw_events and events, the same on every load of the same evidence by the same code: MD5 (128 bits) of (host, store, source_file, file_row); of (''derived'', kind, the source row''s row_id) for a derived model: or permission mode: row (sql/00, sql/12). Every model joins on it.';
comment on column events.host is 'Host image name (its folder under the fleet root, or --host NAME); partition key; always text.';
comment on column events.store is 'Cline store the row was read from (vscode-tasks, cline-tasks, sdk-sessions, sessions-db, search-index, input-history, hooks-log, sync-queue, settings, credentials, discovery); partition key.';
comment on column events.home is 'Home folder inside the image, / separated, e.g. C/Users/alice.';
comment on column events.client is 'Whose store: the editor (vscode, cursor, vscode-server, ...) or cline for ~/.cline/data; - for files every client shares.';
comment on column events.source_file is 'Path of the evidence file relative to the image root, / separated, as found (never redacted).';
comment on column events.source_line is '1-based position of the record in its file: array index + 1, line number, SQLite rowid or primary-key order, search ordinal + 1; null for a row of the whole file.';
comment on column events.source_seq is '0-based position of the row among the rows of one record (the content blocks of one message); a derived row sorts just before (model) or after (permission) the row it derives from.';
comment on column events.source_role is 'primary (a store of record) or secondary (a store that repeats a transcript: hooks-log, input-history, search-index), which the duplicate rule may drop.';
comment on column events.timestamp_utc is 'When it happened, UTC; null where the source records no time.';
comment on column events.session_id is 'Legacy task id, SDK session id or Cline Cloud ses- id; null for rows of no session.';
comment on column events.project_path is 'Workspace path as recorded on the host.';
comment on column events.git_branch is 'Git branch where the source records one (hooks.jsonl workspaceInfo), else null.';
comment on column events.turn_type is 'user, assistant, thinking, tool_use, tool_result or system.';
comment on column events.kind is 'The source''s own discriminator: say:command, ask:tool, tool_use, text, model, permission, sync, origin, session_start, parser, ...';
comment on column events.model is 'Model id in force for the row, where recorded.';
comment on column events.provider is 'Provider id, where recorded.';
comment on column events.tool_name is 'Tool name of a tool row.';
comment on column events.tool_use_id is 'Call id pairing a tool_use with its tool_result (legacy tasks: the message ts).';
comment on column events.text is 'The text: prompt, reply, command, tool input summary, or a system row''s text (model: ..., session synced: ..., parser: ...); secrets replaced by [REDACTED:kind:fingerprint] unless the load kept them; cut at 8 Mi characters.';
comment on column events.tokens_in is 'Input tokens, where recorded.';
comment on column events.tokens_out is 'Output tokens, where recorded.';
comment on column events.cost_usd is 'Cost in US dollars, where recorded.';
comment on column events.is_error is 'True for a failed tool result, an error row or a parser: row; null where the source does not say.';
comment on column events.file_row is '1-based position of the row among the rows its partition wrote for its source file, in reader order (stamped by the partition writer; with host, store and source_file it names the row). A derived row has its source row''s.';
comment on column events.permission_mode is 'Permission mode (plan, act) of a task_metadata model_usage entry and of the model:/permission mode: rows derived from it; null elsewhere.';
comment on column events.sync_target is 'On a sync row whose transcript left the host, where to: cline-cloud, ''<adapter> bucket <bucket> object <key>'' (enterprise upload), or ''enterprise upload queue: <key>''; null elsewhere, and on a queue item not synced.';
comment on column events.session_origin is 'remote on an origin row (a Cline Cloud session, from globalState.json or a pending sandbox start); null elsewhere.';
comment on column events.imported_from is 'On an SDK session_start row, the agent the session was imported from (metadata.importedFrom.tool, - when not named); null elsewhere.';
