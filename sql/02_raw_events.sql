-- raw_events: every row every reader wrote, as stored in the Parquet partitions
-- OUT/parquet/events/<host>/<store>/*.parquet. Grain: one row per reader row, named by row_id.
-- host and store are columns of every Parquet file (always VARCHAR: a host named 0042 stays text); the
-- folder names are no hive keys, and are not parsed (hive_partitioning = false).
-- row_id is row_id_of (sql/01_row_macros.sql) of (host, store, source_file, file_row).

create or replace view raw_events as
select
    row_id_of(host, store, source_file, file_row) as row_id,
    *
from {{events_source}};

comment on view raw_events is 'Every row every reader wrote, as stored in the Parquet partitions. Grain: one row per reader row (row_id).';
-- every column is documented by the row schema (core/records.ts COLUMNS, warehouse/record-comments.ts)
{{raw_events_column_comments}}
