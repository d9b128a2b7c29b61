-- Macros: the one definition of each question the hunts, the report and the README ask of a tool call
-- (issue 27). Every model and hunt that needs one calls it; none writes its own copy.
--   is_final_answer_tool(tool_name)   a tool whose input is text for the user (a final answer, a plan, a
--                                     question), never a command or a file access: attempt_completion,
--                                     submit_and_exit, plan_mode_respond, act_mode_respond,
--                                     ask_followup_question, ask_question
--   is_command_call(turn_type, tool_name, kind)
--                                     a call that runs shell commands: execute_command, bash, run_commands, or
--                                     a legacy say:command/ask:command message
--   file_tool_operation(tool_name)    read, write or list for a file tool (legacy ClineSayTool names and the
--                                     SDK's), null for any other tool
--   shell_read(command)               the command as a shell would read it: the text, then on lines of their own
--                                     the base64 payloads decoded where they are piped into a shell (`echo X |
--                                     base64 -d | sh`, `sh -c "$(echo X | base64 -d)"`), and the strings handed to
--                                     `sh -c`/`bash -c`/`su -c`/`eval`; then `$NAME`/`${NAME}` replaced by the value
--                                     a `NAME=value` earlier in the text gave. What a hunt matches commands on.
--   resolve_path(path, cwd)           a path as the machine saw it: `~`, `$HOME`, `${HOME}` as `~`, Windows
--                                     separators as `/`, a relative path put under the session's working folder
--                                     (left relative when none is known), `.` and `..` segments folded
--   home_relative_path(resolved)      a resolved path relative to its home (`~/x`, `/home/u/x`, `/Users/u/x`,
--                                     `/root/x`, `C:/Users/u/x` give `x`), null when no home is recognisable
--   in_project(resolved, cwd)         the resolved path lies inside the session's working folder (and that folder
--                                     is no home itself): a project's file, not the user's
--   credential_file_class(resolved, cwd)
--                                     what secret a path holds: `.env file` (anywhere, templates such as
--                                     .env.example not), and, outside the project, `AWS credentials`, `SSH key`
--                                     (not .pub), `token file` (.netrc, .git-credentials, .pgpass, .npmrc,
--                                     .pypirc), `cloud or cluster credentials` (docker, kube, gcloud), `system
--                                     password store` (/etc/shadow, gshadow, sudoers), `browser password or cookie
--                                     store`, `keychain`; null otherwise
--   persistence_file_class(resolved, cwd)
--                                     what makes code run again later: `hook script` (a file in .cline/hooks,
--                                     .clinerules/hooks, Documents/Cline/Hooks or .git/hooks, inside the project
--                                     too), and outside the project `shell profile` (~/.bashrc, .zshrc, .profile,
--                                     ..., fish config, /etc/profile), `systemd unit` (user or system), `cron table`
--                                     (/etc/cron*, /var/spool/cron), `launch agent`; null otherwise
-- A home whose path the records do not show (a home outside /home, /Users, /root) is judged by the file's name
-- and its folders (`.../.config/systemd/user/x.service`, `.../.bashrc`) outside the project.

create or replace macro is_final_answer_tool(tool_name) as
    coalesce(lower(tool_name), '') in
    ('attempt_completion', 'submit_and_exit', 'plan_mode_respond', 'act_mode_respond', 'ask_followup_question', 'ask_question');

create or replace macro is_command_call(turn_type, tool_name, kind) as
    turn_type = 'tool_use'
    and (coalesce(tool_name, '') in ('execute_command', 'bash', 'run_commands') or kind in ('say:command', 'ask:command'));

create or replace macro file_tool_operation(tool_name) as
    case
        when tool_name in ('readFile', 'read_file', 'read_files', 'view_file', 'searchFiles', 'search_files', 'search_codebase',
                           'listCodeDefinitionNames', 'list_code_definition_names')
            then 'read'
        when tool_name in ('listFilesTopLevel', 'listFilesRecursive', 'list_files')
            then 'list'
        when tool_name in ('editedExistingFile', 'newFileCreated', 'fileDeleted', 'write_to_file', 'replace_in_file', 'apply_patch',
                           'editor', 'edit_file', 'write_file', 'create_file', 'str_replace_editor', 'new_rule')
            then 'write'
    end;

-- `echo X | base64 -d | sh` and `sh -c "$(echo X | base64 -d)"`: the payloads a shell runs, decoded (null when
-- not UTF-8), one per line
create or replace macro shell_decoded_payloads(command) as
    array_to_string(
        list_filter(
            list_transform(
                list_concat(
                    regexp_extract_all(command,
                        '(?:echo|printf)\s+(?:-[ne]+\s+)?[''"]?([A-Za-z0-9+/]{8,}={0,2})[''"]?\s*\|\s*base64\s+(?:-d|--decode|-D)\s*\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b', 1),
                    regexp_extract_all(command,
                        '(?:\beval|\b(?:ba|z|da|k)?sh\s+-c)\s+[''"]?\$\(\s*(?:echo|printf)\s+(?:-[ne]+\s+)?[''"]?([A-Za-z0-9+/]{8,}={0,2})[''"]?\s*\|\s*base64\s+(?:-d|--decode|-D)', 1)),
                p -> try(decode(from_base64(p)))),
            d -> d is not null),
        chr(10));

-- the strings `sh -c`, `bash -c`, `su -c` and `eval` hand to a shell, one per line
create or replace macro shell_inner_strings(command) as
    array_to_string(
        list_concat(
            regexp_extract_all(command, '(?:(?:^|[\s;&|(`])(?:(?:ba|z|da|k)?sh|su)(?:\s+-[A-Za-z-]+)*\s+-[a-z]*c[a-z]*|\beval)\s+''([^'']*)''', 1),
            list_transform(
                regexp_extract_all(command, '(?:(?:^|[\s;&|(`])(?:(?:ba|z|da|k)?sh|su)(?:\s+-[A-Za-z-]+)*\s+-[a-z]*c[a-z]*|\beval)\s+"((?:[^"\\]|\\.)*)"', 1),
                s -> replace(s, '\"', '"'))),
        chr(10));

-- `$NAME` and `${NAME}` replaced by the value the text's last `NAME=value` (or `export NAME=value`) gave
create or replace macro shell_substituted(text) as
    list_reduce(
        list_transform(
            regexp_extract_all(text, '(?:^|[\s;&|(`])(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*=(?:''[^'']*''|"[^"]*"|[^\s;&|''"`]*))', 1),
            a -> split_part(a, '=', 1) || chr(0) || trim(substr(a, strpos(a, '=') + 1), '''"')),
        (acc, a) -> regexp_replace(acc, '\$(?:\{' || split_part(a, chr(0), 1) || '\}|' || split_part(a, chr(0), 1) || '\b)',
            replace(split_part(a, chr(0), 2), '\', '\\'), 'g'),
        text);

create or replace macro shell_read(command) as
    shell_substituted(
        concat_ws(chr(10), command, nullif(shell_decoded_payloads(command), ''), nullif(shell_inner_strings(command), ''),
            nullif(shell_inner_strings(shell_decoded_payloads(command)), '')));

-- `.` segments dropped and `x/..` pairs folded (three passes: deeper `..` chains are rare in tool calls)
create or replace macro path_folded(p) as
    regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(p, '/(\./)+', '/', 'g'),
        '/[^/]+/\.\.(/|$)', '/', ''), '/[^/]+/\.\.(/|$)', '/', ''), '/[^/]+/\.\.(/|$)', '/', ''), '(.)/$', '\1');

create or replace macro resolve_path(p, cwd) as
    case
        when p is null or trim(p) = '' then null
        when regexp_matches(trim(p, ' ''"'), '^(~|\$HOME|\$\{HOME\})(/|\\|$)')
            then path_folded(regexp_replace(replace(trim(p, ' ''"'), '\', '/'), '^(~|\$HOME|\$\{HOME\})', '~'))
        when regexp_matches(trim(p, ' ''"'), '^(/|[A-Za-z]:[\\/]|\\\\)') then path_folded(replace(trim(p, ' ''"'), '\', '/'))
        when cwd is null or trim(cwd) = '' then path_folded(regexp_replace(replace(trim(p, ' ''"'), '\', '/'), '^(\./)+', ''))
        else path_folded(rtrim(replace(cwd, '\', '/'), '/') || '/' || regexp_replace(replace(trim(p, ' ''"'), '\', '/'), '^(\./)+', ''))
    end;

create or replace macro home_relative_path(resolved) as
    case
        when resolved = '~' then ''
        when starts_with(resolved, '~/') then substr(resolved, 3)
        when regexp_matches(resolved, '^/(home/[^/]+|Users/[^/]+|root)(/|$)')
            then regexp_extract(resolved, '^/(?:home/[^/]+|Users/[^/]+|root)/?(.*)$', 1)
        when regexp_matches(resolved, '^[A-Za-z]:/(Users|Documents and Settings)/[^/]+(/|$)')
            then regexp_extract(resolved, '^[A-Za-z]:/(?:Users|Documents and Settings)/[^/]+/?(.*)$', 1)
    end;

create or replace macro in_project(resolved, cwd) as
    coalesce(
        -- still relative: no working folder was known to put it under, so it is the project's
        not regexp_matches(resolved, '^(/|~|[A-Za-z]:/)')
        or (cwd is not null and trim(cwd) <> ''
            and home_relative_path(path_folded(replace(cwd, '\', '/'))) is distinct from ''
            and starts_with(resolved, rtrim(path_folded(replace(cwd, '\', '/')), '/') || '/')),
        false);

create or replace macro credential_file_class(resolved, cwd) as
    case
        when resolved is null then null
        when regexp_matches(resolved, '(^|/)\.env(\.[\w-]+)?$') and not regexp_matches(resolved, '(^|/)\.env\.(example|sample|template|dist|defaults)$')
            then '.env file'
        when regexp_matches(resolved, '(^|/)(Login Data|Cookies|logins\.json|key4\.db|Local State)$') then 'browser password or cookie store'
        when regexp_matches(resolved, '\.keychain(-db)?$') then 'keychain'
        when regexp_matches(resolved, '^/etc/(shadow|gshadow|sudoers)$') then 'system password store'
        when in_project(resolved, cwd) then null
        when regexp_matches(coalesce('/' || home_relative_path(resolved), resolved), '/\.aws/(credentials|config)$') then 'AWS credentials'
        when regexp_matches(coalesce('/' || home_relative_path(resolved), resolved), '/\.ssh/(id_[A-Za-z0-9_]+|authorized_keys|[^/]+\.pem)$') then 'SSH key'
        when regexp_matches(coalesce('/' || home_relative_path(resolved), resolved), '/(\.netrc|\.git-credentials|\.pgpass|\.npmrc|\.pypirc)$') then 'token file'
        when regexp_matches(coalesce('/' || home_relative_path(resolved), resolved),
            '/(\.docker/config\.json|\.kube/config|\.config/gcloud/(credentials\.db|application_default_credentials\.json|access_tokens\.db))$')
            then 'cloud or cluster credentials'
    end;

create or replace macro persistence_file_class(resolved, cwd) as
    case
        when resolved is null then null
        when regexp_matches(resolved, '(^|/)(\.cline/hooks|\.clinerules/hooks|Documents/Cline/Hooks|\.git/hooks)/[^/]+$') then 'hook script'
        when in_project(resolved, cwd) then null
        when regexp_matches(resolved, '^/etc/(profile|profile\.d/[^/]+|bash\.bashrc|zsh/zshrc|zshrc|zshenv)$') then 'shell profile'
        when home_relative_path(resolved) is not null
            and regexp_matches(home_relative_path(resolved), '^(\.(bashrc|zshrc|profile|bash_profile|zprofile|zshenv|zlogin|bash_login)|\.config/fish/config\.fish)$')
            then 'shell profile'
        when home_relative_path(resolved) is null
            and regexp_matches(resolved, '/(\.(bashrc|zshrc|profile|bash_profile|zprofile|zshenv|zlogin|bash_login)|\.config/fish/config\.fish)$')
            then 'shell profile'
        when regexp_matches(resolved, '(^|/)\.config/systemd/user/[^/]+$|^/(etc|usr/lib|lib)/systemd/(system|user)/[^/]+$') then 'systemd unit'
        when regexp_matches(resolved, '^/etc/cron|^/var/spool/cron') then 'cron table'
        when regexp_matches(resolved, '(^|/)Library/Launch(Agents|Daemons)/[^/]+$') then 'launch agent'
    end;

-- fork_command_approved(command, allowed, denied): whether Roo Code's and Kilo Code's own lists approve a command
-- (their src/core/auto-approval/commands.ts getCommandDecision; lists lower-cased, sql/39 int_fork_switches): each
-- command of the chain (split at &&, ||, ;, |, & and line breaks) needs a case-blind prefix among the allowed ones
-- (`*` matches all and counts as one character) longer than the longest denied prefix it starts with. A command
-- substitution ($(...), backticks) or one of the expansions they call dangerous is never approved here: they read
-- a substitution's own commands too, and clinetrail would rather say unknown than call a call they asked about auto.
create or replace macro fork_prefix_length(command, prefixes) as
    coalesce(list_max(list_transform(
        list_filter(prefixes, p -> p = '*' or starts_with(lower(trim(command)), p)),
        p -> length(p))), 0);

create or replace macro fork_command_approved(command, allowed, denied) as
    not regexp_matches(command, '\$\(|`|\$\{[^}]*@[PQEAa][^}]*\}|\$\{![^}]+\}|<<<|(^|[\s;|&(<])=\(|[*?+@!]\(e:')
    and coalesce(list_bool_and(list_transform(
        list_filter(string_split_regex(command, '&&|\|\||[;|&\n]'), part -> trim(part) <> ''),
        part -> fork_prefix_length(part, allowed) > fork_prefix_length(part, denied))), false);
