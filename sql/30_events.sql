-- events: the hunt timeline (sql/21_int_timeline.sql), ordered by host, time (undated rows last), file
-- and position. Grain: one row per event, same columns as raw_events.
create or replace view events as
select * from int_timeline
order by host, timestamp_utc nulls last, source_file, source_line nulls first, source_seq, session_id, kind;
