/**
 * Opens an SQLite evidence file through a private copy, so nothing beside the evidence is ever
 * created, modified or locked (feasibility.md §4: even `readonly` leaves a new `-shm` behind, and
 * `immutable=1` cannot be passed through better-sqlite3).
 *
 * The db and its `-wal` and `-journal` are copied into a fresh `clinetrail-sqlite-*` folder under the
 * OS temp dir and the copy is opened read-write, so SQLite can replay the `-wal` or roll back a hot
 * `-journal` in our copy exactly as Cline's next open would. The evidence `-shm` is deliberately not
 * copied: it is only a cache of the `-wal` index, SQLite rebuilds it from the `-wal`, and a `-shm`
 * captured at another instant than the `-wal` could make SQLite trust a shorter frame count and hide
 * the newest committed rows.
 */
import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Side files copied with the db. `-shm` is left out on purpose (see the header). */
const SIDE_SUFFIXES = ['-wal', '-journal'] as const;

/** Names of side files (`-wal`, `-shm`, `-journal`) that belong to a db file rather than being one. */
export const SQLITE_SIDE_FILE = /-(wal|shm|journal)$/;

const HEADER = Buffer.from('SQLite format 3\0', 'latin1');

export interface PrivateCopy {
  db: Database.Database;
  /** The copied db file inside the private folder. */
  copyPath: string;
  /** Closes the connection and removes the private folder. Safe to call twice. */
  close(): void;
}

/** Private folders not yet closed; removed at process exit if a consumer abandoned a reader. */
const openDirs = new Set<string>();
let exitHook = false;
function track(dir: string): void {
  openDirs.add(dir);
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const d of openDirs) fs.rmSync(d, { recursive: true, force: true });
  });
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Reads the first bytes of a file (at most `n`). */
function head(file: string, n: number): Buffer {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(n);
    const got = fs.readSync(fd, buf, 0, n, 0);
    return buf.subarray(0, got);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Copies `dbFile` (plus `-wal` and `-journal` when present) to a private temp folder and opens the
 * copy. Throws an Error with a clear message for a missing, zero-length or non-SQLite file, or when
 * SQLite cannot read the schema; the temp folder is removed on every failure.
 */
export function openPrivateCopy(dbFile: string): PrivateCopy {
  const st = fs.statSync(dbFile);
  if (!st.isFile()) throw new Error('not a regular file');
  if (st.size === 0) throw new Error('empty file (0 bytes), not an SQLite database');
  const magic = head(dbFile, HEADER.length);
  if (magic.length < HEADER.length || !magic.equals(HEADER)) {
    throw new Error(`not an SQLite database (no "SQLite format 3" header; ${st.size} bytes)`);
  }

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clinetrail-sqlite-'));
  track(dir);
  const copyPath = path.join(dir, path.basename(dbFile));
  let db: Database.Database | null = null;
  const cleanup = (): void => {
    try {
      db?.close();
    } catch {
      // already closed
    }
    db = null;
    fs.rmSync(dir, { recursive: true, force: true });
    openDirs.delete(dir);
  };
  try {
    fs.copyFileSync(dbFile, copyPath);
    fs.chmodSync(copyPath, 0o600);
    for (const suffix of SIDE_SUFFIXES) {
      const side = dbFile + suffix;
      let sideStat: fs.Stats;
      try {
        sideStat = fs.statSync(side);
      } catch {
        continue;
      }
      if (!sideStat.isFile()) continue;
      fs.copyFileSync(side, copyPath + suffix);
      fs.chmodSync(copyPath + suffix, 0o600);
    }
    // Read-write on purpose: it is our copy, and a hot journal or a -wal may need recovery.
    db = new Database(copyPath, { fileMustExist: true });
    try {
      // The first read replays the -wal / rolls back a hot -journal and validates the schema.
      db.prepare('SELECT count(*) FROM sqlite_master').get();
    } catch (err) {
      throw new Error(`SQLite cannot read the database: ${message(err)}`);
    }
    db.pragma('query_only = 1');
  } catch (err) {
    cleanup();
    throw err instanceof Error ? err : new Error(message(err));
  }
  const opened = db as Database.Database;
  return { db: opened, copyPath, close: cleanup };
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

/** An SQL identifier, double-quoted. */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
