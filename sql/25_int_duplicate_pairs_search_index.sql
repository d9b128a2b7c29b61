-- repeat: until a run inserts no row
-- Rule 4, search_index: a session-search.db message document and the transcript row of the same host,
-- session and turn type with the same call id (tool documents) or text (sql/20), by record position (a
-- document's ordinal + 1 is its message's line; the index records no time, so there is no window). One round of the passes of
-- sql/21 per run; the model build runs this file again, {{round}} = 1, 2, ..., until a round pairs nothing.
insert into int_duplicate_pairs by name
select *, {{round}} as round_number from int_duplicate_nearest('search_index', null::BIGINT);

insert into int_duplicate_pairs by name
select *, {{round}} as round_number from int_duplicate_in_order('search_index', null::BIGINT);
