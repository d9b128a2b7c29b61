-- duplicates: every secondary row the duplicate rule dropped, beside the primary row that already records
-- it and the rule that matched them (sql/20_int_duplicate_pairs.sql). Inputs: int_secondary_paired,
-- int_duplicate_candidates (the kept row). Grain: one row per dropped row. rule_round is the pass that
-- paired them: 1 nearest, 2 in order.
create or replace table duplicates as
select
    s.duplicate_rule as rule,
    s.duplicate_rule_round as rule_round,
    s.duplicate_distance_ms as distance_ms,
    s.host,
    s.home,
    s.store as dropped_store,
    s.source_file as dropped_source_file,
    s.source_line as dropped_source_line,
    s.session_id as dropped_session_id,
    s.turn_type as dropped_turn_type,
    s.kind as dropped_kind,
    s.timestamp_utc as dropped_timestamp_utc,
    s.text as dropped_text,
    p.store as kept_store,
    p.source_file as kept_source_file,
    p.source_line as kept_source_line,
    p.source_seq as kept_source_seq,
    p.session_id as kept_session_id,
    p.kind as kept_kind,
    to_timestamp(p.ms / 1000) as kept_timestamp_utc
from int_secondary_paired as s
join int_duplicate_candidates as p on p.row_id = s.duplicate_of_row_id
where s.duplicate_rule is not null
order by host, rule, dropped_source_file, dropped_source_line;
