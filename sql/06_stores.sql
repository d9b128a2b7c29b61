-- stores: the store specification (src/core/stores.ts) as a table, one row per store (partition `store=`):
-- its role, what it holds, the root kinds it lives under, its files there (globs relative to the store root),
-- which of them are transcripts, and transcript_regex, which a row's source_file matches when it comes from
-- one of the store's transcripts. The models join it instead of listing stores.
create or replace table stores as
select * from {{stores_source}};

comment on table stores is 'The store specification (src/core/stores.ts) as a table: every Cline store clinetrail reads, and discovery. Grain: one row per store, the store column of raw_events, events and files. Join it for a store''s role and files instead of listing stores: select e.* from events e join stores s using (store) where regexp_matches(e.source_file, s.transcript_regex) gives the rows read from transcripts.';
comment on column stores.store is 'Store id, as in the store column of raw_events, events and files.';
comment on column stores.role is 'primary (the store records what happened: a transcript, a settings file, a log) or secondary (it repeats what transcripts record: the hook audit log, the prompt history, the search index, the hub event log; the duplicate rule drops its copies where the transcript is there).';
comment on column stores.description is 'What the store holds, in words.';
comment on column stores.root_kinds is 'The root kinds the store lives under (vscode-globalstorage, roo-globalstorage, kilo-globalstorage, vscode-user, cline-data, cline-home, documents-cline), the keys of files.';
comment on column stores.files is 'The store''s files: a list of {root_kind, pattern}, each pattern a glob relative to a store root of that kind (* within one path segment, {a,b} alternatives).';
comment on column stores.except_files is 'Globs of files the store''s globs match but that it does not read (the sdk-sessions compaction files, which repeat turns the messages file keeps; the CLI''s task worktrees, checkouts of the user''s repository).';
comment on column stores.transcript_files is 'Which of the store''s file globs are transcripts: the files whose rows make sessions.has_transcript true.';
comment on column stores.transcript_regex is 'The regular expression (RE2) a row''s source_file matches when the row comes from one of the store''s transcripts (transcript_files as the end of the path); null for a store without transcripts.';
