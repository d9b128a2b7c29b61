-- settings: every setting a settings file or record holds, one row each, from the columns the readers set
-- beside their texts (setting_name, setting_value; issue 27), never parsed out of a `permission setting:` text.
-- Inputs: int_timeline. Grain: one row per setting row of events (row_id).
--   scope home        globalState.json and settings/global-settings.json: every session of the home
--         mcp server  settings/cline_mcp_settings.json: a server's autoApprove, alwaysAllow and disabled
--         workspace   an editor workspace's state database (workspaceStorage/<hash>/state.vscdb, its folder known)
--         task        a legacy task's own tasks/<id>/settings.json
--         agenda      the 3.x agenda's automation policy (tasks.db)
--         tool call   a hook policy's answer on one tool call (3.x hub event log)
--         session     an SDK session's own setting (metadata.interactive: false for the 3.x CLI's one-shot runs)
--         mode        a Roo Code or Kilo Code custom mode (settings/custom_modes.yaml, or globalState customModes):
--                     customModes.<slug>.groups.<group>=<fileRegex, * for the whole group>, its name and prompts
-- A table: the hunts, the report and the approval state of tool_calls (sql/42) read it, and a scan of the
-- timeline per reader would cost each of them the whole scan.
create or replace table settings as
select
    row_id,
    host,
    home,
    user,
    client,
    agent,
    store,
    session_id,
    timestamp_utc,
    source_file,
    kind,
    case
        when kind = 'task_settings' then 'task'
        when kind = 'agenda_automation' then 'agenda'
        when kind = 'hook_result' then 'tool call'
        when kind = 'session_start' then 'session'
        when starts_with(setting_name, 'mcpServers.') then 'mcp server'
        when starts_with(setting_name, 'customModes.') then 'mode'
        when kind = 'state_setting' and project_path is not null then 'workspace'
        else 'home'
    end as scope,
    setting_name,
    setting_value,
    tool_name,
    tool_use_id
from int_timeline
where setting_name is not null;

comment on table settings is 'Every setting a settings file or record holds (globalState.json, global-settings.json, cline_mcp_settings.json, a task''s settings.json, the agenda policy, a hook policy''s answer, the keys of each agent in an editor state database, Roo Code''s and Kilo Code''s custom modes), from the readers'' setting_name and setting_value columns. Grain: one row per setting row of events (row_id).';
comment on column settings.row_id is 'row_id of the setting''s row: join events on it.';
comment on column settings.host is 'Host image name.';
comment on column settings.home is 'The home as the machine names it (C:/Users/alice), as in events.';
comment on column settings.user is 'The home''s user, as in events (null where the home''s layout does not say).';
comment on column settings.client is 'Whose store: the editor, or cline for ~/.cline/data.';
comment on column settings.agent is 'Whose setting: cline, roo-code or kilo-code (an editor state database holds each agent''s under its own key).';
comment on column settings.store is 'Cline store of the row (settings, cline-tasks, vscode-tasks, tasks-db, hub-events, vscode-state).';
comment on column settings.session_id is 'The task a task setting belongs to, the session of a hook answer; null for a home''s settings.';
comment on column settings.timestamp_utc is 'When it came into force as far as the evidence tells: the file''s mtime, the record''s update time, the hook answer''s time.';
comment on column settings.source_file is 'File of the setting, relative to the image root.';
comment on column settings.kind is 'Kind of the row: permission, task_settings, agenda_automation, hook_result, session_start, custom_mode (a custom modes file of Roo Code or Kilo Code), or state_setting (a key of an editor state database).';
comment on column settings.scope is 'What it governs: home, mcp server, workspace, task, agenda, tool call, session, or mode (what a Roo Code or Kilo Code custom mode lets the agent do while in it).';
comment on column settings.setting_name is 'Its name as the file spells it: yoloModeToggled, autoApprovalSettings.actions.executeAllCommands, mcpServers.<server>.autoApprove, mode, autoApprove, customModes.<slug>.groups.command, ...';
comment on column settings.setting_value is 'Its value as printed: true, false, act, a tool name, JSON of an array; <set> for a credential''s string; a custom mode group''s fileRegex, or * where it sets none (the whole group).';
comment on column settings.tool_name is 'The tool of a hook answer''s call; null elsewhere.';
comment on column settings.tool_use_id is 'The call a hook answer is about; null elsewhere.';
