-- load_runs: one row per `clinetrail load` on this OUT (OUT/state/runs/*.json, core/records.ts RunRecord),
-- newest last: every figure of the load's summary line, and the clinetrail version that wrote it. The
-- newest run also counts the sessions it found; runs written before a run recorded its duplicates count
-- show the current count on the newest run only. A view, so a load that changed no partition (and kept
-- fleet.duckdb) still shows its run.
create or replace view load_runs as
with runs as (
    select *, row_number() over (order by started_at desc) as recency
    from raw_runs
)

select
    run_id,
    clinetrail_version,
    started_at as started_at_utc,
    ended_at as ended_at_utc,
    finished_at as finished_at_utc,
    hosts as count_hosts,
    partitions_written as count_partitions_written,
    partitions_unchanged as count_partitions_unchanged,
    partitions_removed as count_partitions_removed,
    files_read as count_files_read,
    files_unchanged as count_files_unchanged,
    rows_written as count_rows_written,
    parser_errors as count_parser_errors,
    discovery_problems as count_discovery_problems,
    coalesce(duplicates_dropped, case when recency = 1 then (select count(*) from duplicates) end) as count_duplicates_dropped,
    secrets_redacted as is_secrets_redacted,
    secrets_found as count_secrets_redacted,
    case when recency = 1 then (select count(*) from sessions) end as count_sessions,
    is_full_load
from runs
order by started_at;
