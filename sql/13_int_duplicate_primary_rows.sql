-- int_duplicate_primary_rows: the primary rows the duplicate rule may pair (sql/20, sql/28), without their
-- texts. Inputs: int_primary_events, int_secondary_events; which stores and files are transcripts comes
-- from the store specification (placeholders transcript_stores and is_transcript_file,
-- src/warehouse/stores-table.ts). Grain: one row per int_primary_events row of a transcript store or of
-- sessions.db (sql/28's hub_session twins) that shares a key with a secondary row of its host: its call id,
-- the hash of its text, or (for the hub event log's rules) its session. Every rule of sql/20 and sql/28
-- pairs rows of one host on one of these keys, so this is a superset of the rows either file keeps. A
-- build-time table: sql/28 drops it when both rule files have read it, so the warehouse does not hold it.
--
-- int_primary_events is read here once: sql/20 and sql/28 used to read it five times, each time the
-- Parquet texts and its legacy-failure scan. Only rows with a key kept: the table of every transcript row
-- took 420 MB of the build's memory on the full bench fleet. text_hash is the 64-bit hash(text) both files
-- semi-join on; text_sha256, what their keys compare, is computed only for a row whose (host, text_hash)
-- equals a secondary row's hash of its text, or of the part an assistant search document is compared by
-- (sql/20). So the build never holds every transcript text, and a crafted 64-bit collision cannot drop
-- evidence.
create or replace table int_duplicate_primary_rows as
with secondary_text_hashes as (
    select host, hash(text) as text_hash
    from int_secondary_events
    where kind <> 'parser' and text is not null
    union
    select host, hash(split_part(text, chr(10) || 'tool_use' || chr(10), 1))
    from int_secondary_events
    where store = 'search-index' and kind = 'search_document' and turn_type = 'assistant' and text is not null
),

secondary_call_ids as (
    select distinct host, tool_use_id from int_secondary_events where kind <> 'parser' and tool_use_id is not null
),

hub_sessions as (
    select distinct host, session_id
    from int_secondary_events
    where store = 'hub-events' and kind <> 'parser' and session_id is not null
),

primary_rows as (
    select
        row_id, host, store, home, agent, source_file, source_line, source_seq, session_id, kind, turn_type, tool_use_id,
        timestamp_utc, tokens_in, tokens_out, {{is_transcript_file}} as is_transcript_file, hash(text) as text_hash, text
    from int_primary_events
    where store in {{transcript_stores}} or store = 'sessions-db'
)

select p.* exclude (text), case when k.host is not null then sha256(p.text) end as text_sha256
from primary_rows as p
-- left joins on sides of one row per key (EXISTS under OR held the texts: 1.2 GB on the full bench fleet)
left join secondary_text_hashes as k on k.host = p.host and k.text_hash = p.text_hash
left join secondary_call_ids as c on c.host = p.host and c.tool_use_id = p.tool_use_id
left join hub_sessions as h on h.host = p.host and h.session_id = p.session_id
where k.host is not null or c.host is not null or h.host is not null;
