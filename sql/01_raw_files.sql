-- raw_files: the evidence files each partition read, from the `_files.<gen>.jsonl` inventory that its
-- manifest names, beside the partition's Parquet parts (load/partition.ts). Grain: one row per
-- (host, store, source_file).
create or replace view raw_files as
select * from {{files_source}};

comment on view raw_files is 'The evidence files each partition read, from the _files.<gen>.jsonl inventories the manifests name. Grain: one row per (host, store, source_file).';
comment on column raw_files.host is 'Host image name.';
comment on column raw_files.store is 'Cline store of the partition.';
comment on column raw_files.home is 'Home folder inside the image, / separated.';
comment on column raw_files.client is 'Whose store: the editor, or cline for ~/.cline/data.';
comment on column raw_files.source_file is 'Path of the evidence file relative to the image root, / separated.';
comment on column raw_files.size is 'Size in bytes when fingerprinted, before it was read; null if it could not be read.';
comment on column raw_files.mtime_ms is 'Modification time, epoch milliseconds.';
comment on column raw_files.sha256 is 'SHA-256 of the bytes read, hex.';
comment on column raw_files.rows is 'Rows the file gave, parser: rows included.';
comment on column raw_files.errors is 'parser: rows the file gave.';
comment on column raw_files.first_error is 'Text of its first parser: row, null if none.';
