-- duplicates: every secondary row the duplicate rule dropped, beside the primary row that already records
-- it and the rule that matched them (sql/20 to sql/23), and every legacy request's copy of a tool result
-- dropped by the legacy_result rule (sql/11), and every other copy of a task history item the task_history
-- rule dropped (sql/09). Inputs: int_secondary_paired (the dropped row), int_duplicate_candidates (the kept row,
-- by rule and row_id), int_legacy_result_pairs, int_task_history_pairs and raw_events. Grain: one row per
-- dropped row (dropped_row_id is unique); each kept row appears at most once per rule, the rule being
-- one-to-one, but for task_history, where a task's history file row keeps every other copy of the item (the
-- state database's and its .backup's).
create or replace table duplicates as
select
    s.duplicate_rule as rule,
    case when s.duplicate_pass = 'nearest' then 1 else 2 end as rule_round,
    s.duplicate_pass as rule_pass,
    s.duplicate_round_number as round_number,
    s.duplicate_distance_ms as distance_ms,
    s.host,
    s.home,
    s.row_id as dropped_row_id,
    s.store as dropped_store,
    s.source_file as dropped_source_file,
    s.source_line as dropped_source_line,
    s.session_id as dropped_session_id,
    s.turn_type as dropped_turn_type,
    s.kind as dropped_kind,
    s.timestamp_utc as dropped_timestamp_utc,
    s.text as dropped_text,
    p.row_id as kept_row_id,
    p.store as kept_store,
    p.source_file as kept_source_file,
    p.source_line as kept_source_line,
    p.source_seq as kept_source_seq,
    p.session_id as kept_session_id,
    p.kind as kept_kind,
    to_timestamp(p.timestamp_ms / 1000) as kept_timestamp_utc
from int_secondary_paired as s
join int_duplicate_candidates as p on p.rule = s.duplicate_rule and p.row_id = s.duplicate_of_row_id
where s.duplicate_rule is not null
union all
-- legacy_result (sql/11): a legacy request's copy of a tool result its task records as a message of its own;
-- task_history (sql/09): another copy of a task's history item, kept by its history file
select
    l.rule,
    1 as rule_round,
    l.rule_pass,
    1 as round_number,
    epoch_ms(k.timestamp_utc) - epoch_ms(d.timestamp_utc) as distance_ms,
    d.host,
    d.home,
    d.row_id as dropped_row_id,
    d.store as dropped_store,
    d.source_file as dropped_source_file,
    d.source_line as dropped_source_line,
    d.session_id as dropped_session_id,
    d.turn_type as dropped_turn_type,
    d.kind as dropped_kind,
    d.timestamp_utc as dropped_timestamp_utc,
    d.text as dropped_text,
    k.row_id as kept_row_id,
    k.store as kept_store,
    k.source_file as kept_source_file,
    k.source_line as kept_source_line,
    k.source_seq as kept_source_seq,
    k.session_id as kept_session_id,
    k.kind as kept_kind,
    k.timestamp_utc as kept_timestamp_utc
from (
    select 'legacy_result' as rule, 'same call' as rule_pass, dropped_row_id, kept_row_id from int_legacy_result_pairs
    union all
    select 'task_history', 'same task', dropped_row_id, kept_row_id from int_task_history_pairs
) as l
join raw_events as d on d.row_id = l.dropped_row_id
join raw_events as k on k.row_id = l.kept_row_id
order by host, rule, dropped_source_file, dropped_source_line, dropped_row_id;

comment on table duplicates is 'Every row the duplicate rule dropped from events (a secondary store''s copy, a legacy request''s copy of a result, another copy of a task history item), beside the row that already records it. Grain: one row per dropped row (dropped_row_id).';
comment on column duplicates.rule is 'Rule that paired them: hook_tool_call, hook_text, input_history, search_index, hub_message, hub_usage, hub_session, hub_search (a search-index copy of a hub row, where the transcript is gone), legacy_result (a legacy request''s copy of a tool result its task records as a message), or task_history (another copy of a task''s history item: an editor state database''s, kept by the agent''s history file).';
comment on column duplicates.rule_round is 'Pass that paired them: 1 nearest, 2 in order (or undated history lines newest first).';
comment on column duplicates.rule_pass is 'The same pass by name: nearest, in_order or undated; same call for legacy_result, same task for task_history.';
comment on column duplicates.round_number is 'Round of the rule that paired them, 1 first; a rule runs rounds until one pairs nothing.';
comment on column duplicates.distance_ms is 'Milliseconds between the two rows'' times; 0 for search_index and undated lines.';
comment on column duplicates.host is 'Host image name.';
comment on column duplicates.home is 'Home folder of the dropped row.';
comment on column duplicates.dropped_row_id is 'row_id of the dropped row in raw_events.';
comment on column duplicates.dropped_store is 'Store of the dropped row: hooks-log, input-history, search-index or hub-events; cline-tasks or vscode-tasks for legacy_result; vscode-state (or a history file''s store, for a copy in another file) for task_history.';
comment on column duplicates.dropped_source_file is 'Evidence file of the dropped row.';
comment on column duplicates.dropped_source_line is 'source_line of the dropped row.';
comment on column duplicates.dropped_session_id is 'session_id of the dropped row.';
comment on column duplicates.dropped_turn_type is 'turn_type of the dropped row.';
comment on column duplicates.dropped_kind is 'kind of the dropped row.';
comment on column duplicates.dropped_timestamp_utc is 'Time of the dropped row.';
comment on column duplicates.dropped_text is 'Text of the dropped row.';
comment on column duplicates.kept_row_id is 'row_id of the transcript (for hub_session, the manifest; for hub_search, the hub event log; for task_history, the history file''s) row kept, in raw_events and events.';
comment on column duplicates.kept_store is 'Store of the kept row.';
comment on column duplicates.kept_source_file is 'Evidence file of the kept row.';
comment on column duplicates.kept_source_line is 'source_line of the kept row.';
comment on column duplicates.kept_source_seq is 'source_seq of the kept row.';
comment on column duplicates.kept_session_id is 'session_id of the kept row.';
comment on column duplicates.kept_kind is 'kind of the kept row.';
comment on column duplicates.kept_timestamp_utc is 'Time of the kept row.';
