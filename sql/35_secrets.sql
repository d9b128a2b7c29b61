-- secrets: every API key, token, private key or credential value that a load replaced by
-- `[REDACTED:<kind>:<fingerprint>]` in a row's text or other content column (`column_name`: text,
-- session_id, project_path, git_branch, model, provider, tool_name, tool_use_id, kind), where it was
-- found, and its fingerprint (the first 12 hex digits of its SHA-256). Join on fingerprint to follow one
-- key across hosts and sessions, and on (host, store, source_file, source_line, source_seq) to the row
-- in raw_events. Inputs: raw_secrets. Grain: one secret in one column of one row. The values themselves
-- are never stored.
create or replace table secrets as
select
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
