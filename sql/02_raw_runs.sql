-- raw_runs: one row per `clinetrail load`, from OUT/state/runs/*.json, one file per
-- run written by rename (load/run.ts RunRecord).
create or replace view raw_runs as
select * from {{runs_source}};

comment on view raw_runs is 'One row per clinetrail load, from OUT/state/runs/*.json (load/run.ts RunRecord). Grain: one row per run.';
comment on column raw_runs.run_id is 'Id of the run (its record file name).';
comment on column raw_runs.started_at is 'When the load started.';
comment on column raw_runs.ended_at is 'When it ended.';
comment on column raw_runs.hosts is 'Host images in its input.';
comment on column raw_runs.partitions_written is '(host, store) partitions it read and wrote.';
comment on column raw_runs.partitions_unchanged is 'Partitions it kept as they were.';
comment on column raw_runs.partitions_removed is 'Partitions of hosts or stores no longer in the input that it withdrew.';
comment on column raw_runs.files_read is 'Evidence files it read.';
comment on column raw_runs.files_unchanged is 'Evidence files of unchanged partitions, not read.';
comment on column raw_runs.rows_written is 'Rows it wrote.';
comment on column raw_runs.parser_errors is 'parser: rows among them.';
comment on column raw_runs.discovery_problems is 'Problems discovery reported (links out of the image, FIFOs, trees too deep, ...).';
comment on column raw_runs.is_full_load is 'True for a load with --full.';
