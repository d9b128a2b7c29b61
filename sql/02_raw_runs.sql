-- raw_runs: one row per `clinetrail load`, from OUT/state/runs/*.json, one file per
-- run written by rename (load/run.ts RunRecord).
create or replace view raw_runs as
select * from {{runs_source}};
