-- int_secondary_paired: every secondary row, with the pair that dropped it (null pair columns for a row the
-- duplicate rule kept). Inputs: int_secondary_events, int_duplicate_pairs (sql/21 to sql/25). Grain: one
-- row per secondary row. The one place a secondary row meets its pair, by row_id: sql/27 keeps the rows
-- without a pair, sql/31 lists the others with their texts.
create or replace view int_secondary_paired as
select
    s.*,
    d.rule as duplicate_rule,
    d.round_number as duplicate_round_number,
    d.pass as duplicate_pass,
    d.distance_ms as duplicate_distance_ms,
    d.primary_row_id as duplicate_of_row_id
from int_secondary_events as s
left join int_duplicate_pairs as d on d.secondary_row_id = s.row_id;
