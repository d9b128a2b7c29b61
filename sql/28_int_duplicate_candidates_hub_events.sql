-- int_duplicate_candidates of the hub event log (store hub-events, readers/hub-events.ts), added to the table
-- sql/20 creates: the rows its rules may pair, with the rule's key and coordinate, and no text. Inputs:
-- int_secondary_events, int_duplicate_primary_rows (sql/13: the transcript and sessions.db rows of
-- int_primary_events, without texts, which this file drops when done); which files are transcripts comes
-- from the store specification (placeholders transcript_stores and is_transcript_file,
-- src/warehouse/stores-table.ts). Grain: one row per (rule, row_id), as in sql/20.
--
-- The log repeats what the transcripts (its run results hold every message of the session), the manifests
-- (its session records) and the messages' usage record. Three rules, run by sql/29; the rule is one-to-one
-- per rule (sql/21), so a hub copy pairs with its twin even where a hooks.jsonl, prompt-history or
-- search-index copy took that twin already, and a usage row with the transcript row whose text a streamed
-- copy (hub_message) took.
--   hub_message  a hub row of a message (a run result's message block, or a streamed event no run result
--                holds) and a transcript row       key (host, session, turn type, text SHA-256)  coordinate time
--   hub_usage    a hub `usage` row (a request no run result holds) and a transcript row with token counts
--                                                  key (host, session, tokens_in, tokens_out)    coordinate time
--   hub_session  a hub session_start, model, sync or session_end row and the manifest's (else sessions.db's)
--                row of that kind                  key (host, session, kind)                     coordinate time
-- The other hub rows (run_end, session_resume, hook and capability calls, approvals, other events) record what
-- no transcript or manifest holds: no rule drops them. A session whose transcript and manifest are gone
-- keeps every hub row, and its message and usage rows keep their token counts: they are its only record.
-- Texts are compared by SHA-256, taken (sql/13) for the transcript rows whose 64-bit hash(text) equals a hub
-- row's of the same host and session (a hash semi-join, as in sql/20).
insert into int_duplicate_candidates by name
with hub_rows as (
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

secondary as materialized (
    select
        * exclude (text),
        case when rule = 'hub_message' and text is not null then hash(text) end as text_hash,
        case when rule = 'hub_message' then sha256(text) end as text_sha256
    from hub_rows
    where rule is not null
),

transcript_rows as (
    select
        row_id, host, store, home, agent, source_file, source_line, source_seq, session_id, kind, turn_type, timestamp_utc,
        tokens_in, tokens_out, text_hash, text_sha256
    from int_duplicate_primary_rows
    where store in {{transcript_stores}}
      and is_transcript_file
      and kind <> 'parser'
),

message_twins as (
    select t.* exclude (text_hash), 'hub_message' as rule
    from transcript_rows as t
    semi join (select distinct host, session_id, text_hash from secondary where text_hash is not null) as k
        on k.host = t.host and k.session_id = t.session_id and k.text_hash = t.text_hash
),

usage_twins as (
    select t.* exclude (text_hash, text_sha256), null::VARCHAR as text_sha256, 'hub_usage' as rule
    from transcript_rows as t
    semi join (select distinct host, session_id from secondary where rule = 'hub_usage') as k
        on k.host = t.host and k.session_id = t.session_id
    where t.tokens_in is not null or t.tokens_out is not null
),

session_twins as (
    select
        p.row_id, p.host, p.store, p.home, p.agent, p.source_file, p.source_line, p.source_seq, p.session_id, p.kind, p.turn_type,
        p.timestamp_utc, p.tokens_in, p.tokens_out, null::VARCHAR as text_sha256, 'hub_session' as rule
    from int_duplicate_primary_rows as p
    semi join (select distinct host, session_id, kind from secondary where rule = 'hub_session') as k
        on k.host = p.host and k.session_id = p.session_id and k.kind = p.kind
    where p.store in ('sdk-sessions', 'sessions-db')
),

both_sides as (
    select * exclude (text_hash), 'secondary' as source_role from secondary
    union all by name
    select *, 'primary' as source_role from message_twins
    union all by name
    select *, 'primary' as source_role from usage_twins
    union all by name
    select *, 'primary' as source_role from session_twins
),

keyed as (
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
    from both_sides
),

final as (
    select
        rule,
        source_role,
        row_id,
        group_key,
        hash(group_key) as group_hash,
        timestamp_ms as coordinate,
        timestamp_ms,
        host, store, home, source_file, source_line, source_seq, session_id, kind, turn_type
    from keyed
    where group_key is not null
    -- groups with rows of both sides only (sums of a CASE, as in sql/20)
    qualify sum(case when source_role = 'secondary' then 1 else 0 end) over (partition by rule, hash(group_key)) > 0
        and sum(case when source_role = 'primary' then 1 else 0 end) over (partition by rule, hash(group_key)) > 0
)

select * from final;

-- read by sql/20 and this file only: the warehouse does not keep it
drop table int_duplicate_primary_rows;
