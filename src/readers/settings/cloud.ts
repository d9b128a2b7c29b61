/**
 * The Cline Cloud rows of the `settings` store (store specification "Sync, relay and origin rows";
 * cline-formats §4.4 and §4.7): globalState.json `cloudSessionStatuses` (an origin and a sync row per
 * session, at observedAt) and `cloudTaskTarget`, and the `cloud-pending-starts/<pid>-<uuid>.json`
 * records (an origin and a sync row per record, at the file's mtime, which is refreshed every 20 s).
 */
import type { RowFields } from '../../core/row.js';
import { epochMs, plainObject, show, nonEmptyString } from '../common/values.js';

/** The fields of one row, or a part of the file that could not be read (its 1-based position, if any). */
export type CloudItem = { fields: RowFields } | { problem: string; position: number | null };

/** `session synced: cline-cloud holds session <id>, no local transcript (from <where>)`. */
function syncedText(sessionId: string, where: string): string {
  return `session synced: cline-cloud holds session ${sessionId}, no local transcript (from ${where})`;
}

/** One `cloud_task_target` row at the file's mtime, when globalState.json has a cloudTaskTarget. */
export function* cloudTaskTargetItems(
  state: Record<string, unknown>,
  from: string,
  mtimeMs: number | null,
): Generator<CloudItem> {
  if (state.cloudTaskTarget === undefined) return;
  const target = plainObject(state.cloudTaskTarget);
  if (!target) {
    yield { problem: 'cloudTaskTarget is not an object', position: null };
    return;
  }
  yield {
    fields: {
      timestamp_utc: mtimeMs,
      timestamp_source: 'file_mtime' as const,
      turn_type: 'system',
      kind: 'cloud_task_target',
      text: `cloud task target: target=${show(target.target)} repository_id=${show(target.repositoryId)} branch=${show(target.branch)} (from ${from}, file mtime)`,
    },
  };
}

/** An `origin` and a `sync` row per cloudSessionStatuses entry, at its observedAt. */
export function* cloudSessionStatusItems(state: Record<string, unknown>, from: string): Generator<CloudItem> {
  if (state.cloudSessionStatuses === undefined) return;
  const statuses = plainObject(state.cloudSessionStatuses);
  if (!statuses) {
    yield { problem: 'cloudSessionStatuses is not an object', position: null };
    return;
  }
  const where = `${from} cloudSessionStatuses, observedAt`;
  let position = 0;
  for (const [sessionId, value] of Object.entries(statuses)) {
    position += 1;
    const entry = plainObject(value);
    if (!entry) {
      yield { problem: `cloudSessionStatuses ${sessionId} is not an object`, position };
      continue;
    }
    const common = {
      source_line: position,
      timestamp_utc: epochMs(entry.observedAt),
      session_id: sessionId,
      turn_type: 'system' as const,
    };
    yield {
      fields: {
        ...common,
        source_seq: 0,
        kind: 'origin',
        session_origin: 'remote',
        text: `session origin: remote cline-cloud session ${sessionId} status ${show(entry.status)} (from ${where})`,
      },
    };
    yield { fields: { ...common, source_seq: 1, kind: 'sync', sync_target: 'cline-cloud', text: syncedText(sessionId, where) } };
  }
}

/** An `origin` and a `sync` row per pending-start record with a sessionId, at the file's mtime. */
export function* pendingStartItems(records: unknown[], from: string, mtimeMs: number | null): Generator<CloudItem> {
  const where = `${from}, file mtime`;
  for (const [index, value] of records.entries()) {
    const position = index + 1;
    const record = plainObject(value);
    const sessionId = nonEmptyString(record?.sessionId);
    if (!record || !sessionId) {
      yield { problem: `record ${position} has no sessionId`, position };
      continue;
    }
    const common = {
      source_line: position,
      timestamp_utc: mtimeMs,
      timestamp_source: 'file_mtime' as const,
      session_id: sessionId,
      turn_type: 'system' as const,
    };
    yield {
      fields: {
        ...common,
        source_seq: 0,
        kind: 'origin',
        session_origin: 'remote',
        text: `session origin: remote cline-cloud session ${sessionId} sandbox start pending account=${show(nonEmptyString(record.account))} endpoint=${show(nonEmptyString(record.endpoint))} (from ${where})`,
      },
    };
    yield { fields: { ...common, source_seq: 1, kind: 'sync', sync_target: 'cline-cloud', text: syncedText(sessionId, where) } };
  }
}
