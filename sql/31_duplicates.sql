-- duplicates: every secondary row the duplicate rule dropped, beside the primary row that already records
-- it and the rule that matched them (sql/20_int_duplicate_pairs.sql). Inputs: int_duplicate_pairs,
-- int_duplicate_candidates, int_secondary_events (the dropped rows' texts, joined back only for them).
-- Grain: one row per dropped row. rule_round is the pass that paired them: 1 nearest, 2 in order.
create or replace table duplicates as
with pairs as (
    select
        d.rule,
        d.rule_round,
        d.distance_ms,
        s.host,
        s.home,
        s.store as dropped_store,
        s.source_file as dropped_source_file,
        s.source_line as dropped_source_line,
        s.source_seq as dropped_source_seq,
        s.session_id as dropped_session_id,
        s.turn_type as dropped_turn_type,
        s.kind as dropped_kind,
        to_timestamp(s.ms / 1000) as dropped_timestamp_utc,
        p.store as kept_store,
        p.source_file as kept_source_file,
        p.source_line as kept_source_line,
        p.source_seq as kept_source_seq,
        p.session_id as kept_session_id,
        p.kind as kept_kind,
        to_timestamp(p.ms / 1000) as kept_timestamp_utc
    from int_duplicate_pairs as d
    join int_duplicate_candidates as s on s.row_id = d.secondary_row_id
    join int_duplicate_candidates as p on p.row_id = d.primary_row_id
),

with_texts as (
    select d.*, e.text as dropped_text
    from pairs as d
    left join int_secondary_events as e
        on e.host = d.host and e.store = d.dropped_store
        and e.source_file = d.dropped_source_file
        and e.source_line is not distinct from d.dropped_source_line
        and e.source_seq = d.dropped_source_seq
        and e.session_id is not distinct from d.dropped_session_id
        and e.kind = d.dropped_kind
)

select
    rule,
    rule_round,
    distance_ms,
    host,
    home,
    dropped_store,
    dropped_source_file,
    dropped_source_line,
    dropped_session_id,
    dropped_turn_type,
    dropped_kind,
    dropped_timestamp_utc,
    dropped_text,
    kept_store,
    kept_source_file,
    kept_source_line,
    kept_source_seq,
    kept_session_id,
    kept_kind,
    kept_timestamp_utc
from with_texts
order by host, rule, dropped_source_file, dropped_source_line;
