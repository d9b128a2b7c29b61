-- repeat: until a run inserts no row
-- Rule 1, hook_tool_call: a hooks.jsonl tool_use or tool_result row and the transcript row of the same
-- host, turn type and call id, at most 1 hour apart (a call line is stamped when the call starts or ends,
-- the transcript message when the turn is written). One round of the passes of sql/21 per run; the
-- model build runs this file again, {{round}} = 1, 2, ..., until a round pairs nothing.
insert into int_duplicate_pairs by name
select *, {{round}} as round_number from int_duplicate_nearest('hook_tool_call', 3600 * 1000);

insert into int_duplicate_pairs by name
select *, {{round}} as round_number from int_duplicate_in_order('hook_tool_call', 3600 * 1000);
