-- raw_secrets: the secrets redacted from rows, from the `_secrets.<gen>.jsonl` files that the partitions'
-- manifests name (load/partition.ts, write/redact-row.ts). Empty when every load kept secrets
-- (`--keep-secrets`). Grain: one row per secret found in one column of one row. Never holds a secret
-- value. Lines written before `column_name` existed held secrets of `text` only, and read as 'text'.
-- row_id is that of the row in raw_events (sql/00 row_id_of); null on lines written before file_row existed.
create or replace view raw_secrets as
select
    row_id_of(host, store, source_file, file_row) as row_id,
    * replace (coalesce(column_name, 'text') as column_name)
from {{secrets_source}};

comment on view raw_secrets is 'The secrets redacted from rows, from the _secrets.<gen>.jsonl files the manifests name; never a value. Grain: one row per secret found in one column of one row.';
comment on column raw_secrets.row_id is 'row_id of the row that held it (raw_events); null on lines written before file_row existed.';
comment on column raw_secrets.host is 'Host image name.';
comment on column raw_secrets.store is 'Cline store of the partition.';
comment on column raw_secrets.home is 'Home folder inside the image, / separated.';
comment on column raw_secrets.client is 'Whose store: the editor, or cline for ~/.cline/data.';
comment on column raw_secrets.source_file is 'Path of the evidence file relative to the image root, / separated.';
comment on column raw_secrets.source_line is 'source_line of the row that held it.';
comment on column raw_secrets.source_seq is 'source_seq of the row that held it.';
comment on column raw_secrets.session_id is 'session_id of the row (redacted as in raw_events, so it joins).';
comment on column raw_secrets.timestamp_ms is 'timestamp_utc of the row, epoch milliseconds.';
comment on column raw_secrets.row_kind is 'kind of the row (say:command, tool_result, ...).';
comment on column raw_secrets.column_name is 'Column that held it: text, session_id, project_path, git_branch, model, provider, tool_name, tool_use_id, kind or a fact column.';
comment on column raw_secrets.kind is 'Detector that matched (anthropic, aws_access_key_id, bearer, ...).';
comment on column raw_secrets.fingerprint is 'First 12 hex digits of the secret''s SHA-256: the same key has the same fingerprint everywhere.';
comment on column raw_secrets.file_row is 'file_row of the row that held it.';
