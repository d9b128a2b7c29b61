-- int_legacy_failed_rows: the row_ids of raw_events that take is_error from a legacy failure report (the
-- rule "Legacy failures" of int_primary_events, sql/12). Inputs: raw_events. Grain: one row per row_id.
-- A table, built once, rather than CTEs of the view: the report is found by a regular expression on request
-- texts, which every read of int_primary_events would scan again, and a view holding those CTEs kept DuckDB
-- from reading only the columns a query of it uses (every text was read for sessions' counts).
create or replace table int_legacy_failed_rows as
-- the request rows that report a failed tool, by file and line (no text leaves this CTE)
with legacy_failure_reports as (
    select host, source_file, source_line
    from raw_events
    where store in ('vscode-tasks', 'cline-tasks')
      and kind = 'say:api_req_started'
      and starts_with(text, '[')
      and regexp_matches(text, '^\[[a-z_]+ for [^\n]*\] Result:\n(Command failed with exit code -?[0-9]+|The tool execution failed with the following error:)')
),

legacy_tool_uses as (
    select u.host, u.source_file, u.source_line, u.tool_use_id, u.row_id
    from raw_events as u
    semi join legacy_failure_reports as f on f.host = u.host and f.source_file = u.source_file
    where u.store in ('vscode-tasks', 'cline-tasks') and u.turn_type = 'tool_use' and u.tool_use_id is not null
),

-- the tool_use each failure report answers: the last one before it in the file
legacy_failed_tools as (
    select f.host, f.source_file, arg_max(u.tool_use_id, u.source_line) as tool_use_id, arg_max(u.row_id, u.source_line) as tool_use_row_id
    from legacy_failure_reports as f
    join legacy_tool_uses as u on u.host = f.host and u.source_file = f.source_file and u.source_line < f.source_line
    group by f.host, f.source_file, f.source_line
)

select r.row_id
from raw_events as r
join legacy_failed_tools as t
    on t.host = r.host and t.source_file = r.source_file and t.tool_use_id = r.tool_use_id
where r.turn_type = 'tool_result'
union
select t.tool_use_row_id
from legacy_failed_tools as t
anti join (select host, source_file, tool_use_id from raw_events where turn_type = 'tool_result' and tool_use_id is not null) as r
    on r.host = t.host and r.source_file = t.source_file and r.tool_use_id = t.tool_use_id;

comment on table int_legacy_failed_rows is 'The rows of legacy tasks that take is_error from a failure report of the next request (int_primary_events, rule Legacy failures). Grain: one row per row_id.';
comment on column int_legacy_failed_rows.row_id is 'row_id of the tool_result row (else the tool_use row, when the call has no result row) of the failed call.';
