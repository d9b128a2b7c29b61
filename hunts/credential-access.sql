-- id: credential-access
-- title: The agent read credentials (secret files, keys, browser or keychain stores, environment, cloud metadata)
-- severity: high
-- attack: T1552.001, T1552.004, T1555.001, T1555.003, T1552.005
-- description: A command or file tool call of the agent (never a prompt, never a tool's output; a file write by the
--   file it writes, not by what it writes there) that reaches for credentials: a .env file (not
--   .env.example, .env.sample, .env.template, .env.dist), ~/.aws/credentials or config, an SSH private
--   key (~/.ssh/id_*, not .pub) or authorized_keys, .netrc, .git-credentials, .pgpass, .npmrc, .pypirc,
--   .docker/config.json, .kube/config, gcloud credentials, /etc/shadow, a browser's password or cookie
--   store (Login Data, Cookies, logins.json, key4.db), the macOS keychain (security find-*-password,
--   dump-keychain, *.keychain-db), the environment (printenv, env alone, /proc/*/environ, export -p) or
--   a cloud metadata endpoint (169.254.169.254, metadata.google.internal, 169.254.170.2). One finding
--   per call.
-- false_positives: Setting up a project's own .env from a template the user asked for; a deploy
--   script the user asked to debug that reads ~/.aws/config for the region; printenv to check PATH.
-- columns: host, session_id, row_id, timestamp_utc, summary, source_file
with calls as (
  select *,
    -- a file write is judged by the file it writes (its "path"), not by the content it puts there
    regexp_replace(
      case
        when (kind in ('say:tool', 'ask:tool') and regexp_matches(text, '"tool"\s*:\s*"(editedExistingFile|newFileCreated)"'))
          or regexp_matches(coalesce(tool_name, ''), '^(editor|write_to_file|replace_in_file|apply_patch|edit_file|write_file|create_file|str_replace_editor)$', 'i')
          then coalesce(regexp_extract(text, '"path"\s*:\s*"([^"]*)"', 1), '')
        else text
      end,
      '\.env\.(example|sample|template|dist|defaults)\b', '.ENVTEMPLATE', 'gi') as probe
  from events
  where turn_type = 'tool_use'
),
classified as (
  select *,
    case
      when regexp_matches(probe, '(^|[\s"''/=:(])\.env(\.[\w-]+)?($|[\s"'';|&)<>])', 'i') then '.env file'
      when regexp_matches(probe, '\.aws/(credentials|config)\b', 'i') then 'AWS credentials'
      when regexp_matches(probe, '\.ssh/(id_[a-z0-9_]+($|[^.\w])|authorized_keys|[\w.-]+\.pem\b)', 'i') then 'SSH key'
      when regexp_matches(probe, '(^|[\s"''/])(\.netrc|\.git-credentials|\.pgpass|\.npmrc|\.pypirc)\b', 'i') then 'token file'
      when regexp_matches(probe, '\.docker/config\.json|\.kube/config\b|gcloud/(credentials\.db|application_default_credentials\.json|access_tokens\.db)', 'i') then 'cloud or cluster credentials'
      when regexp_matches(probe, '/etc/(shadow|gshadow|sudoers)\b', 'i') then 'system password store'
      when regexp_matches(probe, 'Login Data|[/\\]Cookies\b|logins\.json|key4\.db|Local State', 'i') then 'browser password or cookie store'
      when regexp_matches(probe, 'security\s+(find-(generic|internet)-password|dump-keychain)|\.keychain(-db)?\b', 'i') then 'keychain'
      when regexp_matches(probe, '(^|[\s;&|(`])printenv\b|(^|[\s;&|(`])env\s*($|[|;&>])|/proc/[^/\s]+/environ|(^|[\s;&|(`])export\s+-p\b', 'i') then 'environment variables'
      when regexp_matches(probe, '169\.254\.169\.254|metadata\.google\.internal|169\.254\.170\.2|fd00:ec2::254', 'i') then 'cloud metadata endpoint'
    end as what
  from calls
)
select host, session_id, row_id, timestamp_utc,
  what || ' accessed by ' || coalesce(tool_name, kind) || ': ' || left(text, 300) as summary,
  source_file
from classified
where what is not null
