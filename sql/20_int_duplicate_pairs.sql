-- int_duplicate_pairs: which secondary rows (hooks-log, input-history, search-index) a primary
-- transcript row on the same host already records. Inputs: int_primary_events, int_secondary_events.
-- Grain: one row per dropped secondary row, with the primary row that absorbed it.
--
-- The rule is one-to-one: a primary row absorbs at most one secondary row and a secondary row is
-- dropped for at most one primary row. Rules run in this fixed order, each on what earlier rules left:
--   1. hook_tool_call: a hooks.jsonl tool_use/tool_result row and a transcript row of the same turn type
--      with the same call id (tool_use_id), at most 1 hour apart;
--   2. hook_text: a hooks.jsonl prompt (user) or reply (assistant) and a transcript row of the same turn
--      type with the same text, at most 1 hour apart;
--   3. input_history: a user_input_history.jsonl prompt and a transcript user row of any session in the
--      same home with the same text: at most 2 seconds apart when the history line is dated, on text
--      alone when it is undated;
--   4. search_index: a session-search.db message document and a transcript row of the same session with
--      the same text.
-- Within a rule, pairs are chosen by mutual first choice (each side's nearest candidate in time, then in
-- record position, then by file and position), repeated for up to ten rounds. Texts are compared by 64-bit hash, then exactly.
create or replace table int_duplicate_candidates as
with secondary as (
    select
        host, store, home, source_file, source_line, source_seq, session_id, kind, turn_type, text, tool_use_id,
        epoch_ms(timestamp_utc) as ms,
        hash(text) as text_hash
    from int_secondary_events
    where kind <> 'parser'
),

-- Transcript rows that can repeat a secondary row, found by hash semi-joins on the few keys the secondary
-- rows have (call ids; text hashes), so the build never holds every transcript text.
transcript_rows as not materialized (
    select
        host, store, home, source_file, source_line, source_seq, session_id, kind, turn_type, text, tool_use_id,
        epoch_ms(timestamp_utc) as ms
    from int_primary_events
    where store in ('vscode-tasks', 'cline-tasks', 'sdk-sessions')
      and turn_type in ('user', 'assistant', 'tool_use', 'tool_result')
),

transcript_by_call as (
    select p.*
    from transcript_rows as p
    semi join (select distinct host, tool_use_id from secondary where tool_use_id is not null) as k
        on k.host = p.host and k.tool_use_id = p.tool_use_id
),

transcript_by_text as (
    select p.*, hash(p.text) as text_hash
    from transcript_rows as p
    semi join (select distinct host, text_hash from secondary) as k
        on k.host = p.host and k.text_hash = hash(p.text)
),

pairs as (
    select 'hook_tool_call' as rule, s, p, abs(s.ms - p.ms) as distance_ms
    from secondary as s
    join transcript_by_call as p
        on p.host = s.host and p.turn_type = s.turn_type and p.tool_use_id = s.tool_use_id
    where s.store = 'hooks-log' and s.turn_type in ('tool_use', 'tool_result')
      and abs(s.ms - p.ms) <= 3600 * 1000

    union all
    select 'hook_text' as rule, s, p, abs(s.ms - p.ms) as distance_ms
    from secondary as s
    join transcript_by_text as p
        on p.host = s.host and p.turn_type = s.turn_type and p.text_hash = s.text_hash and p.text = s.text
    where s.store = 'hooks-log' and s.turn_type in ('user', 'assistant')
      and abs(s.ms - p.ms) <= 3600 * 1000

    union all
    select 'input_history' as rule, s, p, coalesce(abs(s.ms - p.ms), 0) as distance_ms
    from secondary as s
    join transcript_by_text as p
        on p.host = s.host and p.home = s.home and p.turn_type = 'user'
        and p.text_hash = s.text_hash and p.text = s.text
    where s.store = 'input-history'
      and (s.ms is null or abs(s.ms - p.ms) <= 2000)

    union all
    select 'search_index' as rule, s, p, 0::BIGINT as distance_ms
    from secondary as s
    join transcript_by_text as p
        on p.host = s.host and p.session_id = s.session_id and p.text_hash = s.text_hash and p.text = s.text
    where s.store = 'search-index' and s.kind = 'search_document'
)

select
    rule,
    s,
    {
        'host': p.host, 'store': p.store, 'home': p.home, 'source_file': p.source_file, 'source_line': p.source_line,
        'source_seq': p.source_seq, 'session_id': p.session_id, 'kind': p.kind, 'turn_type': p.turn_type,
        'tool_use_id': p.tool_use_id, 'ms': p.ms
    } as p,
    distance_ms,
    -- tie-break: how many records apart the two rows sit (a search-index document's ordinal + 1 is its
    -- message's line), so repeated prompts pair with their own message, not all with the first one
    coalesce(abs(s.source_line - p.source_line), 0) as distance_records
from pairs;

create or replace table int_duplicate_pairs as
select rule, s as secondary, p as primary_row, distance_ms, 0 as round
from int_duplicate_candidates
limit 0;

-- One round of mutual first choice among the candidates of one rule that are still free.
create or replace macro int_match_round(rule_name, round_number) as table
with open_candidates as (
    select c.*
    from int_duplicate_candidates as c
    where c.rule = rule_name
      and not exists (
          select 1 from int_duplicate_pairs as d
          where d.secondary.host = c.s.host and d.secondary.store = c.s.store
            and d.secondary.source_file = c.s.source_file and d.secondary.source_line is not distinct from c.s.source_line
            and d.secondary.source_seq = c.s.source_seq and d.secondary.session_id is not distinct from c.s.session_id
            and d.secondary.kind = c.s.kind
      )
      and not exists (
          select 1 from int_duplicate_pairs as d
          where d.primary_row.host = c.p.host and d.primary_row.store = c.p.store
            and d.primary_row.source_file = c.p.source_file and d.primary_row.source_line is not distinct from c.p.source_line
            and d.primary_row.source_seq = c.p.source_seq and d.primary_row.kind = c.p.kind
      )
),

ranked as (
    select
        *,
        row_number() over (
            partition by s.host, s.store, s.source_file, s.source_line, s.source_seq, s.session_id, s.kind
            order by distance_ms, distance_records, p.source_file, p.source_line, p.source_seq
        ) as secondary_choice,
        row_number() over (
            partition by p.host, p.store, p.source_file, p.source_line, p.source_seq, p.kind
            order by distance_ms, distance_records, s.source_file, s.source_line, s.source_seq
        ) as primary_choice
    from open_candidates
)

select rule, s as secondary, p as primary_row, distance_ms, round_number as round
from ranked
where secondary_choice = 1 and primary_choice = 1;

-- Ten rounds per rule: a round pairs at least the closest free pair, and real data settles in one or two.
insert into int_duplicate_pairs select * from int_match_round('hook_tool_call', 1);
insert into int_duplicate_pairs select * from int_match_round('hook_tool_call', 2);
insert into int_duplicate_pairs select * from int_match_round('hook_tool_call', 3);
insert into int_duplicate_pairs select * from int_match_round('hook_tool_call', 4);
insert into int_duplicate_pairs select * from int_match_round('hook_tool_call', 5);
insert into int_duplicate_pairs select * from int_match_round('hook_tool_call', 6);
insert into int_duplicate_pairs select * from int_match_round('hook_tool_call', 7);
insert into int_duplicate_pairs select * from int_match_round('hook_tool_call', 8);
insert into int_duplicate_pairs select * from int_match_round('hook_tool_call', 9);
insert into int_duplicate_pairs select * from int_match_round('hook_tool_call', 10);

insert into int_duplicate_pairs select * from int_match_round('hook_text', 1);
insert into int_duplicate_pairs select * from int_match_round('hook_text', 2);
insert into int_duplicate_pairs select * from int_match_round('hook_text', 3);
insert into int_duplicate_pairs select * from int_match_round('hook_text', 4);
insert into int_duplicate_pairs select * from int_match_round('hook_text', 5);
insert into int_duplicate_pairs select * from int_match_round('hook_text', 6);
insert into int_duplicate_pairs select * from int_match_round('hook_text', 7);
insert into int_duplicate_pairs select * from int_match_round('hook_text', 8);
insert into int_duplicate_pairs select * from int_match_round('hook_text', 9);
insert into int_duplicate_pairs select * from int_match_round('hook_text', 10);

insert into int_duplicate_pairs select * from int_match_round('input_history', 1);
insert into int_duplicate_pairs select * from int_match_round('input_history', 2);
insert into int_duplicate_pairs select * from int_match_round('input_history', 3);
insert into int_duplicate_pairs select * from int_match_round('input_history', 4);
insert into int_duplicate_pairs select * from int_match_round('input_history', 5);
insert into int_duplicate_pairs select * from int_match_round('input_history', 6);
insert into int_duplicate_pairs select * from int_match_round('input_history', 7);
insert into int_duplicate_pairs select * from int_match_round('input_history', 8);
insert into int_duplicate_pairs select * from int_match_round('input_history', 9);
insert into int_duplicate_pairs select * from int_match_round('input_history', 10);

insert into int_duplicate_pairs select * from int_match_round('search_index', 1);
insert into int_duplicate_pairs select * from int_match_round('search_index', 2);
insert into int_duplicate_pairs select * from int_match_round('search_index', 3);
insert into int_duplicate_pairs select * from int_match_round('search_index', 4);
insert into int_duplicate_pairs select * from int_match_round('search_index', 5);
insert into int_duplicate_pairs select * from int_match_round('search_index', 6);
insert into int_duplicate_pairs select * from int_match_round('search_index', 7);
insert into int_duplicate_pairs select * from int_match_round('search_index', 8);
insert into int_duplicate_pairs select * from int_match_round('search_index', 9);
insert into int_duplicate_pairs select * from int_match_round('search_index', 10);
