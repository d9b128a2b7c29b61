-- id: credential-access
-- title: The agent read credentials (secret files, keys, browser or keychain stores, environment, cloud metadata)
-- severity: high
-- attack: T1552.001, T1552.004, T1555.001, T1555.003, T1552.005
-- agents: cline, roo-code, kilo-code
-- scope: host
-- description: A command or file tool call of the agent (never a prompt, never a tool's output, never a
--   final-answer tool such as attempt_completion or submit_and_exit whose text only names a file; a file write
--   by the file it writes, not by what it writes there) that reaches for credentials. Paths come from
--   file_accesses (sql/45): a file tool's paths and the words of a command as a shell reads it, so `cat .env`,
--   `@.env`, `< .env`, `source .env` and `--env-file .env` all name .env, each resolved against the session's
--   working folder and the home first: a .env file (not .env.example, .env.sample, .env.template, .env.dist)
--   anywhere; outside the project ~/.aws/credentials or config, an SSH private key (~/.ssh/id_*, not .pub) or
--   authorized_keys, .netrc, .git-credentials, .pgpass, .npmrc, .pypirc, docker, kube and gcloud credentials;
--   /etc/shadow; a browser's password or cookie store (Login Data, Cookies, logins.json, key4.db); the macOS
--   keychain (security find-*-password, dump-keychain, *.keychain-db); the environment (printenv, env alone,
--   /proc/*/environ, export -p); a cloud metadata endpoint (169.254.169.254, metadata.google.internal,
--   169.254.170.2). One finding per call.
-- false_positives: Setting up a project's own .env from a template the user asked for; a deploy
--   script the user asked to debug that reads ~/.aws/config for the region; printenv to check PATH.
-- columns: host, session_id, row_id, timestamp_utc, summary, source_file
with by_path as (
    select row_id, host, session_id, timestamp_utc, source_file, tool_name, kind, via, text,
        min(credential_class) as what, min(path) as path
    from file_accesses
    where credential_class is not null
    group by all
),

by_command as (
    select row_id, host, session_id, timestamp_utc, source_file, tool_name, kind, 'command' as via, text,
        case
            when regexp_matches(command_read, 'security\s+(find-(generic|internet)-password|dump-keychain)', 'i') then 'keychain'
            when regexp_matches(command_read, '(^|[\s;&|(`])printenv\b|(^|[\s;&|(`])env\s*($|[|;&>])|/proc/[^/\s]+/environ|(^|[\s;&|(`])export\s+-p\b', 'i')
                then 'environment variables'
            when regexp_matches(command_read, '169\.254\.169\.254|metadata\.google\.internal|169\.254\.170\.2|fd00:ec2::254', 'i') then 'cloud metadata endpoint'
        end as what,
        null as path
    from commands
),

by_other_tool as (
    select row_id, host, session_id, timestamp_utc, source_file, tool_name, kind, 'tool' as via, text,
        'cloud metadata endpoint' as what, null as path
    from tool_calls
    where call_type in ('web', 'browser', 'mcp', 'other')
      and regexp_matches(text, '169\.254\.169\.254|metadata\.google\.internal|169\.254\.170\.2|fd00:ec2::254', 'i')
),

hits as (
    select * from by_path
    union all by name
    select * from by_command where what is not null
    union all by name
    select * from by_other_tool
)

select host, session_id, row_id, timestamp_utc,
    min(what) || ' accessed by ' || coalesce(min(tool_name), min(kind)) || ': '
        || left(case when min(via) = 'file tool' then min(path) else min(text) end, 300) as summary,
    source_file
from hits
group by host, session_id, row_id, timestamp_utc, source_file
