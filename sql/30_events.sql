-- events: the hunt timeline (sql/25_int_timeline.sql), ordered by host, time (undated rows last), file
-- and position. Grain: one row per event, same columns as raw_events.
create or replace view events as
select * from int_timeline
order by host, timestamp_utc nulls last, source_file, source_line nulls first, source_seq, session_id, kind;

comment on view events is 'The hunt timeline: every primary row, every secondary row the duplicate rule kept, and the derived model and permission-mode change rows, ordered by host, time (undated last), file and position. Grain: one row per event (row_id); same columns as raw_events.';
-- every column is documented by the row schema (core/records.ts COLUMNS, warehouse/record-comments.ts)
{{events_column_comments}}
