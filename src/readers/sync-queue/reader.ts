/**
 * `sync-queue` store: the VS Code extension's enterprise prompt upload queue
 * `<globalStorage>/saoudrizwan.claude-dev/cache/sync-queue.json` (store specification "Enterprise
 * upload queue", "Sync, relay and origin rows"; cline-formats §4.3).
 *
 * Shape: `{items: {"<taskId>/<key>": {id, taskId, key, data, timestamp: ms, status, retryCount,
 * lastError}}}`. One `sync` system row per item at its timestamp, session_id the taskId; project_path
 * is left to SQL (taskHistory). `data` (a whole task file) and `lastError` are never printed.
 */
import type { Row, Source } from '../../core/row.js';
import type { Reader } from '../common/rows.js';
import { eachFile, parserRow, rowFor } from '../common/rows.js';
import { readJsonFile } from '../parse/json-file.js';
import { storePath } from '../common/home-path.js';
import { epochMs, plainObject, show, nonEmptyString } from '../common/values.js';

/** Where a synced item's transcript went (`enterprise upload queue: <key>`); null until it is synced. */
export function syncItemTarget(item: Record<string, unknown>): string | null {
  return nonEmptyString(item.status) === 'synced' ? `enterprise upload queue: ${show(nonEmptyString(item.key))}` : null;
}

/** The row text of one queue item; `-` for an absent or empty value. */
export function syncItemText(item: Record<string, unknown>, from: string): string {
  const status = nonEmptyString(item.status);
  const detail = `key ${show(nonEmptyString(item.key))} retries ${show(item.retryCount)} (from ${from}, item timestamp)`;
  if (status === 'synced') return `session synced: enterprise prompt upload synced ${detail}`;
  return `enterprise prompt upload ${show(status)} ${detail}`;
}

/** One `sync` row per queue item in key order; a file without an `items` object is one `parser:` row. */
export const readSyncQueue: Reader = eachFile(readQueueFile);

async function* readQueueFile(source: Source, file: string): AsyncGenerator<Row> {
  const result = await readJsonFile(file);
  if (!result.ok) {
    yield parserRow(source, file, null, result.message);
    return;
  }
  if (result.repair) yield parserRow(source, file, null, result.repair);
  const items = plainObject(plainObject(result.value)?.items);
  if (!items) {
    yield parserRow(source, file, null, 'not a JSON object with an items object');
    return;
  }
  const from = storePath(source, file);
  let position = 0;
  for (const [key, value] of Object.entries(items)) {
    position += 1;
    const item = plainObject(value);
    if (!item) {
      yield { ...parserRow(source, file, null, `item ${key} is not an object`), source_line: position };
      continue;
    }
    const slash = key.indexOf('/');
    yield rowFor(source, file, {
      source_line: position,
      timestamp_utc: epochMs(item.timestamp),
      session_id: nonEmptyString(item.taskId) ?? (slash > 0 ? key.slice(0, slash) : null),
      turn_type: 'system',
      kind: 'sync',
      sync_target: syncItemTarget(item),
      text: syncItemText(item, from),
      is_error: item.status === 'failed',
    });
  }
}
