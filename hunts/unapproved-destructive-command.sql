-- id: unapproved-destructive-command
-- title: Destructive or privileged command run with no human approval
-- severity: high
-- attack: T1485, T1548.003, T1222.002, T1059.004
-- description: A command Cline ran that deletes recursively (rm -rf), runs as root (sudo, doas, su -c),
--   rewrites remote history (git push --force), opens permissions (chmod 777, a+rwx), wipes or formats a
--   disk (mkfs, dd of=/dev/, wipefs, shred, fdisk, parted), drops a database (DROP DATABASE/TABLE/SCHEMA,
--   TRUNCATE TABLE, dropdb, FLUSHALL), or pipes a download into a shell (curl|sh, wget|bash), while no
--   human approved it: a legacy `say:command` (Cline records a command it ran without asking as `say`, one
--   it asked for as `ask`), a call a hook policy answered with autoApprove, a session in yolo mode (task
--   settings yoloModeToggled=true or executeAllCommands=true, or a 3.x prompt in mode yolo), or a 3.x/SDK
--   call in a home whose standing settings approve every command (yoloModeToggled=true,
--   autoApprovalSettings with enabled=true and executeAllCommands=true, or toolAutoApprove=true). A call
--   whose result says it was not approved or was denied never ran and is left out.
-- false_positives: Routine clean-up of build output (rm -rf node_modules, dist) in a yolo session; sudo
--   package installs on a throw-away VM or CI runner; an SDK session in a home whose standing settings
--   approve every command but whose CLI asked anyway (the transcript does not record the approval).
-- columns: host, session_id, row_id, timestamp_utc, summary, source_file
-- one scan of events for every part below: commands, their results, and the rows that say how approval stood
with candidates as materialized (
  select host, home, store, kind, turn_type, session_id, row_id, timestamp_utc, source_file, tool_name, tool_use_id,
    permission_mode, text
  from events
  where turn_type in ('tool_use', 'tool_result') or kind in ('task_settings', 'hook_result', 'permission')
    or permission_mode = 'yolo'
),
commands as (
  select *
  from candidates
  where turn_type = 'tool_use'
    and (tool_name in ('execute_command', 'bash', 'run_commands') or kind in ('say:command', 'ask:command'))
),
classified as (
  select *,
    case
      when regexp_matches(text, '(^|[\s;&|(`])rm\s+(-[a-z]*r[a-z]*f|-[a-z]*f[a-z]*r|-r\s+-f|-f\s+-r|--recursive\s+--force|--force\s+--recursive)', 'i')
        then 'recursive forced delete (rm -rf)'
      when regexp_matches(text, '(curl|wget)\s[^\n;]*\|\s*(sudo\s+)?(ba|z|da|k)?sh\b', 'i')
        then 'download piped into a shell'
      when regexp_matches(text, '(^|[\s;&|(`])(sudo|doas)\s+\S|(^|[\s;&|(`])su\s+(-c|-|root)', 'i')
        then 'privileged command (sudo/su)'
      when regexp_matches(text, 'git\s+push\b[^\n;]*(\s--force\b|\s-f\b|\s--force-with-lease\b|\s\+[\w./-]+)', 'i')
        then 'forced git push'
      when regexp_matches(text, 'chmod\s+(-[a-z]+\s+)*(0?777|a\+rwx|ugo\+rwx)\b', 'i')
        then 'world-writable permissions (chmod 777)'
      when regexp_matches(text, '(^|[\s;&|(`])(mkfs(\.\w+)?|wipefs|shred|fdisk|parted|sgdisk)\s|\bdd\s[^\n;]*of=/dev/|>\s*/dev/(sd|nvme|hd|xvd|disk)', 'i')
        then 'disk wipe or format'
      when regexp_matches(text, '\bdrop\s+(database|schema|table)\b|\btruncate\s+table\b|(^|[\s;&|(`])dropdb\s|\bflushall\b|dropDatabase\(', 'i')
        then 'database drop'
    end as what
  from commands
),
denied as (
  select host, session_id, tool_use_id
  from candidates
  where turn_type = 'tool_result' and tool_use_id is not null
    and regexp_matches(text, 'was not approved|denied by the user|user denied|user rejected|rejected by the user', 'i')
),
yolo_sessions as (
  select host, session_id, min(case when kind = 'task_settings' then 'task settings approve every command' else 'session in yolo mode' end) as how
  from candidates
  where session_id is not null
    and ((kind = 'task_settings' and regexp_matches(text, ' (yoloModeToggled|autoApprovalSettings\.actions\.executeAllCommands)=true( |$)'))
      or permission_mode = 'yolo')
  group by all
),
hook_approved as (
  select host, session_id, regexp_extract(text, ' call=(\S+) ', 1) as call_id
  from candidates
  where kind = 'hook_result' and text like '%"autoApprove":true%'
),
standing_files as (
  select host, home, source_file,
    bool_or(text like 'permission setting: yoloModeToggled=true %' or text like 'permission setting: toolAutoApprove=true %') as approves_all,
    bool_or(text like 'permission setting: autoApprovalSettings.enabled=true %') as enabled,
    bool_or(text like 'permission setting: autoApprovalSettings.actions.executeAllCommands=true %') as all_commands
  from candidates
  where store = 'settings' and kind = 'permission'
  group by all
),
standing as (
  select distinct host, home from standing_files where approves_all or (enabled and all_commands)
)
select c.host, c.session_id, c.row_id, c.timestamp_utc,
  c.what || ' run without approval (' ||
    case
      when c.kind = 'say:command' then 'auto-approved: say:command'
      when h.call_id is not null then 'a hook policy answered autoApprove'
      when y.how is not null then y.how
      else 'standing settings of the home approve every command'
    end || '): ' || left(c.text, 300) as summary,
  c.source_file
from classified c
left join yolo_sessions y on y.host = c.host and y.session_id = c.session_id
left join hook_approved h on h.host = c.host and h.session_id = c.session_id and h.call_id = c.tool_use_id
left join standing s on s.host = c.host and s.home = c.home
left join denied d on d.host = c.host and d.session_id = c.session_id and d.tool_use_id = c.tool_use_id
where c.what is not null
  and d.tool_use_id is null
  and c.kind <> 'ask:command'
  and (c.kind = 'say:command' or y.how is not null or h.call_id is not null
    or (s.host is not null and c.kind not like 'say:%'))
