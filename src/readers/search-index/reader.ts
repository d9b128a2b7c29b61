/**
 * Reader of `~/.cline/data/db/session-search.db` (cline-formats.md §3.2), a secondary source: per
 * session one `search_index_session` system row, then one `search_document` row per message document
 * in ordinal order (spec 002, "Past-use rows and secondary sources"), typed and keyed as the row of the
 * message's first block (search-index/document.ts). The index records no time per document: only the
 * session row is dated (the session's start).
 *
 * The db is read through a private copy (sqlite-copy.ts). `session_search` is an FTS5 table; it is
 * scanned once, ordered by session_id and ordinal, and merged with `indexed_sessions`, since a lookup
 * on its UNINDEXED columns would scan the whole table per session. No row depends on a rowid, so
 * tables declared `WITHOUT ROWID` read the same (documents of equal ordinal then keep the scan's order).
 */
import type Database from 'better-sqlite3';
import type { Row, Source } from '../../core/row.js';
import { parserRow, rowFor } from '../common/rows.js';
import { columnsOf, hasRowid, hasTable, type PrivateCopy } from '../../evidence/sqlite-copy.js';
import { readEvidenceDatabases } from '../common/sqlite-evidence.js';
import { searchDocumentFields } from './document.js';
import { epochMs, show, nonEmptyString } from '../common/values.js';

export const NO_FTS5_TEXT = 'session search index: SQLite build lacks FTS5; session_search not read';

interface IndexedSession {
  session_id: string;
  indexed_at: unknown;
  document_count: unknown;
  title: unknown;
}

interface Doc {
  session_id: string;
  document_id: unknown;
  ordinal: number | null;
  role: unknown;
  started_at: unknown;
  workspace_root: unknown;
  title: unknown;
  content: unknown;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** An integer ordinal from the stored value (FTS5 columns keep what was inserted), else null. */
function ordinalOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value.trim());
  return null;
}

function textOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  return String(value);
}

/** Rows of every session-search.db of the source. */
export async function* readSearchIndex(source: Source): AsyncGenerator<Row> {
  yield* readEvidenceDatabases(source, 'session-search.db', (copy, file) => readOne(source, copy, file));
}

function loadIndexed(db: Database.Database): Map<string, IndexedSession> {
  const cols = columnsOf(db, 'indexed_sessions');
  const pick = (c: string): string => (cols.has(c) ? `"${c}"` : 'NULL');
  const stmt = db.prepare(
    `SELECT session_id, ${pick('indexed_at')} AS indexed_at, ` +
      `${pick('document_count')} AS document_count, ${pick('title')} AS title ` +
      `FROM indexed_sessions WHERE session_id IS NOT NULL ORDER BY session_id`,
  );
  const map = new Map<string, IndexedSession>();
  for (const r of stmt.iterate() as IterableIterator<IndexedSession>) {
    map.set(String(r.session_id), { ...r, session_id: String(r.session_id) });
  }
  return map;
}

async function* readOne(source: Source, copy: PrivateCopy, file: string): AsyncGenerator<Row> {
  try {
    const db = copy.db;
    const hasIndexed = hasTable(db, 'indexed_sessions');
    const hasSearch = hasTable(db, 'session_search');
    if (!hasIndexed && !hasSearch) {
      yield parserRow(source, file, null, 'no indexed_sessions or session_search table (unknown schema)');
      return;
    }
    const indexed = hasIndexed ? loadIndexed(db) : new Map<string, IndexedSession>();
    if (!hasIndexed) yield parserRow(source, file, null, 'no indexed_sessions table; documents read alone');

    /** The session row of one session, from its indexed_sessions row and its metadata document. */
    const sessionRow = (s: IndexedSession, meta: Doc | null, firstDoc: Doc | null): Row => {
      const root = nonEmptyString(meta?.workspace_root) ?? nonEmptyString(firstDoc?.workspace_root);
      return rowFor(source, file, {
        source_line: null,
        timestamp_utc: meta ? epochMs(meta.started_at) : null,
        session_id: s.session_id,
        project_path: root,
        turn_type: 'system',
        kind: 'search_index_session',
        text:
          `session search index: title=${show(nonEmptyString(s.title) ?? nonEmptyString(meta?.title))} workspace_root=${show(root)}` +
          ` prompt=${show(meta ? textOf(meta.content) : null)} document_count=${show(s.document_count)}` +
          ` indexed_at=${show(s.indexed_at)}`,
      });
    };

    if (!hasSearch) {
      yield parserRow(source, file, null, 'no session_search table; indexed_sessions read alone');
      for (const s of indexed.values()) yield sessionRow(s, null, null);
      return;
    }

    let docs: IterableIterator<Doc>;
    try {
      const stmt = db.prepare(
        `SELECT session_id, document_id, ordinal, role, started_at, workspace_root, title, content FROM session_search ` +
          `WHERE session_id IS NOT NULL ORDER BY session_id, CAST(ordinal AS INTEGER)${hasRowid(db, 'session_search') ? ', rowid' : ''}`,
      );
      docs = stmt.iterate() as IterableIterator<Doc>;
    } catch (err) {
      if (/no such module/i.test(message(err))) {
        yield rowFor(source, file, { turn_type: 'system', kind: 'search_index_no_fts5', text: NO_FTS5_TEXT });
        for (const s of indexed.values()) yield sessionRow(s, null, null);
        return;
      }
      throw err;
    }

    // Merge the ordered document stream with the indexed sessions (both ordered by session_id in SQL).
    let pending: Doc[] = [];
    let current: string | null = null;
    const flush = function* (sid: string, group: Doc[]): Generator<Row> {
      const metaId = `${sid}:metadata`;
      const meta = group.find((d) => d.document_id === metaId) ?? null;
      const messages = group
        .map((d) => ({ ...d, ordinal: ordinalOf(d.ordinal) }))
        .filter((d): d is Doc & { ordinal: number } => d.ordinal !== null && d.ordinal >= 0 && d.document_id !== metaId);
      // A session with documents but no indexed_sessions row still gets its session row, from its documents.
      const s = indexed.get(sid) ?? { session_id: sid, indexed_at: null, document_count: null, title: null };
      yield sessionRow(s, meta, messages[0] ?? null);
      indexed.delete(sid);
      for (const d of messages) {
        yield rowFor(source, file, {
          source_line: d.ordinal + 1,
          timestamp_utc: null,
          session_id: sid,
          project_path: nonEmptyString(d.workspace_root) ?? nonEmptyString(meta?.workspace_root),
          kind: 'search_document',
          ...searchDocumentFields(d.role, textOf(d.content)),
        });
      }
    };
    /**
     * Session rows of indexed sessions without documents that sort before `sid`. JS and SQLite order
     * ASCII ids alike; for exotic ids a row may come out of order, never be lost (see the final call).
     */
    const before = function* (sid: string | null): Generator<Row> {
      for (const [id, s] of indexed) {
        if (sid !== null && !(id < sid)) break;
        yield sessionRow(s, null, null);
        indexed.delete(id);
      }
    };
    for (const d of docs) {
      const sid = String(d.session_id);
      if (sid !== current) {
        if (current !== null) yield* flush(current, pending);
        yield* before(sid);
        current = sid;
        pending = [];
      }
      pending.push(d);
    }
    if (current !== null) yield* flush(current, pending);
    yield* before(null);
  } catch (err) {
    const own = copy.ownFault(err);
    if (own) throw own;
    yield parserRow(source, file, null, `reading the search index failed: ${message(err)}`);
  }
}
