-- duplicates: every secondary row the duplicate rule dropped, beside the primary row that already records
-- it and the rule that matched them (sql/20_int_duplicate_pairs.sql). Grain: one row per dropped row.
create or replace table duplicates as
select
    d.rule,
    d.round as rule_round,
    d.distance_ms,
    d.secondary.host as host,
    d.secondary.home as home,
    d.secondary.store as dropped_store,
    d.secondary.source_file as dropped_source_file,
    d.secondary.source_line as dropped_source_line,
    d.secondary.session_id as dropped_session_id,
    d.secondary.turn_type as dropped_turn_type,
    d.secondary.kind as dropped_kind,
    to_timestamp(d.secondary.ms / 1000) as dropped_timestamp_utc,
    d.secondary.text as dropped_text,
    d.primary_row.store as kept_store,
    d.primary_row.source_file as kept_source_file,
    d.primary_row.source_line as kept_source_line,
    d.primary_row.source_seq as kept_source_seq,
    d.primary_row.session_id as kept_session_id,
    d.primary_row.kind as kept_kind,
    to_timestamp(d.primary_row.ms / 1000) as kept_timestamp_utc
from int_duplicate_pairs as d
order by host, rule, dropped_source_file, dropped_source_line;
