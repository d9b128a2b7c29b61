-- raw_files: the evidence files each partition read, from the `_files.<gen>.jsonl` inventory that its
-- manifest names, beside the partition's Parquet parts (load/partition.ts). Grain: one row per
-- (host, store, source_file).
create or replace view raw_files as
select * from {{files_source}};
