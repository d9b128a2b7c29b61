/**
 * The loop both SQLite stores share (sessions.db, session-search.db): every database file of a source
 * read through a private copy (evidence/sqlite-copy.ts), a database that cannot be opened as one
 * `parser:` row, and one `parser:` row per `-wal`/`-shm`/`-journal` whose database is absent. A fault
 * of the private copy itself (an OwnFault: our temporary folder full, ...) is not the evidence's and is
 * thrown on, to end the load.
 */
import { rethrowOwnFault } from '../../core/own-fault.js';
import { dbFilesOf, openPrivateCopy, orphanProblem, orphanSideFiles, type PrivateCopy } from '../../evidence/sqlite-copy.js';
import type { Row, Source } from '../../core/row.js';
import { parserRow } from './rows.js';

/** Rows of every database named `dbName` among the source's files, each read by `read` on its copy. */
export async function* readEvidenceDatabases(
  source: Source,
  dbName: string,
  read: (copy: PrivateCopy, file: string) => AsyncGenerator<Row>,
): AsyncGenerator<Row> {
  for (const file of dbFilesOf(source.files, dbName)) {
    let copy: PrivateCopy;
    try {
      copy = openPrivateCopy(file);
    } catch (err) {
      rethrowOwnFault(err);
      yield parserRow(source, file, null, err instanceof Error ? err.message : String(err));
      continue;
    }
    try {
      yield* read(copy, file);
    } finally {
      copy.close();
    }
  }
  for (const side of orphanSideFiles(source.files)) yield parserRow(source, side, null, orphanProblem(side));
}
