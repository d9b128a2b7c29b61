-- safety_off: the settings and mode changes that let Cline act without a human approving, one row each: the one
-- definition the `safety-turned-off` hunt, the report's safety section and the approval state of tool_calls
-- (sql/43) share (issue 27). Inputs: settings (sql/38), int_timeline (mode changes). Grain: one row per setting
-- or mode row of events that turns approval off (row_id).
--   yolo mode             yoloModeToggled=true (home or task): every action approved without asking
--   every command         autoApprovalSettings.actions.executeAllCommands=true, in a home's file only while the
--                         same file has autoApprovalSettings.enabled=true; in a task's settings as it stands
--   external edits        autoApprovalSettings.actions.editFilesExternally=true, under the same condition
--   every tool            toolAutoApprove=true
--   MCP tool for good     mcpServers.<server>.autoApprove or alwaysAllow naming a tool
--   unattended agenda     the 3.x agenda policy auto_start or unattended: agents start tasks with nobody watching
--   hook approval         a hook policy answered autoApprove=true for one tool call
--   non-interactive session  an SDK session whose own setting says no human can answer its approvals
--                         (metadata.interactive=false: the 3.x CLI's one-shot runs, auto-approved by default; a call
--                         that would need approval there is refused, and its result says so)
--   yolo session          a mode change of a session into yolo (3.x prompts typed in mode yolo)
-- Roo Code and Kilo Code (their globalState in an editor state database, store vscode-state; their
-- src/core/auto-approval/index.ts), only while the same database's autoApprovalEnabled is on for that agent:
--   every command         alwaysAllowExecute=true with `*` among its allowedCommands
--   external edits        alwaysAllowWriteOutsideWorkspace=true with alwaysAllowWrite=true
--   yolo mode             Kilo Code's yoloMode=true (AutoApprovalHandler: every ask approved)
-- Each agent's settings are matched with its own: one editor database holds Cline's and Roo Code's side by side.
-- The default auto-approval (read files, safe commands), toolAutoApprove=false, disabled tools and plan/act
create or replace table safety_off as
with enabled_files as (
    select distinct host, source_file, agent
    from settings
    where scope = 'home' and setting_name = 'autoApprovalSettings.enabled' and setting_value = 'true'
),

from_settings as (
    select
        s.row_id, s.host, s.home, s.client, s.agent, s.session_id, s.timestamp_utc, s.source_file, s.scope, s.setting_name, s.setting_value,
        s.tool_name, s.tool_use_id,
        case
            when f.agent is not null then
                case
                    when s.setting_name = 'yoloMode' and s.setting_value = 'true' then 'yolo mode'
                    when s.setting_name = 'alwaysAllowExecute' and s.setting_value = 'true' and f.enabled and f.any_command
                        then 'every command'
                    when s.setting_name = 'alwaysAllowWriteOutsideWorkspace' and s.setting_value = 'true' and f.enabled and f.writes
                        then 'external edits'
                end
            when s.setting_name = 'yoloModeToggled' and s.setting_value = 'true' then 'yolo mode'
            when s.setting_name = 'toolAutoApprove' and s.setting_value = 'true' then 'every tool'
            when s.setting_name = 'autoApprovalSettings.actions.executeAllCommands' and s.setting_value = 'true'
                and (s.scope = 'task' or e.host is not null) then 'every command'
            when s.setting_name = 'autoApprovalSettings.actions.editFilesExternally' and s.setting_value = 'true'
                and (s.scope = 'task' or e.host is not null) then 'external edits'
            when s.scope = 'mcp server' and regexp_matches(s.setting_name, '^mcpServers\..+\.(autoApprove|alwaysAllow)$')
                and coalesce(s.setting_value, '') not in ('', '[]', 'null') then 'MCP tool for good'
            when s.scope = 'agenda' and s.setting_value in ('auto_start', 'unattended') then 'unattended agenda'
            when s.scope = 'tool call' and s.setting_name = 'autoApprove' and s.setting_value = 'true' then 'hook approval'
            when s.scope = 'session' and s.setting_name = 'interactive' and s.setting_value = 'false' then 'non-interactive session'
        end as what
    from settings as s
    left join enabled_files as e on e.host = s.host and e.source_file = s.source_file and e.agent = s.agent
    left join int_fork_switches as f on f.host = s.host and f.source_file = s.source_file and f.agent = s.agent and s.kind = 'state_setting'
),

yolo_sessions as (
    select row_id, host, home, client, agent, session_id, timestamp_utc, source_file, 'session' as scope, 'mode' as setting_name,
        permission_mode as setting_value, tool_name, tool_use_id, 'yolo session' as what
    from int_timeline
    where kind = 'permission' and store <> 'settings' and permission_mode = 'yolo'
)

select row_id, host, home, client, agent, session_id, timestamp_utc, source_file, scope, setting_name, setting_value, tool_name, tool_use_id, what
from from_settings
where what is not null
union all
select * from yolo_sessions;

comment on table safety_off is 'The settings and mode changes that let an agent of the Cline family act without a human approving: yolo, every command or tool approved, edits outside the workspace approved, MCP tools approved for good, an unattended agenda, a hook''s auto-approval, a session switched to yolo. The one definition the safety-turned-off hunt and the report share. Grain: one row per setting or mode row (row_id).';
comment on column safety_off.row_id is 'row_id of the setting''s or mode change''s row: join events on it.';
comment on column safety_off.host is 'Host image name.';
comment on column safety_off.home is 'The home as the machine names it (C:/Users/alice), as in events.';
comment on column safety_off.client is 'Whose store: the editor (vscode, cursor, ...), or cline for ~/.cline/data, as in events.';
comment on column safety_off.agent is 'Whose safeguard: cline, roo-code or kilo-code; a setting of one agent never stands for another''s, in one state database either: Roo Code''s and Kilo Code''s switches count only under that agent''s own master switch in the same database.';
comment on column safety_off.session_id is 'The task or session it governs; null for a home''s standing setting.';
comment on column safety_off.timestamp_utc is 'When it came into force as far as the evidence tells (file mtime, record update, the answer or mode change).';
comment on column safety_off.source_file is 'File of the row, relative to the image root.';
comment on column safety_off.scope is 'What it governs: home, mcp server, task, agenda, tool call or session (a mode change or an SDK session''s own setting).';
comment on column safety_off.setting_name is 'The setting (yoloModeToggled, autoApprovalSettings.actions.executeAllCommands, mcpServers.<server>.autoApprove, mode, autoApprove, ...).';
comment on column safety_off.setting_value is 'Its value: true, a tool name, auto_start, unattended, yolo.';
comment on column safety_off.tool_name is 'The tool of a hook approval''s call; null elsewhere.';
comment on column safety_off.tool_use_id is 'The call a hook approval is about; null elsewhere.';
comment on column safety_off.what is 'Which safeguard is off: yolo mode, every command, external edits, every tool, MCP tool for good, unattended agenda, hook approval, non-interactive session, yolo session.';
