-- id: safety-turned-off
-- title: Approval safeguards turned off (auto-approve, yolo, MCP tools always allowed)
-- severity: medium
-- attack: T1562.001
-- description: Settings that let Cline act without asking, one finding per setting row, at the time the
--   evidence gives (a settings file's mtime, a task's settings file, a mode change), so the timeline shows
--   when each came into force: yolo mode (yoloModeToggled=true in globalState.json or a task's
--   settings.json, a 3.x prompt or mode change to yolo), auto-approval of every command
--   (autoApprovalSettings.actions.executeAllCommands=true while autoApprovalSettings.enabled=true, in the
--   same file), edits outside the workspace approved (editFilesExternally=true, same condition),
--   toolAutoApprove=true, MCP tools approved for good (mcpServers.<server>.autoApprove or alwaysAllow), the
--   3.x agenda's automation policy set to auto_start or unattended (tasks.db: agents start tasks with nobody
--   watching), and tool calls a hook policy answered with autoApprove (3.x hub event log). Plan/act mode changes, the
--   default autoApprovalSettings (read files, safe commands only), toolAutoApprove=false and disabled
--   tools are not findings.
-- false_positives: A developer's deliberate choice on a personal machine or a sandbox VM; read-only MCP
--   tools (list_issues, read_file) approved for convenience; CLI one-shot runs (--json, -y) in CI, where
--   no human is there to approve.
-- columns: host, session_id, row_id, timestamp_utc, summary, source_file
-- one scan of events for every branch below
with candidates as materialized (
  select host, home, store, kind, session_id, row_id, timestamp_utc, source_file, tool_name, text
  from events
  where kind in ('permission', 'task_settings', 'hook_result', 'agenda_automation')
),
settings_files as (
  select host, home, source_file,
    bool_or(text like 'permission setting: autoApprovalSettings.enabled=true %') as auto_approval_on
  from candidates
  where store = 'settings' and kind = 'permission'
  group by all
),
standing as (
  select e.host, e.session_id, e.row_id, e.timestamp_utc, e.source_file,
    regexp_extract(e.text, '^permission setting: (\S+=\S*)', 1) as setting
  from candidates e
  join settings_files f using (host, home, source_file)
  where e.store = 'settings' and e.kind = 'permission'
    and (
      e.text like 'permission setting: yoloModeToggled=true %'
      or e.text like 'permission setting: toolAutoApprove=true %'
      or regexp_matches(e.text, '^permission setting: mcpServers\..+\.(autoApprove|alwaysAllow)=\S')
      or (f.auto_approval_on and regexp_matches(e.text,
        '^permission setting: autoApprovalSettings\.actions\.(executeAllCommands|editFilesExternally)=true '))
    )
),
task_settings as (
  select host, session_id, row_id, timestamp_utc, source_file,
    string_agg(m.setting, ', ') as setting
  from candidates,
    unnest(regexp_extract_all(text, ' ((?:yoloModeToggled|autoApprovalSettings\.actions\.(?:executeAllCommands|editFilesExternally))=true)(?: |$)', 1)) as m(setting)
  where kind = 'task_settings'
  group by all
),
yolo_mode as (
  select host, session_id, row_id, timestamp_utc, source_file, text
  from candidates
  where kind = 'permission' and store <> 'settings' and regexp_matches(text, '^permission mode: (\S+ -> )?yolo$')
),
unattended as (
  select host, session_id, row_id, timestamp_utc, source_file, regexp_extract(text, ' (mode=\S+) ', 1) as setting
  from candidates
  where kind = 'agenda_automation' and regexp_matches(text, ' mode=(auto_start|unattended) ')
),
hook_approvals as (
  select host, session_id, row_id, timestamp_utc, source_file, tool_name
  from candidates
  where kind = 'hook_result' and text like '%"autoApprove":true%'
)
select host, session_id, row_id, timestamp_utc, 'standing setting ' || setting || ' (' || source_file || ')' as summary, source_file
from standing
union all
select host, session_id, row_id, timestamp_utc, 'task settings ' || setting || ' for task ' || session_id, source_file
from task_settings
union all
select host, session_id, row_id, timestamp_utc, 'yolo mode: ' || text, source_file
from yolo_mode
union all
select host, session_id, row_id, timestamp_utc, 'agenda automation ' || setting || ': agents may start agenda tasks with nobody watching', source_file
from unattended
union all
select host, session_id, row_id, timestamp_utc, 'a hook policy auto-approved a ' || coalesce(tool_name, 'tool') || ' call', source_file
from hook_approvals
