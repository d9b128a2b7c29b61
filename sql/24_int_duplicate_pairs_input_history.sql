-- repeat: until a run inserts no row
-- Rule 3, input_history: a user_input_history.jsonl prompt and a transcript user row of any session of the
-- same host and home with the same text, on the transcript rows rules 1 and 2 left: at most 2 seconds
-- apart when the line is dated (only the file's last line is), on text alone when not, newest lines with
-- the newest prompts. One round of the passes of sql/21 per run; the model build runs this file again,
-- {{round}} = 1, 2, ..., until a round pairs nothing.
insert into int_duplicate_pairs by name
select *, {{round}} as round_number from int_duplicate_nearest('input_history', 2000);

insert into int_duplicate_pairs by name
select *, {{round}} as round_number from int_duplicate_in_order('input_history', 2000);

insert into int_duplicate_pairs by name
select *, {{round}} as round_number from int_duplicate_undated('input_history');
