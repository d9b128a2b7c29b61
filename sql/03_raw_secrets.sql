-- raw_secrets: the secrets redacted from rows, from the `_secrets.<gen>.jsonl` files that the partitions'
-- manifests name (load/partition.ts, write/redact-row.ts). Empty when every load kept secrets
-- (`--keep-secrets`). Grain: one row per secret found in one column of one row. Never holds a secret
-- value. Lines written before `column_name` existed held secrets of `text` only, and read as 'text'.
create or replace view raw_secrets as
select * replace (coalesce(column_name, 'text') as column_name)
from {{secrets_source}};
