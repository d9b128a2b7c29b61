-- out_file, out_files, out_list: the path of a file of OUT from its path relative to OUT, so that fleet.duckdb
-- names no path outside OUT, nor OUT itself: a copied, moved or archived OUT gives the same answers
-- (docs/ARCHITECTURE.md, "A relocatable OUT"). The views that read OUT's files (raw_events, raw_files,
-- raw_runs, raw_secrets, the per-host tables) name them through these macros. With the variable
-- clinetrail_out set (clinetrail sets it to the absolute OUT on the build's connection and on each
-- query's, before the sandbox), the path is under it; unset (DuckDB's own CLI, Python), the path stays
-- relative and DuckDB resolves it in file_search_path, or in the working folder.
create or replace macro out_file(rel) as coalesce(getvariable('clinetrail_out') || '/', '') || rel;

create or replace macro out_files(rels) as [out_file(f) for f in rels];

-- out_list(name): the files of the list `name` of fleet.duckdb's table clinetrail.file_lists, read from the
-- variable clinetrail_files (a map of list name to files relative to OUT) that every connection sets from
-- that table first (warehouse/file-lists.ts, docs/OUT.md "Moving a warehouse"). A view that names its
-- thousands of files in a literal list holds them parsed in every connection that opens the file
-- (docs/BENCHMARKS.md, issue 26); through the variable each connection holds them once.
create or replace macro out_list(name) as out_files(getvariable('clinetrail_files')[name]);
