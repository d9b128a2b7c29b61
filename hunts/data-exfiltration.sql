-- id: data-exfiltration
-- title: Files or secrets sent to another host by a command or tool call
-- severity: high
-- attack: T1048, T1567, T1041
-- description: A call of the agent that sends data out: a command that uploads (curl -T/--upload-file,
--   -F/--form with @file, -d/--data* @file; wget --post-file/--body-file; scp or rsync to host:path; nc,
--   ncat or socat fed from a file; /dev/tcp/; aws s3 cp/sync or gsutil cp to a bucket; rclone
--   copy/sync/move to a remote), and any web fetch, browser, MCP tool call or network command
--   (curl, wget, http, nc) whose input holds a redacted secret ([REDACTED:kind:fingerprint]): the secret
--   left the machine with the request. Downloads (curl -o, wget URL, scp host:path .) are not findings.
-- false_positives: Deploys the user asked for (rsync to a staging server, aws s3 sync of a build);
--   API calls with the project's own token (curl -H "Authorization: Bearer ...") to its own service.
--   Without --keep-secrets only; a load with --keep-secrets has no markers, so the second half finds nothing.
-- columns: host, session_id, row_id, timestamp_utc, summary, source_file
with calls as (
  select *,
    turn_type = 'tool_use'
      and (tool_name in ('execute_command', 'bash', 'run_commands') or kind in ('say:command', 'ask:command')) as is_command
  from events
  where turn_type = 'tool_use'
),
classified as (
  select *,
    case
      when is_command and regexp_matches(text, '\bcurl\b[^\n;|]*(\s(-T|--upload-file)\s|\s(-F|--form)\s+\S*=?@|\s(-d|--data|--data-binary|--data-raw|--data-urlencode)\s+[''"]?@)', 'i')
        then 'upload with curl'
      when is_command and regexp_matches(text, '\bwget\s[^\n;|]*--(post-file|body-file)', 'i')
        then 'upload with wget'
      when is_command and regexp_matches(text, '(^|[\s;&|(`])(scp|rsync)\s[^\n;|&]*\s([\w.-]+@)?[\w.-]+:[^\s:]*\s*($|[\n;&|])', 'i')
        then 'copy to another host (scp/rsync)'
      when is_command and regexp_matches(text, '\b(nc|ncat|netcat|socat)\s[^\n;|]*<\s*\S|\bcat\s[^\n;|]*\|\s*(nc|ncat|netcat|socat)\s|/dev/tcp/', 'i')
        then 'raw network send (nc, /dev/tcp)'
      when is_command and regexp_matches(text, '\baws\s+s3\s+(cp|sync|mv)\s+[^\s]+\s+s3://|\bgsutil\s+(-m\s+)?(cp|rsync|mv)\s[^\n;|]*\sgs://|\brclone\s+(copy|sync|move)\s+\S+\s+\S+:', 'i')
        then 'upload to cloud storage'
      when text like '%[REDACTED:%' and (not is_command or regexp_matches(text, '\b(curl|wget|http|https|nc|ncat)\s', 'i'))
        then 'redacted secret in the input of a network call'
    end as what
  from calls
)
select host, session_id, row_id, timestamp_utc,
  what || ' by ' || coalesce(tool_name, kind) || ': ' || left(text, 300) as summary,
  source_file
from classified
where what is not null
  -- a secret in a file edit or a local command is not data leaving: only network calls
  and (what <> 'redacted secret in the input of a network call'
    or is_command
    or regexp_matches(coalesce(tool_name, ''), 'fetch|browser|search|http|request|mcp|url', 'i')
    or kind in ('say:use_mcp_server', 'ask:use_mcp_server', 'say:browser_action_launch', 'ask:browser_action_launch')
    or tool_name like '%\_\_%' escape '\')
