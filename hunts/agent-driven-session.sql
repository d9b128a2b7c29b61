-- id: agent-driven-session
-- title: Session driven by another agent that ran commands or edited files
-- severity: medium
-- attack: T1059, T1565.001
-- agents: cline
-- description: A session that another program, such as an AI agent through a local MCP bridge (it spawns the
--   Cline CLI with its own prompt, flags, working folder, provider and model), drove rather than a person
--   (sessions.driven_by = agent: the evidence is in sessions.driven_by_evidence, sql/32), and in which the agent
--   ran a command (commands) or wrote a file (file_accesses, operation write) that no result says was denied or
--   not approved. One finding per session, at its first such call; the summary counts the commands and the files
--   written. A session typed by a person is never agent; one whose records cannot tell (a bridge's run with no
--   override leaves the same records as a person's one-shot run at a shell) is unknown and not listed: query
--   sessions where driven_by = 'unknown' for those.
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

acts as (
    select host, session_id, row_id, timestamp_utc, source_file, 'command' as act, command as what
    from commands
    where approval <> 'denied'
    union all
    select host, session_id, row_id, timestamp_utc, source_file, 'write' as act, path as what
    from file_accesses
    where operation = 'write' and approval <> 'denied'
),

per_session as (
    select
        a.host,
        a.session_id,
        arg_min(a.row_id, a.timestamp_utc) as row_id,
        min(a.timestamp_utc) as timestamp_utc,
        arg_min(a.source_file, a.timestamp_utc) as source_file,
        count(distinct a.row_id) filter (where a.act = 'command') as commands,
        count(distinct a.what) filter (where a.act = 'write') as files_written,
        arg_min(a.what, a.timestamp_utc) filter (where a.act = 'command') as first_command,
        arg_min(a.what, a.timestamp_utc) filter (where a.act = 'write') as first_file,
        any_value(d.driven_by_evidence) as evidence
    from acts as a
    join driven as d on d.host = a.host and d.session_id = a.session_id
    group by all
)

select host, session_id, row_id, timestamp_utc,
  'session ' || session_id || ' driven by another agent (' || array_to_string(evidence, ', ') || ') ran '
    || commands || ' command(s)' || coalesce(', first: ' || first_command, '')
    || ' and wrote ' || files_written || ' file(s)' || coalesce(', first: ' || first_file, '') as summary,
  source_file
from per_session
