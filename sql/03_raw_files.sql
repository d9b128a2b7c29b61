-- raw_files: the evidence files each partition read, from the `_files.<gen>.jsonl` inventory that its
-- manifest names, beside the partition's Parquet parts (load/partition.ts). Grain: one row per
-- (host, store, source_file).
create or replace view raw_files as
select * from {{files_source}};

comment on view raw_files is 'The evidence files each partition read, from the _files.<gen>.jsonl inventories the manifests name. Grain: one row per (host, store, source_file).';
-- every column is documented by its shape (core/records.ts, warehouse/record-comments.ts)
{{files_column_comments}}
