-- id: agent-driven-session
-- title: Session driven by another agent that ran commands or edited files
-- severity: medium
-- attack: T1059, T1565.001
-- agents: cline
-- scope: host
-- description: A session that another program, such as an AI agent through a local MCP bridge (it spawns the
--   Cline CLI with its own prompt, flags, working folder, provider and model), drove rather than a person
--   (sessions.driven_by = agent: the evidence is in sessions.driven_by_evidence, sql/32), and in which the agent
--   ran a command or wrote a file with its file tool (tool_calls) that no result says was denied or
--   not approved. One finding per session, at its first such call; the summary counts the commands and the
--   writes, and quotes the first command. A session typed by a person is never agent; one whose records cannot
--   tell (a bridge's run with no override leaves the same records as a person's one-shot run at a shell) is
--   unknown and not listed: query sessions where driven_by = 'unknown' for those.
-- false_positives: A person's own script or tool that overrides the provider or model for one run and writes
--   the old defaults back into providers.json afterwards looks like a bridge; a bridge the user installed on
--   purpose is expected work: check the session's prompt and working folder. A person who set providers.json back
--   by hand right after a session, keeping its updatedAt, would look the same.
-- columns: host, session_id, row_id, timestamp_utc, summary, source_file
with driven as (
    select host, session_id, driven_by_evidence
    from sessions
    where driven_by = 'agent'
),

-- its calls that ran a command or wrote with its file tool (tool_calls: call_type, and the write operation of
-- sql/37 file_tool_operation, as commands and file_accesses read them), in one read of tool_calls
acts as (
    select t.host, t.session_id, t.row_id, t.timestamp_utc, t.source_file,
        case when t.call_type = 'command' then 'command' else 'write' end as act,
        case when t.call_type = 'command' then t.text end as what
    from tool_calls as t
    semi join driven as d on d.host = t.host and d.session_id = t.session_id
    where t.approval <> 'denied'
      and (t.call_type = 'command' or (t.call_type = 'file' and file_tool_operation(t.tool_name) = 'write'))
),

per_session as (
    select
        a.host,
        a.session_id,
        arg_min(a.row_id, a.timestamp_utc) as row_id,
        min(a.timestamp_utc) as timestamp_utc,
        arg_min(a.source_file, a.timestamp_utc) as source_file,
        count(*) filter (where a.act = 'command') as commands,
        count(*) filter (where a.act = 'write') as writes,
        arg_min(a.what, a.timestamp_utc) filter (where a.act = 'command') as first_command,
        any_value(d.driven_by_evidence) as evidence
    from acts as a
    join driven as d on d.host = a.host and d.session_id = a.session_id
    group by all
)

select host, session_id, row_id, timestamp_utc,
  'session ' || session_id || ' driven by another agent (' || array_to_string(evidence, ', ') || ') ran '
    || commands || ' command(s)' || coalesce(', first: ' || first_command, '')
    || ' and made ' || writes || ' write(s) with its file tool' as summary,
  source_file
from per_session
