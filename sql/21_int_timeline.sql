-- int_timeline: the rows of the hunt timeline, unordered (events sorts them; sessions aggregates them
-- without paying for a sort of every text). Inputs: int_primary_events, int_secondary_events,
-- int_duplicate_pairs, int_duplicate_candidates, int_derived_events. Grain: one row per event, same
-- columns as raw_events. Every primary row, every secondary row the duplicate rule did not drop, and the
-- derived model and permission-mode change rows.
create or replace view int_timeline as
with dropped as (
    select c.host, c.store, c.source_file, c.source_line, c.source_seq, c.session_id, c.kind
    from int_duplicate_pairs as d
    join int_duplicate_candidates as c on c.row_id = d.secondary_row_id
),

kept_secondary as (
    select s.*
    from int_secondary_events as s
    anti join dropped as d
        on d.host = s.host and d.store = s.store
        and d.source_file = s.source_file
        and d.source_line is not distinct from s.source_line
        and d.source_seq = s.source_seq
        and d.session_id is not distinct from s.session_id
        and d.kind = s.kind
),

final as (
    select * from int_primary_events
    union all by name
    select * from kept_secondary
    union all by name
    select * from int_derived_events
)

select * from final;
