-- int_legacy_result_pairs: the legacy_result rule of the duplicate rule (issue 27). A legacy task's request
-- carries each tool's result back to the model; the reader gives each a `request:tool_result` row
-- (readers/legacy-tasks/request-results.ts). Where the task's ui_messages.json also records that call's result as a
-- message of its own (command_output, mcp_server_response, browser_action_result: the same call id in the same
-- file), the request's copy is dropped and the message kept, so a result is one row of events (a file read, a
-- denied command and most tools have no such message: their request copy is the result). Inputs: raw_events.
-- Grain: one row per dropped request copy, with the first result message of its call (sql/31 lists them in
-- duplicates).
create or replace table int_legacy_result_pairs as
with request_copies as (
    select row_id, host, source_file, tool_use_id
    from raw_events
    where store in ('vscode-tasks', 'cline-tasks') and kind = 'request:tool_result' and tool_use_id is not null
),

result_messages as (
    select host, source_file, tool_use_id, arg_min(row_id, [source_line, source_seq]) as kept_row_id
    from raw_events
    where store in ('vscode-tasks', 'cline-tasks') and turn_type = 'tool_result' and kind <> 'request:tool_result'
      and tool_use_id is not null
    group by all
)

select r.row_id as dropped_row_id, m.kept_row_id
from request_copies as r
join result_messages as m on m.host = r.host and m.source_file = r.source_file and m.tool_use_id = r.tool_use_id;

comment on table int_legacy_result_pairs is 'The rule legacy_result of the duplicate rule: each legacy request''s copy of a tool result its task records as a message of its own, with that message. Grain: one row per dropped request copy.';
comment on column int_legacy_result_pairs.dropped_row_id is 'row_id of the request:tool_result row dropped from events.';
comment on column int_legacy_result_pairs.kept_row_id is 'row_id of the first result message of the same call in the same file, which stays.';
