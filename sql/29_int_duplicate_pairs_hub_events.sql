-- repeat: until a run inserts no row
-- The hub event log's rules (candidates: sql/28): hub_message, hub_usage and hub_session, each pairing a
-- hub-events row with its twin of the same host and session at most 1 hour apart (a run result's message
-- carries the transcript message's own `ts`; a session record is stamped within a second of the
-- manifest's times), each on the primary rows its own earlier rounds left (sql/21: one-to-one per rule).
-- One round of the passes of sql/21 per rule and run; the model build runs this file again, {{round}} = 1,
-- 2, ..., until a round pairs nothing.
insert into int_duplicate_pairs by name
select *, {{round}} as round_number from int_duplicate_nearest('hub_message', 3600 * 1000);

insert into int_duplicate_pairs by name
select *, {{round}} as round_number from int_duplicate_in_order('hub_message', 3600 * 1000);

insert into int_duplicate_pairs by name
select *, {{round}} as round_number from int_duplicate_nearest('hub_usage', 3600 * 1000);

insert into int_duplicate_pairs by name
select *, {{round}} as round_number from int_duplicate_in_order('hub_usage', 3600 * 1000);

insert into int_duplicate_pairs by name
select *, {{round}} as round_number from int_duplicate_nearest('hub_session', 3600 * 1000);

insert into int_duplicate_pairs by name
select *, {{round}} as round_number from int_duplicate_in_order('hub_session', 3600 * 1000);
