-- id: agent-persistence
-- title: Persistence through the agent (scheduled agent runs, hook scripts, shell profiles, cron, services)
-- severity: high
-- attack: T1053.003, T1546.004, T1543.002, T1053.005
-- description: What makes code or an agent run again later: an enabled, not removed 3.x scheduled agent
--   run (cron.db spec: a prompt run on a schedule or an event, unattended); a command of the agent that
--   installs a crontab (crontab FILE or crontab -, not -l), writes /etc/cron*, enables a service
--   (systemctl enable, launchctl load/bootstrap, schtasks /create) or appends to or edits a shell profile
--   (.bashrc, .zshrc, .profile, .bash_profile, .zprofile, .zshenv, .bash_login, config.fish); and a
--   write of the agent (command or file tool) into a hooks folder (.cline/hooks, .clinerules/hooks,
--   Documents/Cline/Hooks, .git/hooks), a systemd unit, a LaunchAgent or a shell profile. Reading those
--   files (cat ~/.bashrc, crontab -l) is not a finding.
-- false_positives: A user asking the agent to add a PATH line to .bashrc or to set up a nightly job;
--   a project's own git hooks installed by its setup script (husky, pre-commit install).
-- columns: host, session_id, row_id, timestamp_utc, summary, source_file
-- one scan of events for the three parts below
with candidates as materialized (
  select host, session_id, row_id, timestamp_utc, source_file, turn_type, kind, tool_name, text
  from events
  where kind = 'cron_spec' or turn_type = 'tool_use'
),
schedules as (
  select host, session_id, row_id, timestamp_utc, source_file,
    'scheduled agent run: ' || left(text, 300) as summary
  from candidates
  where kind = 'cron_spec' and text like '% enabled=true %' and text like '% removed=false %'
),
commands as (
  select *
  from candidates
  where turn_type = 'tool_use'
    and (tool_name in ('execute_command', 'bash', 'run_commands') or kind in ('say:command', 'ask:command'))
),
command_hits as (
  select host, session_id, row_id, timestamp_utc, source_file,
    case
      when regexp_matches(text, '(^|[\s;&|(`])crontab\s+(-u\s+\S+\s+)?(-\s|-$|[^-\s])|(^|[\s;&|(`])crontab\s*($|\n)|>>?\s*/etc/cron|/var/spool/cron', 'i')
        then 'crontab installed'
      when regexp_matches(text, 'systemctl\s+(--user\s+)?enable\b|launchctl\s+(load|bootstrap)\b|schtasks(\.exe)?\s+/create\b|(^|[\n;&|(`])\s*at\s+(now\b|midnight\b|noon\b|\d{1,2}:\d\d)', 'i')
        then 'service or scheduled task registered'
      when regexp_matches(text, '>>?\s*["'']?(~|\$HOME|/home/[^/\s]+|/root|/Users/[^/\s]+)?/?\.(bashrc|zshrc|profile|bash_profile|zprofile|zshenv|bash_login)\b|(sed\s+-i|tee\s+(-a\s+)?)[^\n;|]*\.(bashrc|zshrc|profile|bash_profile|zprofile|zshenv|bash_login)\b|config/fish/config\.fish', 'i')
        then 'shell profile modified'
      when regexp_matches(text, '(>>?|tee\s+(-a\s+)?|cp\s+\S+|mv\s+\S+|ln\s+-s\S*\s+\S+|chmod\s+\+?[0-7a-z+]+)\s*["'']?\S*(\.cline/hooks/|\.clinerules/hooks/|Documents/Cline/Hooks/|\.git/hooks/)', 'i')
        then 'hook script installed'
    end as what,
    text, tool_name, kind
  from commands
),
file_writes as (
  select host, session_id, row_id, timestamp_utc, source_file, text, tool_name, kind,
    case
      when regexp_matches(text, '"path"\s*:\s*"[^"]*(\.cline/hooks/|\.clinerules/hooks/|Documents/Cline/Hooks/|\.git/hooks/)', 'i') then 'hook script written'
      when regexp_matches(text, '"path"\s*:\s*"[^"]*(\.(bashrc|zshrc|profile|bash_profile|zprofile|zshenv|bash_login)|config\.fish)"', 'i') then 'shell profile edited'
      when regexp_matches(text, '"path"\s*:\s*"[^"]*(/etc/cron[^"]*|\.config/systemd/user/[^"]+|/etc/systemd/system/[^"]+|LaunchAgents/[^"]+|LaunchDaemons/[^"]+)"', 'i') then 'scheduled task or service file written'
    end as what
  from candidates
  where turn_type = 'tool_use'
    and not (tool_name in ('execute_command', 'bash', 'run_commands') or kind in ('say:command', 'ask:command'))
    and (kind in ('say:tool', 'ask:tool') and regexp_matches(text, '"tool"\s*:\s*"(editedExistingFile|newFileCreated)"')
      or regexp_matches(coalesce(tool_name, ''), '^(editor|write_to_file|replace_in_file|apply_patch|edit_file|write_file|create_file|str_replace_editor)$', 'i'))
)
select host, session_id, row_id, timestamp_utc, summary, source_file from schedules
union all
select host, session_id, row_id, timestamp_utc, what || ' by ' || coalesce(tool_name, kind) || ': ' || left(text, 300), source_file
from command_hits where what is not null
union all
select host, session_id, row_id, timestamp_utc, what || ' by ' || coalesce(tool_name, kind) || ': ' || left(text, 300), source_file
from file_writes where what is not null
