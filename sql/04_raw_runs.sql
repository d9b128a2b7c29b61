-- raw_runs: one row per `clinetrail load`, from OUT/state/runs/*.json, one file per
-- run written by rename (core/records.ts RunRecord).
create or replace view raw_runs as
select * from {{runs_source}};

comment on view raw_runs is 'One row per clinetrail load, from OUT/state/runs/*.json (core/records.ts RunRecord). Grain: one row per run.';
-- every column is documented by its shape (core/records.ts, warehouse/record-comments.ts)
{{runs_column_comments}}
