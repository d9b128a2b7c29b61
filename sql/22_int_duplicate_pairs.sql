-- int_duplicate_pairs: which secondary rows (hooks-log, input-history, search-index, hub-events) a primary row on
-- the same host already records. Inputs: int_duplicate_rules (sql/21), int_duplicate_candidates (sql/20).
-- Grain: one row per dropped secondary row, with the primary row that absorbed it (row_ids of raw_events). The
-- last rule, hub_search (sql/23), adds its pairs after these.
--
-- The rule is one-to-one per rule: a primary row absorbs at most one secondary row of each rule (one copy per
-- secondary store: a prompt in the transcript, the input history and the search index drops both copies) and a
-- secondary row is dropped for at most one primary row. The rules run in the order of int_duplicate_rules, each
-- pairing rows within a group, the candidates of one key. A rule runs in rounds, each on the rows earlier rounds
-- left: the passes its row names, in that order, then the next round, until a round pairs nothing
-- (warehouse/model-run.ts runs the statements after the repeat line for each rule, with round = 1, 2, ...; there
-- is no cap on rounds: each round that goes on has paired at least one more secondary row, of which there are
-- finitely many). Ties are broken by (file, line, seq, kind, session) and last by row_id, so the pairs are the
-- same on every build of the same evidence.
create or replace table int_duplicate_pairs (
    rule VARCHAR,
    round_number INTEGER,
    pass VARCHAR,
    distance_ms BIGINT,
    secondary_row_id UUID,
    primary_row_id UUID
);

comment on table int_duplicate_pairs is 'The secondary rows the duplicate rule dropped, each with the row that already records it. Grain: one row per dropped secondary row (secondary_row_id).';
comment on column int_duplicate_pairs.rule is 'The rule that paired them (int_duplicate_rules.rule, or hub_search).';
comment on column int_duplicate_pairs.round_number is 'The round of the rule that paired them (1, 2, ...).';
comment on column int_duplicate_pairs.pass is 'The pass of the round that paired them: nearest, in_order or undated (the passes below).';
comment on column int_duplicate_pairs.distance_ms is 'Milliseconds between the two rows (0 for the search index and an undated history line; null for hub_search).';
comment on column int_duplicate_pairs.secondary_row_id is 'row_id of the dropped secondary row.';
comment on column int_duplicate_pairs.primary_row_id is 'row_id of the row that records it and stays (for hub_search, the hub-events row).';

-- The passes, as table macros of this model (they read the pairs made so far): int_duplicate_open (the candidates
-- of a rule still open), then int_duplicate_nearest, int_duplicate_in_order and int_duplicate_undated, each
-- returning the pairs one pass of one round makes for one rule (rule, pass, distance_ms, secondary_row_id,
-- primary_row_id). Each pass is a few sorts and windows over the group rows, so a round costs what its rows
-- cost, never the pairs a group could form (the rule this replaces held every candidate pair with both texts:
-- 10 x 100 `continue` prompts and 1,000 history lines ran out of memory):
--   nearest   both sides merged by the rule's coordinate (time; record position for the search index),
--             copies at one coordinate interleaved primary first, in file order. Each row chooses the
--             nearest row of the other side within the window (at equal distance, the pair whose primary
--             comes first); rows that choose each other pair. They are always neighbours in the merged
--             order: one lead(). The closest pair left in a group always pairs, so a round that pairs
--             nothing has no pair within the window left.
--   in_order  on the rows left: each dated secondary row with a primary left in its window, in order,
--             takes the first primary left that is not before its window and not taken by an earlier one,
--             rank j(i) = i + max over i' <= i of (first(i') - i'); a pair outside the window is not made
--             (its primary is left for the next round). This completes chains of copies closer to each
--             other than to their twins in one pass.
--   undated   (input_history) undated history lines pair newest first with the newest prompts left: the
--             file holds the newest prompts, oldest first, so its lines are the last uses of their texts.
-- Ties are broken by (file, line, seq, kind, session) and last by row_id, so the pairs are the same on
-- every build of the same evidence.

-- The candidates of one rule that no earlier rule, round or pass paired, in groups that still have rows
-- of both sides. Every pass pairs two rows only when their group_key is equal, so a collision of
-- group_hash can merge two groups' candidates but never pair rows of different keys.
create or replace macro int_duplicate_open(rule_name) as table
select
    c.*,
    case when c.source_role = 'primary' then 0 else 1 end as side_order
from int_duplicate_candidates as c
anti join (
    select secondary_row_id as row_id from int_duplicate_pairs
    union all
    select primary_row_id from int_duplicate_pairs where rule = rule_name
) as used
    on used.row_id = c.row_id
where c.rule = rule_name
qualify sum(case when c.source_role = 'secondary' then 1 else 0 end) over (partition by c.group_hash) > 0
    and sum(case when c.source_role = 'primary' then 1 else 0 end) over (partition by c.group_hash) > 0;

-- Pass nearest: pairs of rows that are each other's nearest row of the other side, within window_ms (null:
-- no window), among the rows with a coordinate.
create or replace macro int_duplicate_nearest(rule_name, window_ms) as table
with merged as (
    select
        *,
        row_number() over (partition by group_hash, coordinate, source_role order by source_file, source_line, source_seq, kind, session_id, row_id) as rank_at_coordinate
    from int_duplicate_open(rule_name)
    where coordinate is not null
),

neighbours as (
    select
        *,
        max(case when source_role = 'primary' then coordinate end) over before_me as primary_before,
        min(case when source_role = 'primary' then coordinate end) over after_me as primary_after,
        max(case when source_role = 'secondary' then coordinate end) over before_me as secondary_before,
        min(case when source_role = 'secondary' then coordinate end) over after_me as secondary_after
    from merged
    window
        before_me as (partition by group_hash order by coordinate, rank_at_coordinate, side_order rows between unbounded preceding and 1 preceding),
        after_me as (partition by group_hash order by coordinate, rank_at_coordinate, side_order rows between 1 following and unbounded following)
),

distances as (
    select
        *,
        coordinate - case when source_role = 'primary' then secondary_before else primary_before end as distance_before,
        case when source_role = 'primary' then secondary_after else primary_after end - coordinate as distance_after
    from neighbours
),

choices as (
    select
        *,
        case
            when distance_before is null and distance_after is null then null
            when distance_after is null or distance_before < distance_after then 'before'
            when distance_before is null or distance_after < distance_before then 'after'
            -- equal distance: the pair whose primary row comes first
            when source_role = 'secondary' then 'before'
            else 'after'
        end as choice
    from distances
),

windowed as (
    select
        * replace (
            case
                when window_ms is null then choice
                when choice = 'before' and distance_before <= window_ms then choice
                when choice = 'after' and distance_after <= window_ms then choice
            end as choice
        )
    from choices
),

linked as (
    select
        *,
        lead(row_id) over merged_order as next_row_id,
        lead(source_role) over merged_order as next_source_role,
        lead(choice) over merged_order as next_choice,
        lead(timestamp_ms) over merged_order as next_timestamp_ms,
        lead(group_key) over merged_order as next_group_key
    from windowed
    window merged_order as (partition by group_hash order by coordinate, rank_at_coordinate, side_order)
)

select
    rule_name as rule,
    'nearest' as pass,
    case when rule_name = 'search_index' then 0 else coalesce(abs(next_timestamp_ms - timestamp_ms), 0) end as distance_ms,
    case when source_role = 'secondary' then row_id else next_row_id end as secondary_row_id,
    case when source_role = 'primary' then row_id else next_row_id end as primary_row_id
from linked
where choice = 'after' and next_choice = 'before' and next_source_role <> source_role and next_group_key = group_key;

-- Pass in_order for dated secondary rows: in order, each takes the first primary row left that is not
-- before its window and not taken by an earlier one; a pair outside the window is not made.
create or replace macro int_duplicate_in_order(rule_name, window_ms) as table
with open_rows as (
    select * from int_duplicate_open(rule_name) where coordinate is not null
),

primaries as (
    select
        row_id, group_hash, group_key, coordinate, timestamp_ms,
        row_number() over (partition by group_hash order by coordinate, source_file, source_line, source_seq, kind, session_id, row_id) as primary_rank,
        rank() over (partition by group_hash order by coordinate) as first_rank_at_coordinate
    from open_rows
    where source_role = 'primary'
),

-- each secondary's first primary at or after the start of its window (the group's first without a window)
reach as (
    select
        s.row_id, s.group_hash, s.group_key, s.coordinate, s.timestamp_ms, s.source_file, s.source_line, s.source_seq, s.kind, s.session_id,
        p.first_rank_at_coordinate as first_rank, p.coordinate as first_coordinate
    from (select *, coalesce(coordinate - window_ms, -4611686018427387904) as window_start from open_rows where source_role = 'secondary') as s
    asof join (select distinct group_hash, coordinate, first_rank_at_coordinate from primaries) as p
        on p.group_hash = s.group_hash and s.window_start <= p.coordinate
),

ranked as (
    select *, row_number() over (partition by group_hash order by coordinate, source_file, source_line, source_seq, kind, session_id, row_id) as secondary_rank
    from reach
    where window_ms is null or first_coordinate <= coordinate + window_ms
),

assigned as (
    select
        *,
        secondary_rank + max(first_rank - secondary_rank) over (partition by group_hash order by secondary_rank rows between unbounded preceding and current row) as primary_rank
    from ranked
)

select
    rule_name as rule,
    'in_order' as pass,
    case when rule_name = 'search_index' then 0 else coalesce(abs(p.timestamp_ms - a.timestamp_ms), 0) end as distance_ms,
    a.row_id as secondary_row_id,
    p.row_id as primary_row_id
from assigned as a
join primaries as p on p.group_hash = a.group_hash and p.primary_rank = a.primary_rank
where p.group_key = a.group_key and (window_ms is null or p.coordinate <= a.coordinate + window_ms);

-- Pass undated, for undated secondary rows (history lines): newest first, with the newest primary rows left.
create or replace macro int_duplicate_undated(rule_name) as table
with open_rows as (
    select * from int_duplicate_open(rule_name)
),

secondaries as (
    select
        row_id, group_hash, group_key,
        row_number() over (partition by group_hash order by source_file desc, source_line desc, source_seq desc, kind desc, session_id desc, row_id desc) as newest_first
    from open_rows
    where source_role = 'secondary' and coordinate is null
),

primaries as (
    select
        row_id, group_hash, group_key,
        row_number() over (partition by group_hash order by coordinate desc nulls last, source_file desc, source_line desc, source_seq desc, kind desc, session_id desc, row_id desc) as newest_first
    from open_rows
    where source_role = 'primary'
)

select rule_name as rule, 'undated' as pass, 0::BIGINT as distance_ms, s.row_id as secondary_row_id, p.row_id as primary_row_id
from secondaries as s
join primaries as p on p.group_hash = s.group_hash and p.newest_first = s.newest_first
where p.group_key = s.group_key;

-- repeat: until a run inserts no row
-- for each row of: select rule, window_ms, passes from int_duplicate_rules order by rule_order
insert into int_duplicate_pairs by name
select *, {{round}} as round_number from int_duplicate_nearest({{rule}}, {{window_ms}}::BIGINT)
where list_contains({{passes}}, 'nearest');

insert into int_duplicate_pairs by name
select *, {{round}} as round_number from int_duplicate_in_order({{rule}}, {{window_ms}}::BIGINT)
where list_contains({{passes}}, 'in_order');

insert into int_duplicate_pairs by name
select *, {{round}} as round_number from int_duplicate_undated({{rule}})
where list_contains({{passes}}, 'undated');
