/**
 * The file lists of fleet.duckdb's views (issue 26): the views that read OUT's files (raw_events,
 * raw_files, raw_secrets, the per-host tables) name each list of files by a name, `out_list('name')`
 * (sql/00_out_files.sql), and the lists themselves are rows of the table clinetrail.file_lists (list name,
 * files relative to OUT). Every connection to fleet.duckdb first puts them in the variable
 * clinetrail_files (FILES_STATEMENT): a list held in a literal of a view's text is parsed and kept by every
 * connection that binds the view, one held in a variable is kept once (docs/BENCHMARKS.md). Builds of
 * one host or one batch in memory keep literal lists (`lists` left out of model-run.ts `placeholders`):
 * theirs are short.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { type FileLists, setOutStatement } from './model-run.js';

/** The schema and table that hold the lists: outside `main`, so no listing of the warehouse's tables shows them. */
export const FILE_LISTS_TABLE = 'clinetrail.file_lists';

/**
 * The statement that sets the variable the views read their lists from: what each connection to
 * fleet.duckdb runs first, clinetrail's and any other client's (docs/OUT.md).
 */
export const FILES_STATEMENT = `set variable clinetrail_files = (select map(list(name), list(files)) from ${FILE_LISTS_TABLE})`;

/**
 * The statement that puts only the first file of each list in the variable, which the assembly of
 * fleet.duckdb binds its views with (warehouse/build.ts): a view's bind takes its columns from the first
 * file of a list (each list holds files of one schema: a group of parts, one model's files, inventories
 * or secrets read with fixed columns), but copies and checks every name of it, and what the assembly's
 * binds of lists of 30,000 names allocated stayed in the process (docs/BENCHMARKS.md, "The assembly binds
 * on the first files"). A view stores its text, not the list, so it reads every file once FILES_STATEMENT
 * has set the variable again.
 */
export const BINDING_FILES_STATEMENT = `set variable clinetrail_files = (select map(list(name), list(files[1:1])) from ${FILE_LISTS_TABLE})`;

/**
 * Writes `lists` into the table of the warehouse on `conn` (being built). The variable is not set here:
 * the assembly binds with BINDING_FILES_STATEMENT first, and each setting of every list cost the
 * 5,000-host fleet's load some 60 MB (docs/BENCHMARKS.md, "The assembly's file lists").
 */
export async function storeFileLists(conn: DuckDBConnection, lists: FileLists): Promise<void> {
  const { LIST, listValue, VARCHAR } = await import('@duckdb/node-api');
  await conn.run('create schema if not exists clinetrail');
  await conn.run(`create or replace table ${FILE_LISTS_TABLE} (name varchar primary key, files varchar[] not null)`);
  const insert = await conn.prepare(`insert into ${FILE_LISTS_TABLE} values ($1, $2)`);
  for (const [name, files] of lists) {
    insert.bind([name, listValue(files)], [VARCHAR, LIST(VARCHAR)]);
    await insert.run();
  }
}

/** Whether the warehouse on `conn` has the table of file lists (one built before it had none). */
async function hasFileLists(conn: DuckDBConnection): Promise<boolean> {
  const [[n]] = (
    await conn.runAndReadAll(
      "select count(*) from duckdb_tables() where database_name = current_database() and schema_name = 'clinetrail' and table_name = 'file_lists'",
    )
  ).getRows();
  return Number(n) > 0;
}

/**
 * Points a connection to OUT/fleet.duckdb at `outDir` and sets the variable of its file lists; a
 * warehouse built before the lists were a table (its views name their files in literals) has no table,
 * and needs only the first.
 */
export async function setFleetVariables(conn: DuckDBConnection, outDir: string): Promise<void> {
  await conn.run(setOutStatement(outDir));
  if (await hasFileLists(conn)) await conn.run(FILES_STATEMENT);
}

/** Every file (relative to OUT) the lists of the warehouse on `conn` name; none in a warehouse without them. */
export async function listedFiles(conn: DuckDBConnection): Promise<string[]> {
  if (!(await hasFileLists(conn))) return [];
  const rows = (await conn.runAndReadAll(`select unnest(files) from ${FILE_LISTS_TABLE}`)).getRows();
  return rows.map(([f]) => String(f));
}
