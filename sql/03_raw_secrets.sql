-- raw_secrets: the secrets redacted from row texts, from the `_secrets.jsonl` written beside each partition's
-- Parquet parts (pipeline/partition.ts, pipeline/redact.ts). Empty when every load kept secrets
-- (`--keep-secrets`). Grain: one row per secret found in one row's text. Never holds a secret value.
create or replace view raw_secrets as
select * from {{secrets_source}};
