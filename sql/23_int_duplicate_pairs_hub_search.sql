-- Rule hub_search (issue 27): a 3.x session whose transcript is gone (deleted by hand, not collected) keeps its
-- messages in two secondary stores, the hub event log (hub-events) and the search index (session-search.db). Both
-- rows stay, as no transcript row absorbs either (sql/22), so each prompt was two user rows. Here a
-- search-index message document the search_index rule left is dropped for the hub-events row of the same host,
-- session and turn type with the same call id (tool documents) or text (any other; an assistant document's part
-- before its first tool call, as sql/20), one-to-one: the k-th document of a key pairs with the k-th hub row of that
-- key that no hub rule dropped, documents in record order, hub rows in time order. The hub row is kept: it carries
-- the time the index lacks. A document with no such hub row stays. Inputs: int_secondary_events,
-- int_duplicate_pairs (the rows earlier rules dropped). Adds both sides to int_duplicate_candidates (the kept hub row
-- as the rule's primary, for sql/31) and the pairs to int_duplicate_pairs. Runs once, after every other rule.
create temp table hub_search_rows as
with dropped as (
    select secondary_row_id as row_id from int_duplicate_pairs
),

rows as (
    select
        s.row_id, s.host, s.store, s.home, s.source_file, s.source_line, s.source_seq, s.session_id, s.kind, s.turn_type,
        s.timestamp_utc,
        case when s.store = 'search-index' then 'secondary' else 'primary' end as source_role,
        case
            when s.turn_type in ('tool_use', 'tool_result') and s.tool_use_id is not null
                then [s.host, s.session_id, s.turn_type, s.tool_use_id]
            when s.store = 'search-index' and s.turn_type = 'assistant'
                then [s.host, s.session_id, s.turn_type, sha256(split_part(s.text, chr(10) || 'tool_use' || chr(10), 1))]
            when s.text is not null then [s.host, s.session_id, s.turn_type, sha256(s.text)]
        end as group_key
    from int_secondary_events as s
    anti join dropped as d on d.row_id = s.row_id
    where s.session_id is not null
      and s.turn_type in ('user', 'assistant', 'tool_use', 'tool_result')
      and ((s.store = 'search-index' and s.kind = 'search_document') or (s.store = 'hub-events' and s.kind <> 'parser'))
)

select
    *,
    -- the k-th row of its side within its key
    row_number() over (
        partition by group_key, source_role
        order by case when source_role = 'secondary' then source_line end, timestamp_utc, source_file, source_line, source_seq, row_id
    ) as rank_in_key
from rows
where group_key is not null
-- keys with rows of both sides only (sums of a CASE, as in sql/20)
qualify sum(case when source_role = 'secondary' then 1 else 0 end) over (partition by group_key) > 0
    and sum(case when source_role = 'primary' then 1 else 0 end) over (partition by group_key) > 0;

insert into int_duplicate_pairs by name
select
    'hub_search' as rule,
    1 as round_number,
    'in_order' as pass,
    null::BIGINT as distance_ms,
    s.row_id as secondary_row_id,
    p.row_id as primary_row_id
from hub_search_rows as s
join hub_search_rows as p on p.group_key = s.group_key and p.rank_in_key = s.rank_in_key and p.source_role = 'primary'
where s.source_role = 'secondary';

insert into int_duplicate_candidates by name
select
    'hub_search' as rule,
    c.source_role,
    c.row_id,
    c.group_key,
    hash(c.group_key) as group_hash,
    epoch_ms(c.timestamp_utc) as coordinate,
    epoch_ms(c.timestamp_utc) as timestamp_ms,
    c.host, c.store, c.home, c.source_file, c.source_line, c.source_seq, c.session_id, c.kind, c.turn_type
from hub_search_rows as c
semi join (select secondary_row_id as row_id from int_duplicate_pairs where rule = 'hub_search'
           union all select primary_row_id from int_duplicate_pairs where rule = 'hub_search') as u on u.row_id = c.row_id;

drop table hub_search_rows;
