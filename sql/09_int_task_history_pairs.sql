-- int_task_history_pairs: the task_history rule of the duplicate rule (issue 31). An agent keeps a task's
-- history item (its prompt, totals, mode) in more than one place, and each place is read: Roo Code 3.49+ writes
-- tasks/<id>/history_item.json and still writes the item through to its globalState taskHistory in the editor's
-- state database "for downgrade" (RooCodeInc/Roo-Code src/core/webview/ClineProvider.ts); Cline 3.28 moved
-- its globalState taskHistory to state/taskHistory.json and what the older version left in the database
-- stays; VS Code keeps a state.vscdb.backup beside each state database. Each copy is a `task_history` row, so
-- one task had two or three in events, and its totals were summed that many times.
-- Here the copies of one task are one item: those of the same host, home, client (editor), agent and task id,
-- in different files. The row kept is a history file's (stores vscode-tasks, cline-tasks, roo-tasks,
-- kilo-tasks: the agent's own record, which it reads first) where there is one, else a state database's
-- that is not a .backup copy, else the first by file; every other copy is dropped from events and listed in
-- duplicates with it. Rows of different hosts, homes, editors or agents are never paired, and a task whose
-- only copy is in the state database (its history file gone, or from before the move) keeps it.
-- Inputs: raw_events. Grain: one row per dropped copy, with the kept copy (sql/12 drops them from
-- int_primary_events, sql/31 lists them in duplicates).
create or replace table int_task_history_pairs as
with copies as (
    select
        row_id, host, home, client, agent, session_id, source_file,
        row_number() over (
            partition by host, home, client, agent, session_id
            order by store = 'vscode-state', ends_with(source_file, '.backup'), source_file, source_line, source_seq
        ) as preference
    from raw_events
    where kind = 'task_history' and session_id is not null and agent is not null
),

kept as (
    select * from copies where preference = 1
)

select d.row_id as dropped_row_id, k.row_id as kept_row_id
from copies as d
join kept as k
    on k.host = d.host and k.home = d.home and k.client = d.client and k.agent = d.agent and k.session_id = d.session_id
where d.preference > 1 and d.source_file <> k.source_file;

comment on table int_task_history_pairs is 'The rule task_history of the duplicate rule: each other copy of a task''s history item (an editor state database''s, its .backup''s), with the copy kept (the agent''s history file''s where there is one). Grain: one row per dropped copy.';
comment on column int_task_history_pairs.dropped_row_id is 'row_id of the task_history row dropped from events.';
comment on column int_task_history_pairs.kept_row_id is 'row_id of the task_history row of the same host, home, client, agent and task that stays.';
