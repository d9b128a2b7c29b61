-- repeat: until a run inserts no row
-- Rule 2, hook_text: a hooks.jsonl prompt (user) or reply (assistant) and the transcript row of the same
-- host, session, turn type and text, at most 1 hour apart, on the transcript rows rule 1 left. One round
-- of the passes of sql/21 per run; the model build runs this file again, {{round}} = 1, 2, ..., until a
-- round pairs nothing.
insert into int_duplicate_pairs by name
select *, {{round}} as round_number from int_duplicate_nearest('hook_text', 3600 * 1000);

insert into int_duplicate_pairs by name
select *, {{round}} as round_number from int_duplicate_in_order('hook_text', 3600 * 1000);
