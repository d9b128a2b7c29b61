-- raw_secrets: the secrets redacted from rows, from the `_secrets.<gen>.jsonl` files that the partitions'
-- manifests name (load/partition.ts, write/redact-row.ts). Empty when every load kept secrets
-- (`--keep-secrets`). Grain: one row per secret found in one column of one row. Never holds a secret
-- value. Lines written before `column_name` existed held secrets of `text` only, and read as 'text'.
-- row_id is that of the row in raw_events (sql/01 row_id_of); null on lines written before file_row existed.
create or replace view raw_secrets as
select
    row_id_of(host, store, source_file, file_row) as row_id,
    * replace (coalesce(column_name, 'text') as column_name)
from {{secrets_source}};

comment on view raw_secrets is 'The secrets redacted from rows, from the _secrets.<gen>.jsonl files the manifests name; never a value. Grain: one row per secret found in one column of one row.';
comment on column raw_secrets.row_id is 'row_id of the row that held it (raw_events); null on lines written before file_row existed.';
-- the other columns are documented by their shape (core/records.ts, warehouse/record-comments.ts)
{{secrets_column_comments}}
