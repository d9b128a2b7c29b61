-- commands: every shell command call of the agent (tool_calls of call_type command), with the command as a shell
-- would read it: the one definition of "a command Cline ran or asked to run" for the hunts, the report's top
-- commands and the README's examples (issue 27). A final-answer tool is never a command, whatever its text says.
-- Inputs: tool_calls (sql/43). Grain: one row per command call (row_id); a 3.x run_commands call of several
-- commands is one row, its commands on lines of their own.
--   command       the text as recorded
--   command_read  shell_read(command) (sql/37): the text, the base64 payloads piped into a shell decoded, the
--                 strings of sh -c/bash -c/su -c/eval, each on a line of its own, then variables set earlier in the
--                 text substituted. Hunts match this, so `sh -c 'rm -rf x'`, `RM=rm; $RM -rf x` and
--                 `echo cm0g... | base64 -d | sh` read as `rm -rf`.
--   cwd           the session's working folder (project_path): where a relative path of the command lies
create or replace view commands as
select
    * exclude (call_type),
    text as command,
    shell_read(text) as command_read,
    project_path as cwd
from tool_calls
where call_type = 'command' and text is not null;

comment on view commands is 'Every shell command call of the agent (execute_command, bash, run_commands, legacy say:command/ask:command; never a final-answer tool), with the command as a shell would read it and its approval. Grain: one row per command call (row_id); the columns of events and tool_calls, then command, command_read and cwd.';
{{commands_column_comments}}
comment on column commands.approval is 'denied (a result says so: it never ran), asked (a legacy ask:command), auto (ran with no human approving), unknown (tool_calls).';
comment on column commands.approval_reason is 'What the evidence says about the approval, in words (tool_calls).';
comment on column commands.command is 'The command as recorded (the row''s text).';
comment on column commands.command_read is 'The command as a shell would read it (sql/37 shell_read): the text, then decoded base64 payloads piped into a shell and the strings of sh -c, bash -c, su -c and eval on lines of their own, with $NAME replaced by the value an earlier NAME=value gave.';
comment on column commands.cwd is 'The session''s working folder (project_path), where a relative path of the command lies.';
