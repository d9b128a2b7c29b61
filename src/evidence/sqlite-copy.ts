/**
 * Opens an SQLite evidence file through a private copy, so nothing beside the evidence is ever
 * created, modified or locked (feasibility.md §4: even `readonly` leaves a new `-shm` behind, and
 * `immutable=1` cannot be passed through better-sqlite3).
 *
 * The db and its `-wal` and `-journal` are copied into a fresh private folder under the OS temp dir
 * (evidence/private-folders.ts: named with the pid, removed on close, at exit, or by the next load after
 * a kill) and the copy is opened read-write, so SQLite can replay the `-wal` or roll back a hot
 * `-journal` in our copy exactly as Cline's next open would. The evidence `-shm` is deliberately not
 * copied: it is only a cache of the `-wal` index, SQLite rebuilds it from the `-wal`, and a `-shm`
 * captured at another instant than the `-wal` could make SQLite trust a shorter frame count and hide
 * the newest committed rows.
 *
 * The copy is a read/write loop, not copyFileSync, so that the two sides of a failure stay apart: an
 * error reading the evidence is the evidence's (an Error, which becomes a `parser:` row), an error
 * creating or writing our copy, or SQLite failing on it for want of space or I/O, is clinetrail's own
 * (an OwnFault, core/own-fault.ts, which ends the load).
 */
import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openEvidence } from './file-chunks.js';
import { type OwnFault, ownWriteFault, sqliteOwnFault } from '../core/own-fault.js';
import { makePrivateFolder, releasePrivateFolder } from './private-folders.js';

/** Side files copied with the db. `-shm` is left out on purpose (see the header). */
const SIDE_SUFFIXES = ['-wal', '-journal'] as const;

/** Names of side files (`-wal`, `-shm`, `-journal`) that belong to a db file rather than being one. */
export const SQLITE_SIDE_FILE = /-(wal|shm|journal)$/;

const HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** Bytes copied per read; one buffer per copy. */
const COPY_CHUNK_BYTES = 1024 * 1024;

export interface PrivateCopy {
  db: Database.Database;
  /** The copied db file inside the private folder. */
  copyPath: string;
  /**
   * The OwnFault of an error SQLite raised while reading the copy, or null when it may be the
   * evidence's: the readers rethrow the first and turn the second into a `parser:` row.
   */
  ownFault(err: unknown): OwnFault | null;
  /** Closes the connection and removes the private folder. Safe to call twice. */
  close(): void;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Copies the open evidence file `fd` (whose path is `evidence`) into the new file `to`, to its end.
 * A failed read throws an Error (the evidence's fault); a failed create, write or close throws an
 * OwnFault naming `tempRoot`.
 */
export function copyEvidence(fd: number, evidence: string, to: string, tempRoot: string): void {
  let out: number;
  try {
    out = fs.openSync(to, 'w', 0o600);
  } catch (err) {
    throw ownWriteFault(err, tempRoot, 'copying', evidence);
  }
  let failure: unknown = null;
  try {
    const buf = Buffer.allocUnsafe(COPY_CHUNK_BYTES);
    for (let position = 0; ; ) {
      let got: number;
      try {
        got = fs.readSync(fd, buf, 0, buf.length, position);
      } catch (err) {
        throw new Error(`reading the file failed at byte ${position}: ${message(err)}`);
      }
      if (got === 0) break;
      for (let done = 0; done < got; ) {
        try {
          done += fs.writeSync(out, buf, done, got - done);
        } catch (err) {
          throw ownWriteFault(err, tempRoot, 'copying', evidence);
        }
      }
      position += got;
    }
  } catch (err) {
    failure = err;
  }
  try {
    fs.closeSync(out);
  } catch (err) {
    failure ??= ownWriteFault(err, tempRoot, 'copying', evidence);
  }
  if (failure !== null) throw failure;
}

/**
 * Copies the side file `side` of the db when it is a regular file; an absent one (or a FIFO, ...) is
 * skipped. One that cannot be read fails the database, as the database itself would: read without its
 * `-wal`, it would hide the newest rows.
 */
function copySide(side: string, to: string, tempRoot: string): void {
  let fd: number;
  try {
    fd = openEvidence(side);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new Error(`cannot read ${path.basename(side)}: ${message(err)}`);
  }
  try {
    if (fs.fstatSync(fd).isFile()) copyEvidence(fd, side, to, tempRoot);
  } finally {
    fs.closeSync(fd);
  }
}

/** Checks that the open file `fd` is a non-empty regular file starting with the SQLite header. */
function checkEvidence(fd: number): void {
  const st = fs.fstatSync(fd);
  if (!st.isFile()) throw new Error('not a regular file');
  if (st.size === 0) throw new Error('empty file (0 bytes), not an SQLite database');
  const magic = Buffer.alloc(HEADER.length);
  const got = fs.readSync(fd, magic, 0, magic.length, 0);
  if (got < HEADER.length || !magic.equals(HEADER)) {
    throw new Error(`not an SQLite database (no "SQLite format 3" header; ${st.size} bytes)`);
  }
}

/**
 * Copies `dbFile` (plus `-wal` and `-journal` when present) to a private folder in `tempRoot` and
 * opens the copy. Throws an Error with a clear message for a missing, unreadable, zero-length or
 * non-SQLite file, or when SQLite cannot read the schema; throws an OwnFault when the private folder
 * cannot be made or written, or SQLite fails on it for want of space or I/O. The private folder is
 * removed on every failure.
 */
export function openPrivateCopy(dbFile: string, tempRoot: string = os.tmpdir()): PrivateCopy {
  const fd = openEvidence(dbFile);
  let dir: string | null = null;
  let db: Database.Database | null = null;
  const cleanup = (): void => {
    try {
      db?.close();
    } catch {
      // already closed
    }
    db = null;
    if (dir !== null) releasePrivateFolder(dir);
    dir = null;
  };
  const ownFault = (err: unknown): OwnFault | null => sqliteOwnFault(err, tempRoot, dbFile);
  try {
    checkEvidence(fd);
    try {
      dir = makePrivateFolder(tempRoot);
    } catch (err) {
      throw ownWriteFault(err, tempRoot, 'making a private folder to copy', dbFile);
    }
    const copyPath = path.join(dir, path.basename(dbFile));
    copyEvidence(fd, dbFile, copyPath, tempRoot);
    for (const suffix of SIDE_SUFFIXES) copySide(dbFile + suffix, copyPath + suffix, tempRoot);
    try {
      // Read-write on purpose: it is our copy, and a hot journal or a -wal may need recovery.
      db = new Database(copyPath, { fileMustExist: true });
      // The first read replays the -wal / rolls back a hot -journal and validates the schema.
      db.prepare('SELECT count(*) FROM sqlite_master').get();
      db.pragma('query_only = 1');
    } catch (err) {
      throw ownFault(err) ?? new Error(`SQLite cannot read the database: ${message(err)}`);
    }
    const opened = db as Database.Database;
    return { db: opened, copyPath, ownFault, close: cleanup };
  } catch (err) {
    cleanup();
    throw err instanceof Error ? err : new Error(message(err));
  } finally {
    fs.closeSync(fd);
  }
}

/** The db files of a source: the file named `preferred` when present, else every non-side file. */
export function dbFilesOf(files: readonly string[], preferred: string): string[] {
  const named = files.filter((f) => path.basename(f) === preferred);
  if (named.length > 0) return named;
  return files.filter((f) => !SQLITE_SIDE_FILE.test(path.basename(f)));
}

/** Side files (`-wal`, `-shm`, `-journal`) among `files` whose database file is not among them. */
export function orphanSideFiles(files: readonly string[]): string[] {
  const all = new Set(files);
  return files.filter((f) => {
    const m = SQLITE_SIDE_FILE.exec(path.basename(f));
    return m !== null && !all.has(f.slice(0, -m[0].length));
  });
}

/** The `parser:` problem of an orphan side file: its content cannot be read without the database. */
export function orphanProblem(file: string): string {
  const db = path.basename(file).replace(SQLITE_SIDE_FILE, '');
  return `SQLite side file without its database (${db} is absent): not readable alone, not read`;
}

/** Names of the columns of `table` in the copy (empty when the table does not exist). */
export function columnsOf(db: Database.Database, table: string): Set<string> {
  const rows = db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[];
  return new Set(rows.map((r) => r.name));
}

/** Whether `name` is a table (or virtual table) in the schema. */
export function hasTable(db: Database.Database, name: string): boolean {
  return db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(name) !== undefined;
}

/** Whether `table` has a rowid: false for a table declared `WITHOUT ROWID`. */
export function hasRowid(db: Database.Database, table: string): boolean {
  try {
    db.prepare(`SELECT rowid FROM ${ident(table)} LIMIT 0`);
    return true;
  } catch {
    return false;
  }
}

/**
 * The ORDER BY that gives a table's records in their stored order: `rowid`, or for a `WITHOUT ROWID`
 * table its primary-key columns (ascending), the key that table is stored by.
 */
export function storedOrder(db: Database.Database, table: string): string {
  if (hasRowid(db, table)) return 'rowid';
  const key = db.prepare(`SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk`).pluck().all(table) as string[];
  return key.length === 0 ? '1' : key.map(ident).join(', ');
}

/** An SQL identifier, double-quoted. */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
