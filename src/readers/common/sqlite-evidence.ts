/**
 * The loop every SQLite store shares (sessions.db, session-search.db, the 3.x side databases): every database file of a source
 * read through a private copy (evidence/sqlite-copy.ts), a database that cannot be opened as one
 * `parser:` row, and one `parser:` row per `-wal`/`-shm`/`-journal` whose database is absent. A fault
 * of the private copy itself (an OwnFault: our temporary folder full, ...) is not the evidence's and is
 * thrown on, to end the load.
 */
import * as path from 'node:path';
import { rethrowOwnFault } from '../../core/own-fault.js';
import {
  dbFilesOf,
  openPrivateCopy,
  orphanProblem,
  orphanSideFiles,
  SQLITE_SIDE_FILE,
  type PrivateCopy,
} from '../../evidence/sqlite-copy.js';
import type { Row, Source } from '../../core/row.js';
import { parserRow } from './rows.js';

/**
 * Rows of every database named `dbName` among the source's files (every database file when null: a
 * store of several databases, like `hub-runs-<owner>.db`), each read by `read` on its copy.
 */
export async function* readEvidenceDatabases(
  source: Source,
  dbName: string | null,
  read: (copy: PrivateCopy, file: string) => AsyncGenerator<Row>,
): AsyncGenerator<Row> {
  const files =
    dbName === null ? source.files.filter((f) => !SQLITE_SIDE_FILE.test(path.basename(f))) : dbFilesOf(source.files, dbName);
  for (const file of files) {
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
