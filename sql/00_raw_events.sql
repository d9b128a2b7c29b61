-- raw_events: every row every reader wrote, as stored in the Parquet partitions
-- OUT/parquet/events/host=H/store=S/*.parquet. Grain: one row per reader row.
-- host and store are columns of every Parquet file (always VARCHAR: a host named 0042 stays text), so the
-- partition folder names are not parsed (hive_partitioning = false).
create or replace view raw_events as
select * from {{events_source}};
