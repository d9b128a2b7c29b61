-- int_duplicate_pairs, int_secondary_paired: which secondary rows (hooks-log, input-history,
-- search-index) a primary transcript row on the same host already records. Inputs:
-- int_duplicate_candidates (sql/20_int_duplicate_candidates.sql: the rows, their keys, no text),
-- int_secondary_events. Grain: int_duplicate_pairs one row per dropped secondary row with the primary row
-- that absorbed it (row_ids of int_duplicate_candidates); int_secondary_paired (view, at the end) one row
-- per secondary row, with its pair if it has one.
--
-- The rule is one-to-one: a primary row absorbs at most one secondary row and a secondary row is dropped
-- for at most one primary row. Rules run in this fixed order, each on the primary rows earlier rules left
-- (a secondary row belongs to one rule), and pair rows within a group, the rows of one key:
--   1. hook_tool_call (host, turn type, call id): a hooks.jsonl tool_use/tool_result row and a transcript
--      row, at most 1 hour apart;
--   2. hook_text (host, session, turn type, text): a hooks.jsonl prompt (user) or reply (assistant) and a
--      transcript row, at most 1 hour apart;
--   3. input_history (host, home, text): a user_input_history.jsonl prompt and a transcript user row of
--      any session of the home: at most 2 seconds apart when the line is dated, on text alone when not;
--   4. search_index (host, session, text): a session-search.db message document and a transcript row,
--      by record position (a document's ordinal + 1 is its message's line).
-- hook_text keys on the session too: a hook line's session_id is sessionContext.rootSessionId, the
-- transcript's session directory name (store specification; every fixture agrees), so the hook copy of a
-- session whose transcript is gone is never dropped for another session's prompt of the same text.
--
-- Two passes per rule (rule_round in duplicates), each a few sorts and windows over the group rows, so
-- the cost follows the rows, never the pairs a group could form (the rule this replaces held every
-- candidate pair with both texts: 10 x 100 `continue` prompts and 1,000 history lines ran out of memory):
--   1. nearest: both sides merged by the rule's coordinate (time; record position for the search index),
--      copies at one coordinate interleaved primary first, in file order. Each row chooses the nearest
--      row of the other side within the window (at equal distance, the pair whose primary comes first);
--      rows that choose each other pair. They are always neighbours in the merged order: one lead().
--   2. in order, on the rows left: each dated secondary row with a primary left in its window, in order,
--      takes the first primary left that is not before its window and not taken by an earlier one,
--      rank j(i) = i + max over i' <= i of (first(i') - i'); a pair outside the window is not made.
--      Undated history lines pair newest first with the newest prompts left: the file holds the newest
--      prompts, oldest first, so its lines are the last uses of their texts.
-- Pass 1 pairs every copy whose twin is its nearest; pass 2 completes chains of copies closer to each
-- other than to their twins (mutual first choice needed one round per link, and stopped after ten). Pass
-- 2 can leave a pair unmade where a secondary row's candidates were all taken; that row stays in events.
--
-- Texts are compared by their SHA-256 (text_key), so no table here holds a text. Ties are broken by
-- (file, line, seq, kind, session), never by row_id.
create or replace table int_duplicate_pairs (
    rule VARCHAR,
    rule_round INTEGER,
    distance_ms BIGINT,
    secondary_row_id BIGINT,
    primary_row_id BIGINT
);

-- The candidate rows of one rule that no earlier rule or pass paired, in groups with rows of both sides:
-- grp_key is the rule's key, grp its 64-bit hash, on which the passes partition (a window sorts on a
-- number several times faster than on strings). Every pass pairs two rows only when their grp_key is
-- equal, so a hash collision can merge two groups' candidates but never pair rows of different keys.
create or replace macro int_duplicate_open(rule_name) as table
with keyed as (
    select
        c.*,
        case rule_name
            when 'hook_tool_call' then case when c.turn_type in ('tool_use', 'tool_result') and c.tool_use_id is not null then [c.host, c.turn_type, c.tool_use_id] end
            when 'hook_text' then case when c.turn_type in ('user', 'assistant') and c.session_id is not null and c.text_key is not null then [c.host, c.session_id, c.turn_type, c.text_key] end
            when 'input_history' then case when c.turn_type = 'user' and c.home is not null and c.text_key is not null then [c.host, c.home, c.text_key] end
            when 'search_index' then case when c.session_id is not null and c.text_key is not null then [c.host, c.session_id, c.text_key] end
        end as grp_key,
        case when rule_name = 'search_index' then c.source_line else c.ms end as coord,
        case when c.side = 'primary' then 0 else 1 end as side_order
    from int_duplicate_candidates as c
    anti join (select secondary_row_id as row_id from int_duplicate_pairs union all select primary_row_id from int_duplicate_pairs) as used
        on used.row_id = c.row_id
    where c.side = 'primary' or c.rule = rule_name
)

select *, hash(grp_key) as grp
from keyed
where grp_key is not null
-- (sums of a CASE, not count(*) filter: after a join, DuckDB's filtered window count is quadratic)
qualify sum(case when side = 'secondary' then 1 else 0 end) over (partition by hash(grp_key)) > 0
    and sum(case when side = 'primary' then 1 else 0 end) over (partition by hash(grp_key)) > 0;

-- Pass 1: pairs of rows that are each other's nearest row of the other side, within window_ms (null: no
-- window), among the rows with a coordinate.
create or replace macro int_duplicate_nearest(rule_name, window_ms) as table
with merged as (
    select
        *,
        row_number() over (partition by grp, coord, side order by source_file, source_line, source_seq, kind, session_id) as rank_at_coord
    from int_duplicate_open(rule_name)
    where coord is not null
),

neighbours as (
    select
        *,
        max(case when side = 'primary' then coord end) over before_me as primary_before,
        min(case when side = 'primary' then coord end) over after_me as primary_after,
        max(case when side = 'secondary' then coord end) over before_me as secondary_before,
        min(case when side = 'secondary' then coord end) over after_me as secondary_after
    from merged
    window
        before_me as (partition by grp order by coord, rank_at_coord, side_order rows between unbounded preceding and 1 preceding),
        after_me as (partition by grp order by coord, rank_at_coord, side_order rows between 1 following and unbounded following)
),

distances as (
    select
        *,
        coord - case when side = 'primary' then secondary_before else primary_before end as distance_before,
        case when side = 'primary' then secondary_after else primary_after end - coord as distance_after
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
            when side = 'secondary' then 'before'
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
        lead(side) over merged_order as next_side,
        lead(choice) over merged_order as next_choice,
        lead(ms) over merged_order as next_ms,
        lead(grp_key) over merged_order as next_grp_key
    from windowed
    window merged_order as (partition by grp order by coord, rank_at_coord, side_order)
)

select
    rule_name as rule,
    1 as rule_round,
    case when rule_name = 'search_index' then 0 else coalesce(abs(next_ms - ms), 0) end as distance_ms,
    case when side = 'secondary' then row_id else next_row_id end as secondary_row_id,
    case when side = 'primary' then row_id else next_row_id end as primary_row_id
from linked
where choice = 'after' and next_choice = 'before' and next_side <> side and next_grp_key = grp_key;

-- Pass 2 for dated secondary rows: in order, each takes the first primary row left that is not before
-- its window and not taken by an earlier one; a pair outside the window is not made.
create or replace macro int_duplicate_in_order(rule_name, window_ms) as table
with open_rows as (
    select * from int_duplicate_open(rule_name) where coord is not null
),

primaries as (
    select
        row_id, grp, grp_key, coord, ms,
        row_number() over (partition by grp order by coord, source_file, source_line, source_seq, kind, session_id) as primary_rank,
        rank() over (partition by grp order by coord) as first_rank_at_coord
    from open_rows
    where side = 'primary'
),

-- each secondary's first primary at or after the start of its window (the group's first without a window)
reach as (
    select s.row_id, s.grp, s.grp_key, s.coord, s.ms, s.source_file, s.source_line, s.source_seq, s.kind, s.session_id, p.first_rank_at_coord as first_rank, p.coord as first_coord
    from (select *, coalesce(coord - window_ms, -4611686018427387904) as window_start from open_rows where side = 'secondary') as s
    asof join (select distinct grp, coord, first_rank_at_coord from primaries) as p
        on p.grp = s.grp and s.window_start <= p.coord
),

ranked as (
    select *, row_number() over (partition by grp order by coord, source_file, source_line, source_seq, kind, session_id) as secondary_rank
    from reach
    where window_ms is null or first_coord <= coord + window_ms
),

assigned as (
    select
        *,
        secondary_rank + max(first_rank - secondary_rank) over (partition by grp order by secondary_rank rows between unbounded preceding and current row) as primary_rank
    from ranked
)

select
    rule_name as rule,
    2 as rule_round,
    case when rule_name = 'search_index' then 0 else coalesce(abs(p.ms - a.ms), 0) end as distance_ms,
    a.row_id as secondary_row_id,
    p.row_id as primary_row_id
from assigned as a
join primaries as p on p.grp = a.grp and p.primary_rank = a.primary_rank
where p.grp_key = a.grp_key and (window_ms is null or p.coord <= a.coord + window_ms);

-- Pass 2 for undated secondary rows (history lines): newest first, with the newest primary rows left.
create or replace macro int_duplicate_undated(rule_name) as table
with open_rows as (
    select * from int_duplicate_open(rule_name)
),

secondaries as (
    select row_id, grp, grp_key, row_number() over (partition by grp order by source_file desc, source_line desc, source_seq desc, kind desc, session_id desc) as newest_first
    from open_rows
    where side = 'secondary' and coord is null
),

primaries as (
    select row_id, grp, grp_key, row_number() over (partition by grp order by coord desc nulls last, source_file desc, source_line desc, source_seq desc, kind desc, session_id desc) as newest_first
    from open_rows
    where side = 'primary'
)

select rule_name as rule, 2 as rule_round, 0::BIGINT as distance_ms, s.row_id as secondary_row_id, p.row_id as primary_row_id
from secondaries as s
join primaries as p on p.grp = s.grp and p.newest_first = s.newest_first
where p.grp_key = s.grp_key;

insert into int_duplicate_pairs by name select * from int_duplicate_nearest('hook_tool_call', 3600 * 1000);
insert into int_duplicate_pairs by name select * from int_duplicate_in_order('hook_tool_call', 3600 * 1000);

insert into int_duplicate_pairs by name select * from int_duplicate_nearest('hook_text', 3600 * 1000);
insert into int_duplicate_pairs by name select * from int_duplicate_in_order('hook_text', 3600 * 1000);

insert into int_duplicate_pairs by name select * from int_duplicate_nearest('input_history', 2000);
insert into int_duplicate_pairs by name select * from int_duplicate_in_order('input_history', 2000);
insert into int_duplicate_pairs by name select * from int_duplicate_undated('input_history');

insert into int_duplicate_pairs by name select * from int_duplicate_nearest('search_index', null::BIGINT);
insert into int_duplicate_pairs by name select * from int_duplicate_in_order('search_index', null::BIGINT);

-- int_secondary_paired: every secondary row, with the pair that dropped it (null columns for a row the
-- rule kept). The one place a secondary row is matched to its pair by identity: sql/21 keeps the rows
-- without a pair, sql/31 lists the others with their texts.
create or replace view int_secondary_paired as
with dropped as (
    select d.rule, d.rule_round, d.distance_ms, d.primary_row_id, c.host, c.store, c.source_file, c.source_line, c.source_seq, c.session_id, c.kind
    from int_duplicate_pairs as d
    join int_duplicate_candidates as c on c.row_id = d.secondary_row_id
)

select
    s.*,
    d.rule as duplicate_rule,
    d.rule_round as duplicate_rule_round,
    d.distance_ms as duplicate_distance_ms,
    d.primary_row_id as duplicate_of_row_id
from int_secondary_events as s
left join dropped as d
    on d.host = s.host and d.store = s.store
    and d.source_file = s.source_file
    and d.source_line is not distinct from s.source_line
    and d.source_seq = s.source_seq
    and d.session_id is not distinct from s.session_id
    and d.kind = s.kind;
