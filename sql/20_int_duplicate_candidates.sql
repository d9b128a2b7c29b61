-- int_duplicate_candidates: the rows the duplicate rule (sql/20_int_duplicate_pairs.sql) works on, with
-- the keys its rules group them by and no text. Inputs: int_primary_events, int_secondary_events; the
-- stores with transcripts come from the store specification (placeholder transcript_stores,
-- src/warehouse/stores-table.ts). Grain: one row per secondary row a rule may drop (hooks-log tool,
-- prompt and reply rows; input-history lines; search-index message documents), and one per transcript
-- row sharing a call id or a text with one of them on the same host.
--   rule      the rule a secondary row belongs to (null for transcript rows, which any rule may take)
--   ms        the row's time (epoch ms), the coordinate of the hook and dated history rules
--   text_key  SHA-256 of the text: of the secondary rows of the text rules, and of the transcript rows
--             whose 64-bit hash(text) matches one of theirs (a hash semi-join, so the build never holds
--             every transcript text). Comparing by SHA-256 keeps texts out of the rule's tables, and a
--             crafted 64-bit collision cannot drop evidence.
--   row_id    names a row within one build only: numbering in a total order would sort every candidate
--             again, so the rule breaks ties by (file, line, seq, kind, session), never by row_id.
create or replace table int_duplicate_candidates as
with secondary_rows as (
    select
        host, store, home, source_file, source_line, source_seq, session_id, kind, turn_type, tool_use_id, timestamp_utc, text,
        case
            when store = 'hooks-log' and turn_type in ('tool_use', 'tool_result') then 'hook_tool_call'
            when store = 'hooks-log' and turn_type in ('user', 'assistant') then 'hook_text'
            when store = 'input-history' then 'input_history'
            when store = 'search-index' and kind = 'search_document' then 'search_index'
        end as rule
    from int_secondary_events
    where kind <> 'parser'
),

secondary as materialized (
    select
        host, store, home, source_file, source_line, source_seq, session_id, kind, turn_type, tool_use_id, rule,
        epoch_ms(timestamp_utc) as ms,
        case when rule <> 'hook_tool_call' and text is not null then hash(text) end as text_hash,
        case when rule <> 'hook_tool_call' then sha256(text) end as text_key
    from secondary_rows
    where rule is not null
),

-- Transcript rows that can repeat a secondary row, found by hash semi-joins on the few keys the secondary
-- rows have (call ids; text hashes), so the build never holds every transcript text.
transcript_rows as not materialized (
    select host, store, home, source_file, source_line, source_seq, session_id, kind, turn_type, text, tool_use_id, epoch_ms(timestamp_utc) as ms
    from int_primary_events
    where store in {{transcript_stores}}
      and turn_type in ('user', 'assistant', 'tool_use', 'tool_result')
),

transcript_by_call as (
    select p.* exclude (text), null::VARCHAR as text_key
    from transcript_rows as p
    semi join (select distinct host, tool_use_id from secondary where rule = 'hook_tool_call' and tool_use_id is not null) as k
        on k.host = p.host and k.tool_use_id = p.tool_use_id
),

transcript_by_text as (
    select p.* exclude (text), sha256(p.text) as text_key
    from transcript_rows as p
    semi join (select distinct host, text_hash from secondary where text_hash is not null) as k
        on k.host = p.host and k.text_hash = hash(p.text)
),

primary_rows as (
    select host, store, home, source_file, source_line, source_seq, session_id, kind, turn_type, tool_use_id, ms, max(text_key) as text_key
    from (select * from transcript_by_call union all by name select * from transcript_by_text)
    group by all
),

final as (
    select 'secondary' as side, rule, host, store, home, source_file, source_line, source_seq, session_id, kind, turn_type, tool_use_id, ms, text_key
    from secondary
    union all
    select 'primary' as side, null as rule, host, store, home, source_file, source_line, source_seq, session_id, kind, turn_type, tool_use_id, ms, text_key
    from primary_rows
)

select row_number() over () as row_id, *
from final;
