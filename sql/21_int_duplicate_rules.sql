-- int_duplicate_rules: the rules of the duplicate rule that pair secondary rows with primary ones by passes,
-- as data: each rule's order, its window and the passes a round of it runs. sql/22 runs them, rule after rule
-- in this order, each in rounds of its passes until a round pairs nothing; their candidates and keys are
-- sql/20's. A rule pairs at most the window apart (null: no window, the search index records no time). The
-- last rule, hub_search (sql/23), pairs secondary rows with each other once, without these passes.
-- Grain: one row per rule.
create or replace table int_duplicate_rules as
select * from (
    values
    (
        1, 'hook_tool_call', 3600 * 1000::BIGINT, ['nearest', 'in_order'],
        'a hooks.jsonl tool_use or tool_result row and the transcript row of the same host, turn type and call id, at most 1 hour apart (a call line is stamped when the call starts or ends, the transcript message when the turn is written)'
    ),
    (
        2, 'hook_text', 3600 * 1000::BIGINT, ['nearest', 'in_order'],
        'a hooks.jsonl prompt (user) or reply (assistant) and the transcript row of the same host, session, turn type and text, at most 1 hour apart'
    ),
    (
        3, 'input_history', 2000::BIGINT, ['nearest', 'in_order', 'undated'],
        'a user_input_history.jsonl prompt and a transcript user row of any session of the same host and home with the same text: at most 2 seconds apart when the line is dated (only the file''s last line is), on text alone when not, newest lines with the newest prompts'
    ),
    (
        4, 'search_index', null::BIGINT, ['nearest', 'in_order'],
        'a session-search.db message document and the transcript row of the same host, session and turn type with the same call id (tool documents) or text, by record position (a document''s ordinal + 1 is its message''s line; the index records no time, so there is no window)'
    ),
    (
        5, 'hub_message', 3600 * 1000::BIGINT, ['nearest', 'in_order'],
        'a hub-events row of a message and the transcript row of the same host, session, turn type and text, at most 1 hour apart (a run result''s message carries the transcript message''s own ts)'
    ),
    (
        6, 'hub_usage', 3600 * 1000::BIGINT, ['nearest', 'in_order'],
        'a hub-events usage row and the transcript row of the same host and session with the same token counts, at most 1 hour apart'
    ),
    (
        7, 'hub_session', 3600 * 1000::BIGINT, ['nearest', 'in_order'],
        'a hub-events session_start, model, sync or session_end row and the manifest''s (else sessions.db''s) row of that kind of the same host and session, at most 1 hour apart (a session record is stamped within a second of the manifest''s times)'
    )
) as r (rule_order, rule, window_ms, passes, description);

comment on table int_duplicate_rules is 'The rules of the duplicate rule that pair a secondary row with a primary row by passes, in the order they run (int_duplicate_pairs). Grain: one row per rule.';
comment on column int_duplicate_rules.rule_order is 'The order the rules run in: a rule pairs only the rows no earlier rule dropped.';
comment on column int_duplicate_rules.rule is 'Rule name, as in int_duplicate_candidates.rule, int_duplicate_pairs.rule and duplicates.rule.';
comment on column int_duplicate_rules.window_ms is 'The most milliseconds the two rows of a pair may be apart; null: no window (the search index records no time).';
comment on column int_duplicate_rules.passes is 'The passes each round of the rule runs, in order (nearest, in_order, undated: sql/22_int_duplicate_pairs).';
comment on column int_duplicate_rules.description is 'What the rule pairs, in words.';
