/**
 * `locks` store: which Cline process held what, under `~/.cline/data`.
 *
 * - `locks.db` (CLI 1.x and the standalone core: `SqliteLockManager`, apps/vscode/src/core/locks/ at
 *   cline-formats H): `locks(id, held_by, lock_type file|instance|folder, lock_target, locked_at ms)`. An
 *   `instance` lock is a running core (held_by its address, lock_target its host's); a `folder` lock is a
 *   task being worked on (lock_target `~/.cline/data/tasks/<task id>`, held by the core's address), whose
 *   task id becomes `session_id`. Rows are removed when released, so a row left is a holder that did not
 *   exit cleanly or a live one. One `lock` row per record at locked_at.
 * - `locks/hub/` (3.x hub daemon: sdk/packages/core/src/hub/discovery/{index,instance-lock}.ts):
 *   - `<name>.json` (`production.json`, `owners/hub-<hash>.json`): the discovery record of a serving hub
 *     (hubId, url, host, port, pid, versions, startedAt, updatedAt, and an `authToken`, which is never
 *     read into a row). One `hub_discovery` row at startedAt.
 *   - `<name>.lock/owner.json` (also `<name>.mutation.lock/`): `{pid, acquiredAt}` of the process holding
 *     the short startup or discovery mutex, removed on release: one left behind names a process killed
 *     while holding it. One `hub_lock_owner` row at acquiredAt.
 *   - `<name>.instance.lock`: an SQLite file a serving hub holds in a never-committed exclusive
 *     transaction (empty, or an SQLite header). One `hub_instance_lock` row at the file's mtime; any other
 *     content is a `parser:` row.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Row, Source } from '../../core/row.js';
import { openEvidence } from '../../evidence/file-chunks.js';
import { readJsonFile } from '../parse/json-file.js';
import { homePath } from '../common/home-path.js';
import { guardFile, parserRow, rowFor } from '../common/rows.js';
import { readEvidenceDatabases } from '../common/sqlite-evidence.js';
import { field, type RecordRow, readTables, type TableSpec, textOf, timeField } from '../common/sqlite-tables.js';
import { epochMs, label, plainObject } from '../common/values.js';

const LOCK_COLUMNS = ['held_by', 'lock_type', 'lock_target', 'locked_at'] as const;
/** One `locks` record of locks.db. */
type LockRecord = Record<(typeof LOCK_COLUMNS)[number], unknown>;

function* lockRows(raw: Record<string, unknown>): Generator<RecordRow> {
  const r = raw as LockRecord;
  const target = textOf(r.lock_target);
  const task = target === null || r.lock_type !== 'folder' ? null : /(?:^|\/)tasks\/([^/]+)\/?$/.exec(target);
  yield {
    session_id: task?.[1] ?? null,
    timestamp_utc: epochMs(r.locked_at),
    turn_type: 'system',
    kind: 'lock',
    text: `lock: ${textOf(r.lock_type) ?? '-'} ${field('target', target)} ${field('held_by', r.held_by)} ${timeField('locked', r.locked_at)}`,
  };
}

const TABLES: TableSpec[] = [{ table: 'locks', columns: LOCK_COLUMNS, rows: lockRows }];

/** The fields a hub discovery record's row prints; `authToken` is not among them. */
const DISCOVERY_FIELDS = ['hubId', 'url', 'host', 'port', 'pid', 'coreVersion', 'buildId', 'protocolVersion'] as const;

/** A read problem of a file that holds a token: I/O errors and size limits as they are, syntax errors never quoting the file. */
function safeProblem(message: string): string {
  if (message === 'empty file' || message.startsWith('file of ') || /^E[A-Z]+: /.test(message)) return message;
  return 'not valid JSON';
}

/** One `hub_discovery` row, or a `parser:` row. */
async function* discoveryRows(source: Source, file: string): AsyncGenerator<Row> {
  const result = await readJsonFile(file);
  if (!result.ok) {
    yield parserRow(source, file, null, safeProblem(result.message));
    return;
  }
  if (result.repair) yield parserRow(source, file, null, result.repair);
  const record = plainObject(result.value);
  if (record === null) {
    yield parserRow(source, file, null, 'not a JSON object');
    return;
  }
  const shown = DISCOVERY_FIELDS.map(
    (k) => `${k}=${record[k] === undefined || record[k] === null ? '-' : label(record[k])}`,
  ).join(' ');
  yield rowFor(source, file, {
    timestamp_utc: epochMs(record.startedAt) ?? epochMs(record.updatedAt),
    turn_type: 'system',
    kind: 'hub_discovery',
    text:
      `hub discovery: ${shown} ${timeField('started', record.startedAt)} ${timeField('updated', record.updatedAt)}` +
      ` (from ${homePath(source, file)}; authToken not read)`,
  });
}

/** One `hub_lock_owner` row, or a `parser:` row. */
async function* ownerRows(source: Source, file: string): AsyncGenerator<Row> {
  const result = await readJsonFile(file);
  if (!result.ok) {
    yield parserRow(source, file, null, result.message);
    return;
  }
  if (result.repair) yield parserRow(source, file, null, result.repair);
  const record = plainObject(result.value);
  if (record === null) {
    yield parserRow(source, file, null, 'not a JSON object');
    return;
  }
  const lock = homePath(source, path.dirname(file));
  yield rowFor(source, file, {
    timestamp_utc: epochMs(record.acquiredAt),
    turn_type: 'system',
    kind: 'hub_lock_owner',
    text: `hub lock owner: ${lock} pid=${record.pid === undefined ? '-' : label(record.pid)} ${timeField('acquired', record.acquiredAt)}`,
  });
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** One `hub_instance_lock` row at the file's mtime, or a `parser:` row for a file that is not an SQLite lock. */
async function* instanceLockRows(source: Source, file: string): AsyncGenerator<Row> {
  const fd = openEvidence(file);
  let size: number;
  let mtimeMs: number;
  const head = Buffer.alloc(SQLITE_HEADER.length);
  let got = 0;
  try {
    const st = fs.fstatSync(fd);
    size = st.size;
    mtimeMs = Math.trunc(st.mtimeMs);
    if (size > 0) got = fs.readSync(fd, head, 0, head.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (size > 0 && (got < SQLITE_HEADER.length || !head.equals(SQLITE_HEADER))) {
    yield parserRow(source, file, null, `not an SQLite lock file (${size} bytes without the "SQLite format 3" header)`);
    return;
  }
  yield rowFor(source, file, {
    timestamp_utc: mtimeMs,
    timestamp_source: 'file_mtime',
    turn_type: 'system',
    kind: 'hub_instance_lock',
    text: `hub instance lock: ${homePath(source, file)} (${size} bytes; held by a serving hub while it runs; file mtime)`,
  });
}

type LockFileReader = (source: Source, file: string) => AsyncGenerator<Row>;

/** The reader of a file under `locks/hub/`, by its name; null for a file this reader does not know. */
function hubFileReader(relative: string): LockFileReader | null {
  if (/\.lock\/owner\.json$/.test(relative)) return ownerRows;
  if (relative.endsWith('.instance.lock')) return instanceLockRows;
  if (relative.endsWith('.json')) return discoveryRows;
  return null;
}

/** Rows of the locks store: locks.db first (file order), then each file under locks/hub/. */
export async function* readLocks(source: Source): AsyncGenerator<Row> {
  const isDb = (f: string) => path.basename(f).startsWith('locks.db');
  const dbFiles = source.files.filter(isDb);
  if (dbFiles.length > 0) {
    yield* readEvidenceDatabases({ ...source, files: dbFiles }, 'locks.db', (copy, file) =>
      readTables(source, copy, file, TABLES),
    );
  }
  for (const file of source.files.filter((f) => !isDb(f))) {
    const relative = path.relative(source.root, file).split(path.sep).join('/');
    const read = hubFileReader(relative);
    if (read === null) yield parserRow(source, file, null, 'not a lock file this reader knows');
    else yield* guardFile(source, file, read(source, file));
  }
}
