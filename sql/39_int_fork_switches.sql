
-- int_fork_switches (for safety_off, sql/40, and the approval of tool calls, sql/42): Roo Code's and Kilo Code's switches of one state database, per agent: the
-- master switch autoApprovalEnabled (unset: off in Roo Code, on in Kilo Code, their ClineProvider.getState defaults),
-- alwaysAllowExecute (commands approved by their lists at all), whether allowedCommands holds `*` (every command),
-- whether edits are approved at all, and the command lists, lower-cased (their matching is case-blind).
create or replace table int_fork_switches as
select
    host,
    source_file,
    agent,
    any_value(home) as home,
    any_value(client) as client,
    min(scope) as scope,
    coalesce(bool_or(setting_value = 'true') filter (where setting_name = 'autoApprovalEnabled'), agent = 'kilo-code') as enabled,
    coalesce(bool_or(setting_value = 'true') filter (where setting_name = 'alwaysAllowExecute'), false) as executes,
    coalesce(bool_or(setting_value = '*') filter (where setting_name = 'allowedCommands'), false) as any_command,
    coalesce(bool_or(setting_value = 'true') filter (where setting_name = 'alwaysAllowWrite'), false) as writes,
    coalesce(list(distinct lower(setting_value) order by lower(setting_value)) filter (where setting_name = 'allowedCommands' and setting_value <> ''), []) as allowed_commands,
    coalesce(list(distinct lower(setting_value) order by lower(setting_value)) filter (where setting_name = 'deniedCommands' and setting_value <> ''), []) as denied_commands
from settings
where agent in ('roo-code', 'kilo-code') and kind = 'state_setting'
group by host, source_file, agent;

comment on table int_fork_switches is 'Roo Code''s and Kilo Code''s auto-approval switches and command lists of one editor state database, per agent. Grain: one row per (host, source_file, agent).';
comment on column int_fork_switches.host is 'Host image name.';
comment on column int_fork_switches.source_file is 'The state database, relative to the image root.';
comment on column int_fork_switches.agent is 'roo-code or kilo-code.';
comment on column int_fork_switches.home is 'Home of the database.';
comment on column int_fork_switches.client is 'The editor whose state it is.';
comment on column int_fork_switches.scope is 'Scope of its settings rows (settings.scope).';
comment on column int_fork_switches.enabled is 'The master switch autoApprovalEnabled (unset: off in Roo Code, on in Kilo Code).';
comment on column int_fork_switches.executes is 'alwaysAllowExecute: commands approved by the lists at all.';
comment on column int_fork_switches.any_command is 'allowedCommands holds *: every command.';
comment on column int_fork_switches.writes is 'alwaysAllowWrite: edits approved at all.';
comment on column int_fork_switches.allowed_commands is 'allowedCommands, lower-cased (their matching is case-blind).';
comment on column int_fork_switches.denied_commands is 'deniedCommands, lower-cased.';
