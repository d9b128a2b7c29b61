-- int_tool_calls: every tool call of the agent in events, with what kind of call it is and how its approval stood,
-- without its text (the view tool_calls, sql/43, adds it): the one definition of "a command", "a file tool", "a
-- final answer" and "ran without a human approving" for the hunts, the report and the README (issue 27). Inputs:
-- int_timeline, safety_off (sql/40), int_fork_switches (sql/39), int_denied_calls (sql/41). Grain: one row per
-- tool_use row of events (row_id).
--   call_type  final answer (is_final_answer_tool: never a command or a file access, whatever its text names),
--              command (is_command_call), file (file_tool_operation), mcp, browser, web, or other
--   approval   denied     a result of the call says the user denied it or it was not approved: it never ran
--              asked      a legacy ask: message of Cline (Cline asked; approved unless a result says otherwise); Roo
--                         Code and Kilo Code write ask: for every call, so theirs is auto when the same agent's standing
--                         settings in that home and editor approve it (Kilo Code's yolo: every action; a command: its
--                         allowedCommands and deniedCommands as prefixes, sql/37 fork_command_approved), else unknown
--              auto       ran with no human approving: a legacy say: message (Cline writes say for a call it did
--                         not ask about), a hook policy's autoApprove for the call, a session in yolo (task
--                         settings, a mode change) or non-interactive (an SDK session's own setting: nobody could
--                         approve, and a call that needed it was refused), or, for a command of an SDK session, the
--                         standing settings of its home approving every command (safety_off)
--              unknown    none of these is recorded
-- What a call is and how its approval stood is found once, at build time, without its text (int_tool_calls; and
-- int_denied_calls, the calls a result says were denied); the view tool_calls adds the texts from the timeline's
-- stored rows (int_timeline, by row_id). As one view over int_timeline, each of a hunt's reads
-- of it evaluated the timeline's joins again and scanned every tool result: the pack went past the MCP server's
-- 30 s limit on the demo fleet of a loaded machine.
create or replace table int_tool_calls as
with calls as (
    select * exclude (text)
    from int_timeline
    where turn_type = 'tool_use'
),

hook_approved as (
    select distinct host, session_id, tool_use_id
    from safety_off
    where what = 'hook approval' and tool_use_id is not null
),

yolo_sessions as (
    select host, session_id, min(what) as what
    from safety_off
    where session_id is not null and what in ('yolo mode', 'every command', 'yolo session', 'non-interactive session')
    group by all
),

approving_homes as (
    select host, home, agent, min(what) as what
    from safety_off
    where scope = 'home' and what in ('yolo mode', 'every command', 'every tool')
    group by all
),

-- Roo Code's and Kilo Code's settings are per editor: one home may run Roo Code in Code and in Cursor
approving_fork_editors as (
    select host, home, client, agent, min(what) as what
    from safety_off
    where scope = 'home' and agent in ('roo-code', 'kilo-code') and what = 'yolo mode'
    group by all
),

-- the commands a fork's own allowedCommands and deniedCommands approve (sql/37 fork_command_approved), in an editor
-- whose auto-approval is on and approves commands (alwaysAllowExecute); the command is the call's text
fork_command_lists as (
    select host, home, client, agent, flatten(list(allowed_commands)) as allowed, flatten(list(denied_commands)) as denied
    from int_fork_switches
    where scope = 'home' and enabled and executes
    group by all
),

fork_approved_commands as (
    select c.row_id
    from calls as c
    join fork_command_lists as l on l.host = c.host and l.home = c.home and l.client = c.client and l.agent = c.agent
    join raw_events as r on r.row_id = c.row_id
    where c.kind like 'ask:%' and is_command_call(c.turn_type, c.tool_name, c.kind)
      and r.store in ('roo-tasks', 'kilo-tasks') and fork_command_approved(r.text, l.allowed, l.denied)
),

typed as (
    select
        c.*,
        case
            when is_final_answer_tool(c.tool_name) then 'final answer'
            when is_command_call(c.turn_type, c.tool_name, c.kind) then 'command'
            when file_tool_operation(c.tool_name) is not null then 'file'
            when c.kind in ('say:use_mcp_server', 'ask:use_mcp_server') or c.tool_name in ('use_mcp_tool', 'access_mcp_resource')
                or c.tool_name like '%\_\_%' escape '\' then 'mcp'
            when c.tool_name in ('browser_action', 'browser_action_launch') then 'browser'
            when regexp_matches(coalesce(c.tool_name, ''), 'fetch|web_?search|webFetch|webSearch|http|request|url', 'i') then 'web'
            else 'other'
        end as call_type
    from calls as c
)

select
    t.* exclude (call_type),
    t.call_type,
    case
        when d.tool_use_id is not null then 'denied'
        when fa.what = 'yolo mode' or fc.row_id is not null then 'auto'
        when t.agent in ('roo-code', 'kilo-code') and t.kind like 'ask:%' then 'unknown'
        when t.kind like 'ask:%' then 'asked'
        when t.kind like 'say:%' then 'auto'
        when h.tool_use_id is not null or y.what is not null then 'auto'
        when a.what is not null and t.call_type = 'command' then 'auto'
        else 'unknown'
    end as approval,
    case
        when d.tool_use_id is not null then 'a result says it was denied or not approved'
        when fa.what = 'yolo mode' then 'standing settings of the agent approve every action (' || t.agent || ' yolo mode)'
        when fc.row_id is not null
            then 'standing settings of the agent approve this command (' || t.agent || ' allowedCommands)'
        when t.agent in ('roo-code', 'kilo-code') and t.kind like 'ask:%' then null
        when t.kind like 'ask:%' then 'Cline asked (' || t.kind || ')'
        when t.kind like 'say:%' then 'auto-approved: ' || t.kind
        when h.tool_use_id is not null then 'a hook policy answered autoApprove'
        when y.what = 'yolo session' then 'session in yolo mode'
        when y.what = 'non-interactive session' then 'a non-interactive session: no human could approve'
        when y.what is not null then 'task settings approve every command'
        when a.what is not null and t.call_type = 'command' then 'standing settings of the home approve every command'
    end as approval_reason
from typed as t
left join int_denied_calls as d on d.host = t.host and d.session_id is not distinct from t.session_id and d.tool_use_id = t.tool_use_id
left join hook_approved as h on h.host = t.host and h.session_id is not distinct from t.session_id and h.tool_use_id = t.tool_use_id
left join yolo_sessions as y on y.host = t.host and y.session_id = t.session_id
left join approving_homes as a on a.host = t.host and a.home = t.home and a.agent = t.agent and t.kind not like 'say:%' and t.kind not like 'ask:%'
-- Roo Code and Kilo Code write an ask: message for every call, approved by their settings or by a person
-- (their Task.ask adds it before checkAutoApproval): only their own standing settings tell the two apart
left join approving_fork_editors as fa on fa.host = t.host and fa.home = t.home and fa.client = t.client and fa.agent = t.agent
    and t.kind like 'ask:%'
left join fork_approved_commands as fc on fc.row_id = t.row_id;

comment on table int_tool_calls is 'Every tool call of the agent with its kind and how its approval stood, without its text (tool_calls adds it). Grain: one row per tool_use row of events (row_id); the columns of events but text, then call_type, approval and approval_reason.';
{{int_tool_calls_column_comments}}
comment on column int_tool_calls.call_type is 'final answer, command, file, mcp, browser, web or other (tool_calls.call_type).';
comment on column int_tool_calls.approval is 'denied, asked, auto or unknown (tool_calls.approval).';
comment on column int_tool_calls.approval_reason is 'What the evidence says about the approval, in words; null when unknown.';
