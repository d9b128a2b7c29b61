-- int_duplicate_candidates: the rows each rule of the duplicate rule may pair, with the rule's key and
-- coordinate, and no text. Inputs: int_duplicate_primary_rows (sql/13: the transcript rows of
-- int_primary_events, without texts), int_secondary_events; the stores with transcripts come from the store
-- specification (placeholder transcript_stores, src/warehouse/stores-table.ts). Grain: one row per (rule,
-- row_id): every secondary row of the rule whose key some transcript row shares, and every transcript row
-- sharing the key of one of them (a transcript row can be a candidate of several rules; the first rule
-- that pairs it takes it, sql/21).
--
-- The rules, in the order sql/22 to sql/25 run them (store specification, "Past-use rows and secondary
-- sources"); a secondary row belongs to one rule:
--   hook_tool_call  hooks.jsonl tool_use/tool_result rows        key (host, agent, turn type, call id)          coordinate time
--   hook_text       hooks.jsonl prompt (user) and reply (assistant) key (host, agent, session, turn type, text)   coordinate time
--   input_history   user_input_history.jsonl lines (user)          key (host, agent, home, text)                  coordinate time, null when undated
--   search_index    session-search.db message documents             key (host, agent, session, turn type, call id) coordinate record position
--                   (a tool_use or tool_result document; any other: (host, agent, session, turn type, text), the text of
--                   an assistant document being the part before its first tool call, as its message's text row holds)
-- hook_text keys on the session too: a hook line's session_id is sessionContext.rootSessionId, the
-- transcript's session directory name (store specification; every fixture agrees), so the hook copy of a
-- session whose transcript is gone is never dropped for another session's prompt of the same text.
--
-- Texts are compared by their SHA-256 (text_sha256), so no table of the rule holds a text. The SHA-256 of a
-- transcript text is taken (sql/13) only when its 64-bit hash(text) equals a secondary row's (a hash semi-join,
-- so the build never holds every transcript text), and a crafted 64-bit collision cannot drop evidence.
create or replace table int_duplicate_candidates as
with secondary_rows as (
    select
        row_id, host, store, home, agent, source_file, source_line, source_seq, session_id, kind, turn_type, tool_use_id, timestamp_utc, text,
        case
            when store = 'hooks-log' and turn_type in ('tool_use', 'tool_result') then 'hook_tool_call'
            when store = 'hooks-log' and turn_type in ('user', 'assistant') then 'hook_text'
            when store = 'input-history' then 'input_history'
            when store = 'search-index' and kind = 'search_document' then 'search_index'
        end as rule
    from int_secondary_events
    where kind <> 'parser'
),

secondary_texts as (
    select
        * exclude (text),
        case
            when rule = 'hook_tool_call' then null
            when rule = 'search_index' and turn_type in ('tool_use', 'tool_result') and tool_use_id is not null then null
            when rule = 'search_index' and turn_type = 'assistant' then split_part(text, chr(10) || 'tool_use' || chr(10), 1)
            else text
        end as match_text
    from secondary_rows
    where rule is not null
),

secondary as materialized (
    select
        * exclude (match_text),
        case when match_text is not null then hash(match_text) end as text_hash,
        sha256(match_text) as text_sha256
    from secondary_texts
),

-- Transcript rows that can repeat a secondary row, found by hash semi-joins on the few keys the secondary
-- rows have (call ids; text hashes).
transcript_rows as (
    select row_id, host, store, home, agent, source_file, source_line, source_seq, session_id, kind, turn_type, tool_use_id, timestamp_utc, text_hash, text_sha256
    from int_duplicate_primary_rows
    where store in {{transcript_stores}}
      and turn_type in ('user', 'assistant', 'tool_use', 'tool_result')
),

transcript_by_call as (
    select t.* exclude (text_hash, text_sha256), null::VARCHAR as text_sha256
    from transcript_rows as t
    semi join (select distinct host, tool_use_id from secondary where rule in ('hook_tool_call', 'search_index') and tool_use_id is not null) as k
        on k.host = t.host and k.tool_use_id = t.tool_use_id
),

transcript_by_text as (
    select t.* exclude (text_hash)
    from transcript_rows as t
    semi join (select distinct host, text_hash from secondary where text_hash is not null) as k
        on k.host = t.host and k.text_hash = t.text_hash
),

transcript as (
    select * exclude (text_sha256), max(text_sha256) as text_sha256
    from (select * from transcript_by_call union all by name select * from transcript_by_text)
    group by all
),

rules as (
    select * from (values ('hook_tool_call'), ('hook_text'), ('input_history'), ('search_index')) as r(rule)
),

both_sides as (
    select *, 'secondary' as source_role from secondary
    union all by name
    select t.*, r.rule, 'primary' as source_role from transcript as t cross join rules as r
),

keyed as (
    select
        *,
        -- every key holds the agent: a Cline input history line is never the copy of a Roo Code prompt of the same text
        case rule
            when 'hook_tool_call' then case when turn_type in ('tool_use', 'tool_result') and tool_use_id is not null then [host, agent_key, turn_type, tool_use_id] end
            when 'hook_text' then case when turn_type in ('user', 'assistant') and session_id is not null and text_sha256 is not null then [host, agent_key, session_id, turn_type, text_sha256] end
            when 'input_history' then case when turn_type = 'user' and home is not null and text_sha256 is not null then [host, agent_key, home, text_sha256] end
            when 'search_index' then case
                when session_id is null then null
                when turn_type in ('tool_use', 'tool_result') and tool_use_id is not null then [host, agent_key, session_id, turn_type, tool_use_id]
                when text_sha256 is not null then [host, agent_key, session_id, turn_type, text_sha256]
            end
        end as group_key,
        epoch_ms(timestamp_utc) as timestamp_ms
    from (select *, coalesce(agent, '-') as agent_key from both_sides)
),

final as (
    select
        rule,
        source_role,
        row_id,
        group_key,
        -- the passes partition on this number: a window sorts on it several times faster than on a list of strings
        hash(group_key) as group_hash,
        case when rule = 'search_index' then source_line else timestamp_ms end as coordinate,
        timestamp_ms,
        host, store, home, source_file, source_line, source_seq, session_id, kind, turn_type
    from keyed
    where group_key is not null
    -- groups with rows of both sides only (sums of a CASE, not count(*) filter: after a join, DuckDB's
    -- filtered window count is quadratic)
    qualify sum(case when source_role = 'secondary' then 1 else 0 end) over (partition by rule, hash(group_key)) > 0
        and sum(case when source_role = 'primary' then 1 else 0 end) over (partition by rule, hash(group_key)) > 0
)

select * from final;
