-- The macros of a row that several models share: row_id_of, a row's identity (raw_events, raw_secrets), and
-- is_recorded_time, what counts as a time a source recorded (sessions, the report).
--
-- row_id is the one identity of a row, which every model joins on: the MD5 (128 bits) of (host, store,
-- source_file, file_row), as a UUID: stored in 16 bytes (joins as fast as a 128-bit integer), printed
-- everywhere as the MD5's 32 hex digits in the 8-4-4-4-12 form (0cc175b9-c0f1-b6a8-31c3-99e269772661),
-- which no reader takes for a number or a date (pandas, polars, pyarrow, Excel, Timesketch), and compared
-- with such a text as it is (`where row_id = '0cc175b9-...'`, or a join on an exported file's row_id).
-- file_row is the row's position among the rows its partition wrote
-- for its source file (load/partition.ts), so the four are unique by construction (source_line and
-- source_seq are not: a task_metadata.json's arrays all number from 1, and a partition's parser rows have
-- no line), and the same evidence read by the same code gives the same row_id on every load. None of the
-- four holds a NUL, so the NUL-separated text hashed is itself unique. Two rows share a row_id only if MD5
-- collides on two such texts: by chance about n^2 / 2^129 (1e-19 for 10 billion rows); on purpose it takes
-- an MD5 collision whose differing bytes make valid UTF-8 path names without '/' or NUL, in two files of one
-- fleet. A 64-bit hash() was measured 2 to 7 times cheaper to compute (4.6 million rows: 1.1 s against 8.4 s) but
-- its collisions can be found by brute force over file names (2^32 tries), and the readable text key
-- host/store/source_file#file_row took 5 times longer than MD5 to join on itself. The UUID was measured
-- against md5_number's UHUGEINT (issue 28, 464,366 rows): no slower to build the models or to scan events.
-- row_id_of is the one definition; raw_secrets names the row a secret was found in with it too.
create or replace macro row_id_of(host, store, source_file, file_row) as
    md5(host || chr(0) || store || chr(0) || source_file || chr(0) || file_row::VARCHAR)::UUID;

-- is_recorded_time is the one definition of a time a source wrote for its record (timestamp_source recorded,
-- or local_clock: a wall clock read in the host's zone), which session spans and the report count; a
-- file's mtime (moved by every copy of the evidence) and a time taken from another record do not.
create or replace macro is_recorded_time(timestamp_source) as coalesce(timestamp_source in ('recorded', 'local_clock'), false);
