-- int_duplicate_candidates: the rows each rule of the duplicate rule may pair, with the rule's key and
-- coordinate, and no text. Inputs: int_primary_events, int_secondary_events; which stores and files are
-- transcripts comes from the store specification (placeholders transcript_stores and is_transcript_file,
-- src/warehouse/stores-table.ts). Grain: one row per (rule, row_id): every secondary row of a rule whose key
-- some transcript (or manifest, sessions.db) row shares, and every such primary row sharing the key of one of
-- them (a primary row can be a candidate of several rules: the rule is one-to-one per rule, sql/22). The rules
-- and their order are the rows of int_duplicate_rules (sql/21); hub_search adds its rows after it ran (sql/23).
--
-- The rules of the hooks log, the prompt history and the search index (store specification, "Past-use rows
-- and secondary sources"); a secondary row belongs to one rule:
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
-- The hub event log (store hub-events, readers/hub-events/) repeats what the transcripts (its run results
-- hold every message of the session), the manifests (its session records) and the messages' usage record hold:
--   hub_message  a hub row of a message (a run result's message block, or a streamed event no run result
--                holds) and a transcript row       key (host, session, turn type, text SHA-256)  coordinate time
--   hub_usage    a hub `usage` row (a request no run result holds) and a transcript row with token counts
--                                                  key (host, session, tokens_in, tokens_out)    coordinate time
--   hub_session  a hub session_start, model, sync or session_end row and the manifest's (else sessions.db's)
--                row of that kind                  key (host, session, kind)                     coordinate time
-- The other hub rows (run_end, session_resume, hook and capability calls, approvals, other events) record what
-- no transcript or manifest holds: no rule drops them. A session whose transcript and manifest are gone
-- keeps every hub row, and its message and usage rows keep their token counts: they are its only record.
--
-- Texts are compared by their SHA-256 (text_sha256), so no table of the rule holds a text. int_primary_events
-- is read once, in duplicate_primary_rows (materialized: both parts read it; evaluated in each, the view
-- decompressed the Parquet texts five times): only its transcript and sessions.db rows that share a key with
-- a secondary row of their host (a call id, the 64-bit hash(text), or a hub session), without texts. The
-- SHA-256 of a transcript text is taken only when its hash(text) equals a secondary row's hash of its text, or
-- of the part an assistant search document is compared by (a hash semi-join), so the build never holds every
-- transcript text (a table of every transcript row took 420 MB of the build's memory on the full bench
-- fleet), and a crafted 64-bit collision cannot drop evidence.
create or replace table int_duplicate_candidates as
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
),

-- the transcript and sessions.db rows both parts below read, each with a key some secondary row of its host shares
duplicate_primary_rows as materialized (
    select p.* exclude (text), case when k.host is not null then sha256(p.text) end as text_sha256
    from primary_rows as p
    -- left joins on sides of one row per key (EXISTS under OR held the texts: 1.2 GB on the full bench fleet)
    left join secondary_text_hashes as k on k.host = p.host and k.text_hash = p.text_hash
    left join secondary_call_ids as c on c.host = p.host and c.tool_use_id = p.tool_use_id
    left join hub_sessions as h on h.host = p.host and h.session_id = p.session_id
    where k.host is not null or c.host is not null or h.host is not null
),

-- The rules run by passes over the hooks log, the prompt history and the search index
secondary_rows as (
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
    from duplicate_primary_rows
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

-- The hub event log's rules
hub_rows as (
    select
        row_id, host, store, home, agent, source_file, source_line, source_seq, session_id, kind, turn_type, timestamp_utc,
        tokens_in, tokens_out, text,
        case
            when kind in ('session_start', 'model', 'sync', 'session_end') then 'hub_session'
            when kind = 'usage' then 'hub_usage'
            when turn_type <> 'system' or kind = 'text' or kind like 'block:%' then 'hub_message'
        end as rule
    from int_secondary_events
    where store = 'hub-events' and kind <> 'parser' and session_id is not null
),

hub_secondary as materialized (
    select
        * exclude (text),
        case when rule = 'hub_message' and text is not null then hash(text) end as text_hash,
        case when rule = 'hub_message' then sha256(text) end as text_sha256
    from hub_rows
    where rule is not null
),

hub_transcript_rows as (
    select
        row_id, host, store, home, agent, source_file, source_line, source_seq, session_id, kind, turn_type, timestamp_utc,
        tokens_in, tokens_out, text_hash, text_sha256
    from duplicate_primary_rows
    where store in {{transcript_stores}}
      and is_transcript_file
      and kind <> 'parser'
),

message_twins as (
    select t.* exclude (text_hash), 'hub_message' as rule
    from hub_transcript_rows as t
    semi join (select distinct host, session_id, text_hash from hub_secondary where text_hash is not null) as k
        on k.host = t.host and k.session_id = t.session_id and k.text_hash = t.text_hash
),

usage_twins as (
    select t.* exclude (text_hash, text_sha256), null::VARCHAR as text_sha256, 'hub_usage' as rule
    from hub_transcript_rows as t
    semi join (select distinct host, session_id from hub_secondary where rule = 'hub_usage') as k
        on k.host = t.host and k.session_id = t.session_id
    where t.tokens_in is not null or t.tokens_out is not null
),

session_twins as (
    select
        p.row_id, p.host, p.store, p.home, p.agent, p.source_file, p.source_line, p.source_seq, p.session_id, p.kind, p.turn_type,
        p.timestamp_utc, p.tokens_in, p.tokens_out, null::VARCHAR as text_sha256, 'hub_session' as rule
    from duplicate_primary_rows as p
    semi join (select distinct host, session_id, kind from hub_secondary where rule = 'hub_session') as k
        on k.host = p.host and k.session_id = p.session_id and k.kind = p.kind
    where p.store in ('sdk-sessions', 'sessions-db')
),

hub_both_sides as (
    select * exclude (text_hash), 'secondary' as source_role from hub_secondary
    union all by name
    select *, 'primary' as source_role from message_twins
    union all by name
    select *, 'primary' as source_role from usage_twins
    union all by name
    select *, 'primary' as source_role from session_twins
),

hub_keyed as (
    select
        *,
        case rule
            -- the agent in every key: rows of different agents are never paired
            when 'hub_message' then case when text_sha256 is not null then [host, coalesce(agent, '-'), session_id, turn_type, text_sha256] end
            when 'hub_usage' then
                case when tokens_in is not null or tokens_out is not null
                    then [host, coalesce(agent, '-'), session_id, coalesce(tokens_in::VARCHAR, '-'), coalesce(tokens_out::VARCHAR, '-')] end
            when 'hub_session' then [host, coalesce(agent, '-'), session_id, kind]
        end as group_key,
        epoch_ms(timestamp_utc) as timestamp_ms
    from hub_both_sides
),

both_parts as (
    select * from keyed
    union all by name
    select * from hub_keyed
)

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
from both_parts
where group_key is not null
-- groups with rows of both sides only (sums of a CASE, not count(*) filter: after a join, DuckDB's
-- filtered window count is quadratic)
qualify sum(case when source_role = 'secondary' then 1 else 0 end) over (partition by rule, hash(group_key)) > 0
    and sum(case when source_role = 'primary' then 1 else 0 end) over (partition by rule, hash(group_key)) > 0;

comment on table int_duplicate_candidates is 'The rows each rule of the duplicate rule may pair, with the rule''s key and coordinate, and no text. Grain: one row per (rule, row_id).';
comment on column int_duplicate_candidates.rule is 'The rule (int_duplicate_rules.rule, or hub_search).';
comment on column int_duplicate_candidates.source_role is 'secondary (a row the rule may drop) or primary (a row that may record it; for hub_search, the hub-events row).';
comment on column int_duplicate_candidates.row_id is 'row_id of the row.';
comment on column int_duplicate_candidates.group_key is 'The rule''s key of the row (host, agent, then session, home, turn type, call id, token counts, kind or text SHA-256 as the rule says): only rows of one key pair.';
comment on column int_duplicate_candidates.group_hash is 'hash(group_key), what the passes partition on (a window sorts on it faster than on a list of strings).';
comment on column int_duplicate_candidates.coordinate is 'What the passes measure distance on: epoch milliseconds, or the record position for search_index; null for an undated row.';
comment on column int_duplicate_candidates.timestamp_ms is 'The row''s time in epoch milliseconds (distance_ms of a pair), null when undated.';
comment on column int_duplicate_candidates.host is 'Host image name.';
comment on column int_duplicate_candidates.store is 'Store of the row.';
comment on column int_duplicate_candidates.home is 'Home of the row.';
comment on column int_duplicate_candidates.source_file is 'File of the row, relative to the image root.';
comment on column int_duplicate_candidates.source_line is 'Line (or record position) of the row in its file.';
comment on column int_duplicate_candidates.source_seq is 'Position of the row among those of its line.';
comment on column int_duplicate_candidates.session_id is 'Session of the row.';
comment on column int_duplicate_candidates.kind is 'Kind of the row.';
comment on column int_duplicate_candidates.turn_type is 'Turn type of the row.';
