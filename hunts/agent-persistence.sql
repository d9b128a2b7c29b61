-- id: agent-persistence
-- title: Persistence through the agent (scheduled agent runs, hook scripts, shell profiles, cron, services)
-- severity: high
-- attack: T1053.003, T1546.004, T1543.002, T1053.005
-- agents: cline, roo-code, kilo-code
-- scope: host
-- description: What makes code or an agent run again later: an enabled, not removed 3.x scheduled agent
--   run (cron.db spec: a prompt run on a schedule or an event, unattended); a command of the agent, read as a
--   shell would (commands.command_read), that installs a crontab (crontab FILE or crontab -, not -l), enables a
--   service (systemctl enable, launchctl load/bootstrap, schtasks /create) or schedules an `at` job; and a write
--   of the agent into a file that runs code later (file_accesses, sql/45: a file tool's write, or a command's
--   >, >>, tee, sed -i, cp, mv, install or ln target), its path resolved against the session's working folder
--   and the home first: a hooks folder (.cline/hooks, .clinerules/hooks, Documents/Cline/Hooks, .git/hooks),
--   and outside the project a shell profile (~/.bashrc, .zshrc, .profile, .bash_profile, .zprofile, .zshenv,
--   .bash_login, fish config, /etc/profile), a systemd unit, /etc/cron* or /var/spool/cron, a LaunchAgent. A
--   dotfiles repository's .zshrc edited inside the project is not the user's profile. Reading those files (cat
--   ~/.bashrc, crontab -l) is not a finding. One finding per call.
-- false_positives: A user asking the agent to add a PATH line to .bashrc or to set up a nightly job;
--   a project's own git hooks installed by its setup script (husky, pre-commit install).
-- columns: host, session_id, row_id, timestamp_utc, summary, source_file
with schedules as (
    select host, session_id, row_id, timestamp_utc, source_file, 'scheduled agent run: ' || left(text, 300) as summary
    from events
    where kind = 'cron_spec' and text like '% enabled=true %' and text like '% removed=false %'
),

command_hits as (
    select host, session_id, row_id, timestamp_utc, source_file, tool_name, kind, text,
        case
            when regexp_matches(command_read, '(^|[\s;&|(`])crontab\s+(-u\s+\S+\s+)?(-\s|-$|[^-\s])|(^|[\s;&|(`])crontab\s*($|\n)|/var/spool/cron', 'i')
                then 'crontab installed'
            when regexp_matches(command_read, 'systemctl\s+(--user\s+)?enable\b|launchctl\s+(load|bootstrap)\b|schtasks(\.exe)?\s+/create\b|(^|[\n;&|(`])\s*at\s+(now\b|midnight\b|noon\b|\d{1,2}:\d\d)', 'i')
                then 'service or scheduled task registered'
        end as what
    from commands
),

file_hits as (
    select host, session_id, row_id, timestamp_utc, source_file, tool_name, kind, text,
        min(persistence_class) || case when min(via) = 'command' then ' modified' else ' written' end as what,
        min(case when via = 'file tool' then path end) as path
    from file_accesses
    where operation = 'write' and persistence_class is not null
    group by all
),

calls as (
    select host, session_id, row_id, timestamp_utc, source_file, tool_name, kind, text, what, null as path from command_hits where what is not null
    union all
    select * from file_hits
)

select host, session_id, row_id, timestamp_utc, summary, source_file from schedules
union all
select host, session_id, row_id, timestamp_utc,
    string_agg(distinct what, ', ' order by what) || ' by ' || coalesce(min(tool_name), min(kind)) || ': '
        || left(coalesce(min(path), min(text)), 300) as summary,
    source_file
from calls
group by host, session_id, row_id, timestamp_utc, source_file
