/**
 * Builders of the SQLite stores with the real DDL (cline-formats.md §3.1, §3.2), for tests (built in an
 * os.tmpdir() image at test time) and for the committed demo fixtures (demo-dbs.ts, which holds their
 * data and writes them).
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** `sessions` DDL at H (sqlite-db.ts:187-273) and the other tables of sessions.db. */
export const SESSIONS_DDL = `
CREATE TABLE IF NOT EXISTS sessions (
		session_id TEXT PRIMARY KEY,
		source TEXT NOT NULL,
		pid INTEGER NOT NULL,
		started_at TEXT NOT NULL,
		ended_at TEXT,
		exit_code INTEGER,
		status TEXT NOT NULL,
		status_lock INTEGER NOT NULL DEFAULT 0,
		interactive INTEGER NOT NULL,
		provider TEXT NOT NULL,
		model TEXT NOT NULL,
		cwd TEXT NOT NULL,
		workspace_root TEXT NOT NULL,
		team_name TEXT,
		enable_tools INTEGER NOT NULL,
		enable_spawn INTEGER NOT NULL,
		enable_teams INTEGER NOT NULL,
		parent_session_id TEXT,
		parent_agent_id TEXT,
		agent_id TEXT,
		conversation_id TEXT,
		is_subagent INTEGER NOT NULL DEFAULT 0,
		prompt TEXT,
		metadata_json TEXT,
		transcript_path TEXT NOT NULL DEFAULT '',
		hook_path TEXT NOT NULL,
		messages_path TEXT,
		updated_at TEXT NOT NULL
	);
CREATE TABLE IF NOT EXISTS subagent_spawn_queue (
		id INTEGER PRIMARY KEY AUTOINCREMENT,
		root_session_id TEXT NOT NULL,
		parent_agent_id TEXT NOT NULL,
		task TEXT,
		system_prompt TEXT,
		created_at TEXT NOT NULL,
		consumed_at TEXT
	);
CREATE TABLE IF NOT EXISTS schedules (
		schedule_id TEXT PRIMARY KEY,
		name TEXT NOT NULL,
		cron_pattern TEXT NOT NULL,
		prompt TEXT NOT NULL,
		provider TEXT NOT NULL,
		model TEXT NOT NULL,
		mode TEXT NOT NULL DEFAULT 'act',
		workspace_root TEXT,
		cwd TEXT,
		system_prompt TEXT,
		max_iterations INTEGER,
		timeout_seconds INTEGER,
		max_parallel INTEGER NOT NULL DEFAULT 1,
		enabled INTEGER NOT NULL DEFAULT 1,
		created_at TEXT NOT NULL,
		updated_at TEXT NOT NULL,
		last_run_at TEXT,
		next_run_at TEXT,
		claim_token TEXT,
		claim_started_at TEXT,
		claim_until_at TEXT,
		created_by TEXT,
		tags TEXT,
		metadata_json TEXT
	);
CREATE TABLE IF NOT EXISTS schedule_executions (
		execution_id TEXT PRIMARY KEY,
		schedule_id TEXT NOT NULL,
		session_id TEXT,
		triggered_at TEXT NOT NULL,
		started_at TEXT,
		ended_at TEXT,
		status TEXT NOT NULL,
		exit_code INTEGER,
		error_message TEXT,
		iterations INTEGER,
		tokens_used INTEGER,
		cost_usd REAL,
		FOREIGN KEY (schedule_id) REFERENCES schedules(schedule_id) ON DELETE CASCADE,
		FOREIGN KEY (session_id) REFERENCES sessions(session_id) ON DELETE SET NULL
	);
CREATE INDEX IF NOT EXISTS idx_schedule_executions_schedule
	ON schedule_executions(schedule_id, triggered_at DESC);
CREATE INDEX IF NOT EXISTS idx_schedules_next_run
	ON schedules(enabled, next_run_at);
`;

/** The `sessions` table before the legacy migrations (§3.1) added their columns. */
export const SESSIONS_LEGACY_DDL = `
CREATE TABLE IF NOT EXISTS sessions (
		session_id TEXT PRIMARY KEY,
		source TEXT NOT NULL,
		pid INTEGER NOT NULL,
		started_at TEXT NOT NULL,
		ended_at TEXT,
		exit_code INTEGER,
		status TEXT NOT NULL,
		status_lock INTEGER NOT NULL DEFAULT 0,
		interactive INTEGER NOT NULL,
		provider TEXT NOT NULL,
		model TEXT NOT NULL,
		cwd TEXT NOT NULL,
		team_name TEXT,
		enable_tools INTEGER NOT NULL,
		enable_spawn INTEGER NOT NULL,
		enable_teams INTEGER NOT NULL,
		prompt TEXT,
		hook_path TEXT NOT NULL,
		updated_at TEXT NOT NULL
	);
`;

/** session-search.db DDL (P:session-history-search.ts:190-220). */
export const SEARCH_DDL = `
CREATE TABLE IF NOT EXISTS indexed_sessions (
			session_id TEXT PRIMARY KEY,
			source_revision TEXT NOT NULL,
			indexed_at TEXT NOT NULL,
			document_count INTEGER NOT NULL,
			index_version INTEGER NOT NULL,
			title TEXT NOT NULL DEFAULT ''
		);
CREATE VIRTUAL TABLE IF NOT EXISTS session_search USING fts5(
			session_id UNINDEXED,
			document_id UNINDEXED,
			ordinal UNINDEXED,
			role UNINDEXED,
			started_at UNINDEXED,
			workspace_root,
			title,
			content,
			tokenize='unicode61 remove_diacritics 2 tokenchars ''_-@'''
		);
`;

/** One sessions row; omitted columns get the values Cline writes by default. */
export interface SessionsDbRow {
  session_id: string;
  source?: string;
  pid?: number;
  started_at: string;
  ended_at?: string | null;
  exit_code?: number | null;
  status?: string;
  interactive?: number;
  provider?: string;
  model?: string;
  cwd?: string;
  workspace_root?: string;
  team_name?: string | null;
  enable_tools?: number;
  enable_spawn?: number;
  enable_teams?: number;
  is_subagent?: number;
  prompt?: string | null;
  /** Stored as is (a string, which may be invalid JSON on purpose) or JSON.stringify'd. */
  metadata_json?: string | Record<string, unknown> | null;
  messages_path?: string | null;
  updated_at?: string;
}

export interface WriteSessionsDbOptions {
  /**
   * Leave the db in WAL mode with the LAST row only in `<file>-wal` (and a `-shm` beside it), as a
   * live collection of a running Cline would find it.
   */
  wal?: boolean;
  /** Use the pre-migration `sessions` table (no workspace_root, metadata_json, ...). */
  legacy?: boolean;
  /** Declare the `sessions` table `WITHOUT ROWID` (rows stored in session_id order, no rowid). */
  withoutRowid?: boolean;
}

/** `ddl` with the table `table` declared `WITHOUT ROWID` (its CREATE TABLE ends with `)` alone on a line). */
export function withoutRowid(ddl: string, table: string): string {
  const start = ddl.indexOf(`CREATE TABLE IF NOT EXISTS ${table} (`);
  const close = start < 0 ? null : /\n\s*\)/.exec(ddl.slice(start));
  if (close === null) throw new Error(`no CREATE TABLE ${table} in the DDL`);
  const end = start + close.index + close[0].length;
  return `${ddl.slice(0, end)} WITHOUT ROWID${ddl.slice(end)}`;
}

function sessionValues(r: SessionsDbRow, legacy: boolean): Record<string, unknown> {
  const meta = r.metadata_json;
  const base: Record<string, unknown> = {
    session_id: r.session_id,
    source: r.source ?? 'cli',
    pid: r.pid ?? 1,
    started_at: r.started_at,
    ended_at: r.ended_at ?? null,
    exit_code: r.exit_code ?? null,
    status: r.status ?? 'running',
    status_lock: 0,
    interactive: r.interactive ?? 1,
    provider: r.provider ?? 'anthropic',
    model: r.model ?? 'claude-sonnet-4-5',
    cwd: r.cwd ?? '/home/u/proj',
    team_name: r.team_name ?? null,
    enable_tools: r.enable_tools ?? 1,
    enable_spawn: r.enable_spawn ?? 0,
    enable_teams: r.enable_teams ?? 0,
    prompt: r.prompt ?? null,
    hook_path: '',
    updated_at: r.updated_at ?? r.started_at,
  };
  if (legacy) return base;
  return {
    ...base,
    workspace_root: r.workspace_root ?? r.cwd ?? '/home/u/proj',
    parent_session_id: null,
    parent_agent_id: null,
    agent_id: null,
    conversation_id: null,
    is_subagent: r.is_subagent ?? 0,
    metadata_json: meta === undefined || meta === null ? null : typeof meta === 'string' ? meta : JSON.stringify(meta),
    transcript_path: '',
    messages_path: r.messages_path ?? null,
  };
}

function insertSessions(db: Database.Database, rows: SessionsDbRow[], legacy: boolean): void {
  for (const r of rows) {
    const values = sessionValues(r, legacy);
    const cols = Object.keys(values);
    db.prepare(`INSERT OR REPLACE INTO sessions (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`).run(
      values,
    );
  }
}

/** Writes a sessions.db at `file` (its folder is created); replaces any db and side files there. */
export function writeSessionsDb(file: string, rows: SessionsDbRow[], options: WriteSessionsDbOptions = {}): void {
  const legacy = options.legacy ?? false;
  const baseDdl = legacy ? SESSIONS_LEGACY_DDL : SESSIONS_DDL;
  const ddl = options.withoutRowid ? withoutRowid(baseDdl, 'sessions') : baseDdl;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + suffix, { force: true });
  if (!options.wal) {
    const db = new Database(file);
    db.pragma('journal_mode = DELETE');
    db.exec(ddl);
    db.transaction(() => insertSessions(db, rows, legacy))();
    db.exec('VACUUM');
    db.close();
    return;
  }
  // Build in a scratch folder, keep the writer open so the last row stays in the -wal, copy the three
  // files to `file` while it is open, then drop the scratch folder.
  const scratchDir = fs.mkdtempSync(path.join(os.tmpdir(), 'clinetrail-fixture-'));
  const scratch = path.join(scratchDir, path.basename(file));
  const db = new Database(scratch);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec(ddl);
    db.transaction(() => insertSessions(db, rows.slice(0, -1), legacy))();
    db.pragma('wal_checkpoint(TRUNCATE)');
    insertSessions(db, rows.slice(-1), legacy);
    for (const suffix of ['', '-wal', '-shm']) {
      if (fs.existsSync(scratch + suffix)) fs.copyFileSync(scratch + suffix, file + suffix);
    }
  } finally {
    db.close();
    fs.rmSync(scratchDir, { recursive: true, force: true });
  }
}

/** One document of session_search. */
export interface SearchDocument {
  ordinal: number;
  role: string;
  content: string;
}

/** One session of session-search.db. */
export interface SearchSession {
  session_id: string;
  started_at: string;
  workspace_root: string;
  /** indexed_sessions.title and the metadata document's title. */
  title: string;
  /** The metadata document's content; null: no metadata document. */
  prompt: string | null;
  documents: SearchDocument[];
  /** The indexed_sessions row; null: the session has documents but no indexed_sessions row. */
  indexed: { indexed_at: string; source_revision: string; document_count?: number } | null;
}

/**
 * Writes a session-search.db at `file` (journal_mode DELETE, vacuumed), documents built as the hub does;
 * `withoutRowid` declares indexed_sessions `WITHOUT ROWID`.
 */
export function writeSearchIndexDb(file: string, sessions: SearchSession[], options: { withoutRowid?: boolean } = {}): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + suffix, { force: true });
  const db = new Database(file);
  db.pragma('journal_mode = DELETE');
  db.exec(options.withoutRowid ? withoutRowid(SEARCH_DDL, 'indexed_sessions') : SEARCH_DDL);
  const insDoc = db.prepare(
    `INSERT INTO session_search (session_id, document_id, ordinal, role, started_at, workspace_root, title, content)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insIndexed = db.prepare(
    `INSERT OR REPLACE INTO indexed_sessions (session_id, source_revision, indexed_at, document_count, index_version, title)
     VALUES (?, ?, ?, ?, 2, ?)`,
  );
  db.transaction(() => {
    for (const s of sessions) {
      if (s.prompt !== null) {
        insDoc.run(s.session_id, `${s.session_id}:metadata`, -1, 'session', s.started_at, s.workspace_root, s.title, s.prompt);
      }
      for (const d of s.documents) {
        insDoc.run(
          s.session_id,
          `${s.session_id}:${d.ordinal}`,
          d.ordinal,
          d.role,
          s.started_at,
          s.workspace_root,
          '',
          d.content,
        );
      }
      if (s.indexed) {
        const count = s.indexed.document_count ?? s.documents.length + 1;
        insIndexed.run(s.session_id, s.indexed.source_revision, s.indexed.indexed_at, count, s.title);
      }
    }
  })();
  db.exec('VACUUM');
  db.close();
}

// ---------------------------------------------------------------------------------------------------
// Evidence checks.

/** Every file under `dir` (recursively) with its size, mtime and SHA-256, for before/after comparisons. */
export function snapshotFolder(dir: string): Record<string, { size: number; mtimeMs: number; sha256: string }> {
  const out: Record<string, { size: number; mtimeMs: number; sha256: string }> = {};
  const walk = (d: string): void => {
    for (const name of fs.readdirSync(d).sort()) {
      const p = path.join(d, name);
      const st = fs.lstatSync(p);
      if (st.isDirectory()) walk(p);
      else {
        const sha256 = st.isFile() ? createHash('sha256').update(fs.readFileSync(p)).digest('hex') : `<${st.mode}>`;
        out[path.relative(dir, p).split(path.sep).join('/')] = { size: st.size, mtimeMs: st.mtimeMs, sha256 };
      }
    }
  };
  walk(dir);
  return out;
}

/** A fresh image folder under os.tmpdir() with `home/u/.cline/data/db` in it; returns the paths. */
export type TempImage = { imageRoot: string; dataRoot: string; dbDir: string; remove(): void };

export function makeImage(): TempImage {
  const imageRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'clinetrail-img-'));
  const dataRoot = path.join(imageRoot, 'home', 'u', '.cline', 'data');
  const dbDir = path.join(dataRoot, 'db');
  fs.mkdirSync(dbDir, { recursive: true });
  return { imageRoot, dataRoot, dbDir, remove: () => fs.rmSync(imageRoot, { recursive: true, force: true }) };
}
