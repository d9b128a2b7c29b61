-- int_secondary_paired: every secondary row, with the pair that dropped it (null pair columns for a row the
-- duplicate rule kept). Inputs: int_secondary_events, int_duplicate_pairs (sql/22, sql/23). Grain: one
-- row per secondary row. The one place a secondary row meets its pair, by row_id: sql/25 keeps the rows
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

comment on view int_secondary_paired is 'Every secondary row with the pair that dropped it, if any. Grain: one row per secondary row; the columns of raw_events, then the pair''s.';
{{int_secondary_paired_column_comments}}
comment on column int_secondary_paired.duplicate_rule is 'The rule that dropped the row (int_duplicate_pairs.rule); null when the duplicate rule kept it.';
comment on column int_secondary_paired.duplicate_round_number is 'The round of the rule that dropped it.';
comment on column int_secondary_paired.duplicate_pass is 'The pass that dropped it (nearest, in_order, undated).';
comment on column int_secondary_paired.duplicate_distance_ms is 'Milliseconds between the row and the one that records it.';
comment on column int_secondary_paired.duplicate_of_row_id is 'row_id of the row that records it and stays.';
