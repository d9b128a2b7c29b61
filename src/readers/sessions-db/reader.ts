/**
 * Reader of `~/.cline/data/db/sessions.db` (cline-formats.md §3.1): one session record per `sessions`
 * row, read exactly as a manifest is (session start, model, optional sync and session end rows) with
 * the origin `sessions.db`. The SQL layer keeps these rows only for sessions whose manifest is gone.
 *
 * The db is read through a private copy (sqlite-copy.ts). Older schemas lack the columns the legacy
 * migrations add (workspace_root, metadata_json, ...): only existing columns are selected and the
 * absent ones read as null.
 *
 * Rows come in rowid order and `source_line` is the rowid. A `sessions` table declared `WITHOUT ROWID`
 * has none: its rows come in primary-key (session_id) order and `source_line` is the 1-based position
 * in that order.
 */
import * as path from 'node:path';
import type { Row, Source } from '../../core/row.js';
import { parserRow, rowFor } from '../common/rows.js';
import { sessionRecordFrom, sessionStartFields } from '../shapes/session-start.js';
import { columnsOf, hasTable, ident, storedOrder, type PrivateCopy } from '../../evidence/sqlite-copy.js';
import { readEvidenceDatabases } from '../common/sqlite-evidence.js';
import { plainObject, nonEmptyString } from '../common/values.js';

/** The `sessions` columns the start rows use. */
const WANTED = [
  'session_id',
  'source',
  'pid',
  'started_at',
  'ended_at',
  'exit_code',
  'status',
  'cwd',
  'workspace_root',
  'provider',
  'model',
  'prompt',
  'metadata_json',
] as const;

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Rows of every sessions.db of the source, in file order, then rowid (or key) order. */
export async function* readSessionsDb(source: Source): AsyncGenerator<Row> {
  yield* readEvidenceDatabases(source, 'sessions.db', (copy, file) => readOne(source, copy, file));
}

async function* readOne(source: Source, copy: PrivateCopy, file: string): AsyncGenerator<Row> {
  let lastRowid: number | null = null;
  let byRowid = true;
  try {
    const db = copy.db;
    if (!hasTable(db, 'sessions')) {
      yield parserRow(source, file, null, `no sessions table (unknown schema; ${path.basename(file)})`);
      return;
    }
    const present = columnsOf(db, 'sessions');
    const cols = WANTED.filter((c) => present.has(c));
    const order = storedOrder(db, 'sessions');
    byRowid = order === 'rowid';
    const select = [...(byRowid ? ['rowid AS "__rowid"'] : []), ...cols.map(ident)].join(', ');
    const stmt = db.prepare(`SELECT ${select} FROM sessions ORDER BY ${order}`);
    let position = 0;
    for (const raw of stmt.iterate() as IterableIterator<Record<string, unknown>>) {
      position += 1;
      const rowid = byRowid ? Number(raw.__rowid) : position;
      lastRowid = rowid;
      const values: Record<string, unknown> = {};
      for (const c of WANTED) values[c] = raw[c] ?? null;
      const sessionId = nonEmptyString(values.session_id);
      if (sessionId === null) {
        yield parserRow(source, file, rowid, 'sessions row without a session_id, skipped');
        continue;
      }
      let metadata: unknown = null;
      let problem: string | null = null;
      const metaText = values.metadata_json;
      if (typeof metaText === 'string' && metaText.trim() !== '') {
        try {
          metadata = JSON.parse(metaText);
          if (plainObject(metadata) === null) problem = 'sessions.metadata_json is not a JSON object';
        } catch (err) {
          problem = `sessions.metadata_json is not valid JSON: ${message(err)}`;
        }
      } else if (metaText !== null && typeof metaText !== 'string') {
        problem = `sessions.metadata_json is not text (${typeof metaText})`;
      }
      const record = sessionRecordFrom(values, sessionId, metadata);
      const fields = sessionStartFields(record, 'sessions.db');
      let seq = 0;
      for (const f of fields) {
        yield rowFor(source, file, { ...f, session_id: sessionId, source_line: rowid, source_seq: seq++ });
      }
      if (problem !== null) {
        yield parserRow(source, file, rowid, problem, {
          session_id: sessionId,
          source_seq: seq++,
          timestamp_utc: fields[0]?.timestamp_utc ?? null,
          project_path: fields[0]?.project_path ?? null,
        });
      }
    }
  } catch (err) {
    const own = copy.ownFault(err);
    if (own) throw own;
    const where = lastRowid === null ? '' : ` after ${byRowid ? 'rowid' : 'row'} ${lastRowid}`;
    yield parserRow(source, file, null, `reading sessions failed${where}: ${message(err)}`);
  }
}
