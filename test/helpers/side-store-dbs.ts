/**
 * Builders of the SQLite side stores (hub-runs, teams-db, tasks-db, cron-db, connectors-db, locks) for
 * tests and for their committed fixtures. The schema is not transcribed: it is read from the databases
 * the released CLIs created (fixtures/real-producer: 3.0.65 for the 3.x stores, 1.0.10 for locks.db),
 * whose `sqlite_master` holds the DDL as executed (the same text as the source at cline-formats H:
 * hub-run-queue.ts, sqlite-team-store.ts, task-schema.ts, cron-schema.ts, connector-store.ts,
 * SqliteLockManager.ts). The real databases are read through a private copy, never opened in place.
 *
 * Regenerate the committed fixtures with:
 *   npx tsc -p tsconfig.json --outDir node_modules/.cache/clinetrail-fixtures && node node_modules/.cache/clinetrail-fixtures/test/helpers/side-store-dbs.js
 */
import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StoreId } from '../../src/core/stores.js';
import { openPrivateCopy } from '../../src/evidence/sqlite-copy.js';
import { DEMO_ROWS } from './side-store-rows.js';

/** Data folders of the real homes, under fixtures/real-producer. */
const REAL_3X = ['real-producer', 'cline-3.0.65', 'home', '.cline', 'data'];
const REAL_1X = ['real-producer', 'cline-1.0.10', 'home', '.cline', 'data'];

/**
 * The stores built here, each with the real database its schema comes from, as `fixtures/<...>` parts:
 * the one list of them, checked against the store specification.
 */
export const REAL_DBS = {
  'hub-runs': [...REAL_3X, 'db', 'hub-runs-hub-production.db'],
  'teams-db': [...REAL_3X, 'db', 'teams.db'],
  'tasks-db': [...REAL_3X, 'db', 'tasks.db'],
  'cron-db': [...REAL_3X, 'db', 'cron.db'],
  'connectors-db': [...REAL_3X, 'db', 'connectors.db'],
  locks: [...REAL_1X, 'locks.db'],
} satisfies Partial<Record<StoreId, string[]>>;

/** The stores built here. */
export type SideDbStore = keyof typeof REAL_DBS;

/** Where each store's committed fixture database lies, under `fixtures/<store>/img`, as parts. */
export const FIXTURE_DBS: Record<SideDbStore, string[]> = {
  'hub-runs': ['home', 'u', '.cline', 'data', 'db', 'hub-runs-hub-production.db'],
  'teams-db': ['home', 'u', '.cline', 'data', 'db', 'teams.db'],
  'tasks-db': ['home', 'u', '.cline', 'data', 'db', 'tasks.db'],
  'cron-db': ['home', 'u', '.cline', 'data', 'db', 'cron.db'],
  'connectors-db': ['home', 'u', '.cline', 'data', 'db', 'connectors.db'],
  locks: ['home', 'u', '.cline', 'data', 'locks.db'],
};

const self = fileURLToPath(import.meta.url);
/** The repository root: two folders above this file, in the sources and in a compiled copy alike. */
const REPO =
  process.argv[1] && path.resolve(process.argv[1]) === self ? process.cwd() : path.resolve(path.dirname(self), '../..');

/**
 * The DDL of a real database, statement by statement in creation order (tables, then their indexes), as
 * its `sqlite_master` holds it; SQLite's own `sqlite_sequence` and automatic indexes left out.
 */
export function realDdl(store: SideDbStore): string[] {
  const copy = openPrivateCopy(path.join(REPO, 'fixtures', ...REAL_DBS[store]));
  try {
    return copy.db
      .prepare(`SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name <> 'sqlite_sequence' ORDER BY rowid`)
      .pluck()
      .all() as string[];
  } finally {
    copy.close();
  }
}

/** Records to insert, per table; an object or array value is stored as its JSON text, anything else as it is. */
export type TableRows = Record<string, Record<string, unknown>[]>;

function stored(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return typeof value === 'object' && value !== null && !(value instanceof Uint8Array) ? JSON.stringify(value) : value;
}

function insertAll(db: Database.Database, tables: TableRows): void {
  for (const [table, rows] of Object.entries(tables)) {
    for (const row of rows) {
      const cols = Object.keys(row);
      const values = cols.map((c) => stored(row[c]));
      db.prepare(
        `INSERT INTO "${table}" (${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
      ).run(...values);
    }
  }
}

export interface WriteSideDbOptions {
  /** Leave the db in WAL mode with the records of `walTables` only in `<file>-wal`, as a live collection finds it. */
  walTables?: TableRows;
  /** DDL to use instead of the real one (an older or unknown schema). */
  ddl?: string[];
}

/** Writes a database of `store` at `file` with the real DDL and `tables`; replaces any db and side files there. */
export function writeSideDb(file: string, store: SideDbStore, tables: TableRows, options: WriteSideDbOptions = {}): void {
  const ddl = options.ddl ?? realDdl(store);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + suffix, { force: true });
  if (options.walTables === undefined) {
    const db = new Database(file);
    try {
      db.pragma('journal_mode = DELETE');
      for (const statement of ddl) db.exec(statement);
      db.transaction(() => insertAll(db, tables))();
      db.exec('VACUUM');
    } finally {
      db.close();
    }
    return;
  }
  // As sqlite-fixtures.ts writeSessionsDb: build in a scratch folder, keep the writer open so the last
  // records stay in the -wal, copy the files while it is open, then drop the scratch folder.
  const scratchDir = fs.mkdtempSync(path.join(os.tmpdir(), 'clinetrail-fixture-'));
  const scratch = path.join(scratchDir, path.basename(file));
  const db = new Database(scratch);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    for (const statement of ddl) db.exec(statement);
    db.transaction(() => insertAll(db, tables))();
    db.pragma('wal_checkpoint(TRUNCATE)');
    insertAll(db, options.walTables);
    for (const suffix of ['', '-wal', '-shm']) {
      if (fs.existsSync(scratch + suffix)) fs.copyFileSync(scratch + suffix, file + suffix);
    }
  } finally {
    db.close();
    fs.rmSync(scratchDir, { recursive: true, force: true });
  }
}

/** Writes the committed fixture database of every store under `<repo>/fixtures/<store>/img`. */
export function writeSideDbFixtures(repo: string): void {
  for (const store of Object.keys(FIXTURE_DBS) as SideDbStore[]) {
    writeSideDb(path.join(repo, 'fixtures', store, 'img', ...FIXTURE_DBS[store]), store, DEMO_ROWS[store]);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === self) {
  writeSideDbFixtures(process.cwd());
  console.log(`wrote the ${Object.keys(FIXTURE_DBS).join(', ')} fixture databases`);
}
