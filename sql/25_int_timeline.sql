-- int_timeline: the rows of the hunt timeline, unordered (events sorts them; sessions aggregates them
-- without paying for a sort of every text). A view that the host build also stores, one file per host
-- (warehouse/host-models.ts STORED_VIEWS): fleet.duckdb and the hunts read those files, not these joins.
-- Inputs: int_primary_events, int_secondary_paired (sql/24), int_derived_events. Grain: one row per event,
-- same columns as raw_events. Every primary row, every secondary row the duplicate rule did not drop, and the
-- derived model and permission-mode change rows.
create or replace view int_timeline as
with kept_secondary as (
    select * exclude (duplicate_rule, duplicate_round_number, duplicate_pass, duplicate_distance_ms, duplicate_of_row_id)
    from int_secondary_paired
    where duplicate_rule is null
),

final as (
    select * from int_primary_events
    union all by name
    select * from kept_secondary
    union all by name
    select * from int_derived_events
)

select * from final;

comment on view int_timeline is 'The rows of the hunt timeline, unordered: every primary row, every secondary row the duplicate rule kept, the derived rows. Grain: one row per event; the columns of raw_events.';
{{int_timeline_column_comments}}
