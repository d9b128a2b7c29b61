-- id: safety-turned-off
-- title: Approval safeguards turned off (auto-approve, yolo, MCP tools always allowed)
-- severity: medium
-- attack: T1562.001
-- agents: cline, roo-code, kilo-code
-- scope: host
-- description: Each row of safety_off (sql/40, the model the report's safety section reads too): settings that
--   let Cline act without asking, at the time the evidence gives (a settings file's mtime, a task's settings
--   file, a mode change), so the timeline shows when each came into force: yolo mode (yoloModeToggled=true in
--   globalState.json or a task's settings.json, a 3.x session switched to yolo), auto-approval of every command
--   (autoApprovalSettings.actions.executeAllCommands=true while autoApprovalSettings.enabled=true, in the same
--   file; in a task's settings as it stands), edits outside the workspace approved (editFilesExternally=true,
--   same condition), toolAutoApprove=true, MCP tools approved for good (mcpServers.<server>.autoApprove or
--   alwaysAllow), the 3.x agenda's automation policy set to auto_start or unattended (tasks.db: agents start
--   tasks with nobody watching), and tool calls a hook policy answered with autoApprove (3.x hub event log).
--   Roo Code and Kilo Code (their globalState in an editor's state.vscdb): every command approved
--   (alwaysAllowExecute=true with `*` allowed), edits outside the workspace approved, Kilo Code's yoloMode, each
--   only under that agent's own autoApprovalEnabled in the same database (Kilo Code's is on unless set).
--   Read from the readers' setting_name and setting_value columns, never from texts. Plan/act mode changes,
--   the default autoApprovalSettings (read files, safe commands only), toolAutoApprove=false and disabled tools
--   are not findings.
-- false_positives: A developer's deliberate choice on a personal machine or a sandbox VM; read-only MCP
--   tools (list_issues, read_file) approved for convenience; CLI one-shot runs (--json, -y) in CI, where
--   no human is there to approve (the corpus: the 1.x -y task settings, the 3.x CLI's hook approvals). On the
--   bench's fleet of ordinary work it fires once: a generated globalState.json that approves every command, a
--   setting developers do set (docs/BENCHMARKS.md).
-- columns: host, session_id, row_id, timestamp_utc, summary, source_file
select host, session_id, row_id, timestamp_utc,
    what || ': ' || setting_name || '=' || coalesce(setting_value, '-')
        || case
            when scope = 'tool call' then ' for a ' || coalesce(tool_name, 'tool') || ' call'
            when scope in ('task', 'session') then ' for ' || scope || ' ' || coalesce(session_id, '-')
            else ' (' || source_file || ')'
        end as summary,
    source_file
from safety_off
