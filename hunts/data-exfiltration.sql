-- id: data-exfiltration
-- title: Files or secrets sent to another host by a command or tool call
-- severity: high
-- attack: T1048, T1567, T1041
-- agents: cline, roo-code, kilo-code
-- scope: host
-- description: A call of the agent that sends data out: a command, read as a shell would (commands.command_read),
--   that uploads (curl -T/--upload-file, -F/--form with @file, -d/--data* @file or @- fed by a pipe; wget
--   --post-file/--body-file; scp or rsync to host:path; nc, ncat or socat fed from a file; /dev/tcp/; aws s3
--   cp/sync or gsutil cp to a bucket; rclone copy/sync/move to a remote), and any web fetch, browser or MCP tool
--   call or network command (curl, wget, http, nc) whose input holds a redacted secret
--   ([REDACTED:kind:fingerprint]): the secret left the machine with the request. Downloads (curl -o, wget URL,
--   scp host:path .) are not findings; neither is a final-answer tool. One finding per call.
-- false_positives: Deploys the user asked for (rsync to a staging server, aws s3 sync of a build);
--   API calls with the project's own token (curl -H "Authorization: Bearer ...") to its own service.
--   Without --keep-secrets only; a load with --keep-secrets has no markers, so the second half finds nothing.
-- columns: host, session_id, row_id, timestamp_utc, summary, source_file
with uploads as (
    select host, session_id, row_id, timestamp_utc, source_file, tool_name, kind, text,
        case
            when regexp_matches(command_read, '\bcurl\b[^\n;|]*(\s(-T|--upload-file)\s|\s(-F|--form)\s+\S*=?@|\s(-d|--data|--data-binary|--data-raw|--data-urlencode)\s+[''"]?@)', 'i')
                then 'upload with curl'
            when regexp_matches(command_read, '\bwget\s[^\n;|]*--(post-file|body-file)', 'i')
                then 'upload with wget'
            when regexp_matches(command_read, '(^|[\s;&|(`])(scp|rsync)\s[^\n;|&]*\s([\w.-]+@)?[\w.-]+:[^\s:]*\s*($|[\n;&|])', 'i')
                then 'copy to another host (scp/rsync)'
            when regexp_matches(command_read, '\b(nc|ncat|netcat|socat)\s[^\n;|]*<\s*\S|\bcat\s[^\n;|]*\|\s*(nc|ncat|netcat|socat)\s|/dev/tcp/', 'i')
                then 'raw network send (nc, /dev/tcp)'
            when regexp_matches(command_read, '\baws\s+s3\s+(cp|sync|mv)\s+[^\s]+\s+s3://|\bgsutil\s+(-m\s+)?(cp|rsync|mv)\s[^\n;|]*\sgs://|\brclone\s+(copy|sync|move)\s+\S+\s+\S+:', 'i')
                then 'upload to cloud storage'
            when command_read like '%[REDACTED:%' and regexp_matches(command_read, '\b(curl|wget|http|https|nc|ncat)\s', 'i')
                then 'redacted secret in the input of a network call'
        end as what
    from commands
),

network_calls as (
    select host, session_id, row_id, timestamp_utc, source_file, tool_name, kind, text,
        'redacted secret in the input of a network call' as what
    from tool_calls
    where call_type in ('web', 'browser', 'mcp') and text like '%[REDACTED:%'
),

hits as (
    select * from uploads where what is not null
    union all
    select * from network_calls
)

select host, session_id, row_id, timestamp_utc,
    what || ' by ' || coalesce(tool_name, kind) || ': ' || left(text, 300) as summary,
    source_file
from hits
