-- file_accesses: every path a tool call of the agent names, resolved against the session's working folder and
-- the home before anything calls it a profile, a credential or a key: the one definition of "the agent read or
-- wrote this file" for the hunts (issue 27). Inputs: tool_calls (sql/43). Grain: one row per
-- (tool call row_id, path) named.
--   via file tool  each "path" of a file tool's input, and each entry of a "paths" list; operation read, list or
--                  write (file_tool_operation)
--   via command    each word of the command as a shell reads it (commands.command_read) that looks like a path
--                  (holds a / or starts with . or ~; no option, no URL), split at blanks, ; & | < > ( ) = @ , and
--                  quotes, so `@.env`, `< .env`, `source .env` and `--env-file=.env` all name .env; operation write
--                  for the target of > and >>, tee, sed -i, cp, mv, install and ln, else argument
create or replace view file_accesses as
-- the calls of both kinds, read once (each read of tool_calls scans the Parquet texts of the tool calls); a command
-- as a shell reads it is sql/37's shell_read, as in the commands view
with calls as materialized (
    select
        row_id, host, home, session_id, timestamp_utc, source_file, kind, tool_name, tool_use_id, approval,
        project_path as cwd, text, call_type,
        case when call_type = 'command' then shell_read(text) end as command_read
    from tool_calls
    where call_type in ('file', 'command') and text is not null
),

file_tool_paths as (
    select
        row_id, host, home, session_id, timestamp_utc, source_file, kind, tool_name, tool_use_id, approval, cwd, text,
        'file tool' as via, file_tool_operation(tool_name) as operation,
        -- "path": "..." anywhere in the input, and each string of a "paths": [...] list
        unnest(list_concat(
            regexp_extract_all(text, '"(?:path|file_path|filePath|absolutePath)"\s*:\s*"((?:[^"\\]|\\.)*)"', 1),
            regexp_extract_all(regexp_extract(text, '"paths"\s*:\s*\[([^\]]*)\]', 1), '"((?:[^"\\]|\\.)*)"', 1))) as path
    from calls
    where call_type = 'file'
),

-- the words of each command and the targets it writes, from one reading of the command
command_lists as (
    select
        row_id, host, home, session_id, timestamp_utc, source_file, kind, tool_name, tool_use_id, approval, cwd, text,
        list_distinct(list_filter(regexp_split_to_array(command_read, '[\s;&|<>()=@,"''`]+'),
            w -> (contains(w, '/') or starts_with(w, '.') or starts_with(w, '~')) and not starts_with(w, '-') and not contains(w, '://')
                and w not in ('.', '..', '/'))) as words,
        list_distinct(list_concat(
            regexp_extract_all(command_read, '(?:>>?|\btee(?:\s+-a)?)\s*([^\s;&|<>()''"]+)', 1),
            regexp_extract_all(command_read, '\bsed\s+-i\S*\s+(?:''[^'']*''|"[^"]*"|\S+)\s+([^\s;&|<>()''"]+)', 1),
            regexp_extract_all(command_read, '\b(?:cp|mv|install|ln)\s+(?:-\S+\s+)*\S+\s+([^\s;&|<>()''"]+)', 1))) as targets
    from calls
    where call_type = 'command'
),

command_words as (
    select * exclude (words), unnest(words) as path
    from command_lists
),

accesses as (
    select * exclude (path), replace(path, '\"', '"') as path from file_tool_paths
    union all
    select
        row_id, host, home, session_id, timestamp_utc, source_file, kind, tool_name, tool_use_id, approval, cwd, text,
        'command' as via,
        case when list_contains(targets, path) then 'write' else 'argument' end as operation,
        path
    from command_words
),

-- each path resolved once: the macros below take the resolved path as a column, not as an expression to expand again
resolved as (
    select *, resolve_path(path, cwd) as resolved_path
    from accesses
)

select
    *,
    home_relative_path(resolved_path) as home_relative_path,
    in_project(resolved_path, cwd) as is_in_project,
    credential_file_class(resolved_path, cwd) as credential_class,
    persistence_file_class(resolved_path, cwd) as persistence_class
from resolved;

comment on view file_accesses is 'Every path a tool call of the agent names (a file tool''s paths, the path-like words of a command as a shell reads it), resolved against the session''s working folder and the home, with what it is: a credential, a persistence file or neither. Grain: one row per (tool call, path).';
comment on column file_accesses.row_id is 'row_id of the tool call''s row: join events on it.';
comment on column file_accesses.host is 'Host image name.';
comment on column file_accesses.home is 'The home as the machine names it (C:/Users/alice), as in events.';
comment on column file_accesses.session_id is 'Session of the call.';
comment on column file_accesses.timestamp_utc is 'Time of the call.';
comment on column file_accesses.source_file is 'File of the call''s row, relative to the image root.';
comment on column file_accesses.kind is 'Kind of the call''s row (say:tool, ask:command, tool_use, ...).';
comment on column file_accesses.tool_name is 'Tool of the call.';
comment on column file_accesses.tool_use_id is 'Call id of the call.';
comment on column file_accesses.approval is 'How the call''s approval stood (tool_calls): denied, asked, auto or unknown.';
comment on column file_accesses.cwd is 'The session''s working folder (project_path).';
comment on column file_accesses.text is 'The call''s text as recorded (the command, or the file tool''s input).';
comment on column file_accesses.via is 'file tool (a path of its input) or command (a word of the command as a shell reads it).';
comment on column file_accesses.operation is 'read, list or write for a file tool; write for a command''s redirect, tee, sed -i, cp, mv, install or ln target, else argument.';
comment on column file_accesses.path is 'The path as the call names it (a command''s @.env, < .env, source .env and --env-file=.env all name .env).';
comment on column file_accesses.resolved_path is 'The path as the machine saw it (sql/37 resolve_path): ~ for the home, / separators, a relative path under cwd, . and .. folded; still relative when no cwd is known.';
comment on column file_accesses.home_relative_path is 'resolved_path relative to its home (~, /home/<user>, /Users/<user>, /root, C:/Users/<user>), null when no home is recognisable.';
comment on column file_accesses.is_in_project is 'resolved_path lies inside the session''s working folder (which is no home itself), or stayed relative: a project''s file, not the user''s.';
comment on column file_accesses.credential_class is 'What secret the file holds (sql/37 credential_file_class): .env file, AWS credentials, SSH key, token file, cloud or cluster credentials, system password store, browser password or cookie store, keychain; null otherwise.';
comment on column file_accesses.persistence_class is 'What makes code run again later (sql/37 persistence_file_class): hook script, shell profile, systemd unit, cron table, launch agent; null otherwise. A dotfiles repository''s .zshrc inside the project is neither a persistence nor a credential file.';
