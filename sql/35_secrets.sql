-- secrets: every API key, token, private key or credential value that a load replaced by
-- `[REDACTED:<kind>:<fingerprint>]` in a row's text or other content column (`column_name`: text,
-- session_id, project_path, git_branch, model, provider, tool_name, tool_use_id, kind), where it was
-- found, and its fingerprint (the first 12 hex digits of its SHA-256). Join on fingerprint to follow one
-- key across hosts and sessions, and on row_id to the row in raw_events. Inputs: raw_secrets. Grain: one secret in one column of one row. The values themselves
-- are never stored.
create or replace table secrets as
select
    row_id,
    host,
    store,
    home,
    client,
    source_file,
    source_line,
    source_seq,
    session_id,
    to_timestamp(timestamp_ms / 1000) as timestamp_utc,
    row_kind,
    column_name,
    kind,
    fingerprint
from raw_secrets
order by host, store, source_file, source_line, source_seq, column_name, kind, fingerprint;

comment on table secrets is 'Every API key, token, private key or credential value a load replaced by [REDACTED:<kind>:<fingerprint>], where it was found; never a value; empty after a --keep-secrets load. Grain: one row per secret in one column of one row.';
comment on column secrets.row_id is 'row_id of the row that held it: join raw_events or events on it; null for secrets files written before it existed.';
comment on column secrets.host is 'Host image name.';
comment on column secrets.store is 'Cline store of the partition.';
comment on column secrets.home is 'Home folder inside the image, / separated.';
comment on column secrets.client is 'Whose store: the editor, or cline for ~/.cline/data.';
comment on column secrets.source_file is 'Path of the evidence file relative to the image root, / separated.';
comment on column secrets.source_line is 'source_line of the row that held it.';
comment on column secrets.source_seq is 'source_seq of the row that held it.';
comment on column secrets.session_id is 'session_id of the row (redacted as in raw_events, so it joins).';
comment on column secrets.timestamp_utc is 'timestamp_utc of the row.';
comment on column secrets.row_kind is 'kind of the row (say:command, tool_result, ...).';
comment on column secrets.column_name is 'Column that held it: text, session_id, project_path, git_branch, model, provider, tool_name, tool_use_id, kind, permission_mode, sync_target, session_origin, imported_from, setting_name, setting_value or parent_session_id.';
comment on column secrets.kind is 'Detector that matched (anthropic, aws_access_key_id, bearer, ...).';
comment on column secrets.fingerprint is 'First 12 hex digits of the secret''s SHA-256: the same key has the same fingerprint everywhere.';
