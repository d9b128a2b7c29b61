-- load_runs: one row per `clinetrail load` on this OUT (OUT/state/runs/*.json, core/records.ts RunRecord),
-- newest last: every figure of the load's summary line, and the clinetrail version that wrote it. The
-- newest run also counts the sessions it found; runs written before a run recorded its duplicates count
-- show the current count on the newest run only. A shard load (`--shard K/N`) is one run of its own: a
-- split in N is N runs, and `shard` says which. A view, so a load that changed no partition (and kept
-- fleet.duckdb) still shows its run. A shard load not finished (killed, failed, running) shows with its
-- figures null, and a shard `clinetrail models` found not run with a row of its own (load/split-check.ts):
-- `status` says which; the counts of the warehouse go to the newest run that ended.
create or replace view load_runs as
with runs as (
    select *, row_number() over (order by ended_at is null, started_at desc) as recency
    from raw_runs
)

select
    run_id,
    clinetrail_version,
    started_at as started_at_utc,
    ended_at as ended_at_utc,
    finished_at as finished_at_utc,
    case
        when shard_missing then 'not run'
        when finished_at is not null then 'finished'
        else 'not finished'
    end as status,
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
    is_full_load,
    case when shard_count is not null then shard_index || '/' || shard_count end as shard,
    prune as is_pruned,
    hosts_absent,
    hosts_kept_empty,
    hosts_renamed
from runs
order by started_at;

comment on view load_runs is 'One row per clinetrail load on this OUT, newest last, with every figure of its summary line; the newest also counts the sessions. Grain: one row per run.';
comment on column load_runs.run_id is 'Id of the run.';
comment on column load_runs.clinetrail_version is 'clinetrail that wrote the run: package version + the version of the code that shaped its rows; null for runs recorded before.';
comment on column load_runs.finished_at_utc is 'When the run finished: warehouse built or kept, old files retired; null for a run killed before.';
comment on column load_runs.status is 'finished; not finished (killed, failed or running: for a shard load, its figures null and its hosts shard not loaded in hosts); or not run: a shard of the split clinetrail models found with no run since the last complete build, recorded by models (exit 6).';
comment on column load_runs.is_secrets_redacted is 'Secrets were redacted from the texts (false with --keep-secrets); null for runs recorded before.';
comment on column load_runs.count_secrets_redacted is 'Secrets redacted from the partitions the run wrote; null for runs recorded before.';
comment on column load_runs.started_at_utc is 'When the load started.';
comment on column load_runs.ended_at_utc is 'When its partitions were written, before the warehouse build.';
comment on column load_runs.count_hosts is 'Host images in its input.';
comment on column load_runs.count_partitions_written is '(host, store) partitions it read and wrote.';
comment on column load_runs.count_partitions_unchanged is 'Partitions it kept as they were.';
comment on column load_runs.is_pruned is 'The load withdrew the hosts not in its input (--prune); null for runs recorded before.';
comment on column load_runs.hosts_absent is 'Hosts the warehouse held that were not in the input: kept, or withdrawn with --prune; null for runs recorded before.';
comment on column load_runs.hosts_kept_empty is 'Hosts of the input whose image gave no Cline store while the warehouse held data for them: that data was kept (exit 4); null for runs recorded before.';
comment on column load_runs.hosts_renamed is 'Hosts of the input loaded as NAME#2, NAME#3, ... because another image of the input claims their host name NAME (hosts.hostname); null for runs recorded before.';
comment on column load_runs.count_partitions_removed is 'Partitions of hosts or stores no longer in the input that it withdrew.';
comment on column load_runs.count_files_read is 'Evidence files it read.';
comment on column load_runs.count_files_unchanged is 'Evidence files of unchanged partitions, not read.';
comment on column load_runs.count_rows_written is 'Rows it wrote.';
comment on column load_runs.count_parser_errors is 'parser: rows among them.';
comment on column load_runs.count_discovery_problems is 'Problems discovery reported.';
comment on column load_runs.count_duplicates_dropped is 'Rows the duplicate rule dropped in the warehouse the run left; for runs recorded before it was kept, the current count on the newest run only.';
comment on column load_runs.count_sessions is 'Rows of sessions in this warehouse; newest run that ended only, else null.';
comment on column load_runs.is_full_load is 'True for a load with --full.';
comment on column load_runs.shard is 'K/N of a shard load (--shard K/N): it loaded only the hosts of shard K of N and built no model (clinetrail models did); null for a plain load. raw_runs holds it as shard_index and shard_count.';
