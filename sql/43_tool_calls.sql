-- tool_calls: every tool call of the agent in events, with its kind and how its approval stood (int_tool_calls,
-- sql/42, where the rules are), and its text from the timeline's rows (int_timeline, by row_id: the host build
-- stores them, one file per host, where raw_events is every part of the host). Grain: one row per tool_use
-- row of events (row_id).
create or replace view tool_calls as
select c.*, r.text
from int_tool_calls as c
join (select row_id, text from int_timeline where turn_type = 'tool_use') as r on r.row_id = c.row_id;

comment on view tool_calls is 'Every tool call of the agent in events, with its kind (final answer, command, file, mcp, browser, web, other) and how its approval stood (denied, asked, auto, unknown). Grain: one row per tool_use row of events (row_id); the columns of events, then call_type, approval and approval_reason.';
{{tool_calls_column_comments}}
comment on column tool_calls.call_type is 'final answer (attempt_completion, submit_and_exit, plan_mode_respond, ...: never a command or a file access), command, file, mcp, browser, web or other.';
comment on column tool_calls.approval is 'denied (a result says so: it never ran), asked (a legacy ask: message of Cline), auto (ran with no human approving: a legacy say: message, a hook''s autoApprove, a yolo session, a command in a home whose settings approve every command, or a Roo Code or Kilo Code call its own settings in that editor approve), unknown (a fork''s ask:, written whether or not a person approved, included).';
comment on column tool_calls.approval_reason is 'What the evidence says about the approval, in words; null when unknown.';
