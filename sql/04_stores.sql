-- stores: the store specification (src/core/stores.ts) as a table, one row per store (partition `store=`):
-- its role, what it holds, the root kinds it lives under, its files there (globs relative to the store root),
-- which of them are transcripts, and transcript_regex, which a row's source_file matches when it comes from
-- one of the store's transcripts. The models join it instead of listing stores.
create or replace table stores as
select * from {{stores_source}};
