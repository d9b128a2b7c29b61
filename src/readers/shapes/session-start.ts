/**
 * The rows an SDK session's record yields at its start, whether the record is the manifest
 * `<id>.json`, its `sessions.db` row or a session record of the hub event log: the session start
 * row, the `model:` row and, when the enterprise upload marker is set, the `session synced:` row
 * (store specification, "Model rows", "Sync, relay and origin rows", "Imported sessions").
 */
import type { RowFields } from '../../core/row.js';
import { epochMs, wholeNumber, plainObject, show, nonEmptyString } from '../common/values.js';

/** The fields of a session record that the start rows use, from a manifest or a sessions.db row. */
export interface SessionRecord {
  session_id: string;
  source: string | null;
  status: string | null;
  pid: number | null;
  started_at: unknown;
  ended_at: unknown;
  exit_code: number | null;
  cwd: string | null;
  workspace_root: string | null;
  provider: string | null;
  model: string | null;
  prompt: string | null;
  metadata: Record<string, unknown> | null;
}

/** Where the record came from, as the sync row's `(from ...)` suffix names it. */
export type SessionRecordOrigin = 'manifest' | 'sessions.db' | 'hub event log';

/** The enterprise upload target of a session's metadata (`enterprise.blobUpload`), or null. */
export function blobUploadOf(metadata: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!metadata) return null;
  return plainObject(metadata['enterprise.blobUpload']) ?? plainObject(plainObject(metadata.enterprise)?.blobUpload);
}

/** The git branch a session's metadata records (`metadata.git.branch`, written by the 3.x CLI), or null. */
export function gitBranchOf(metadata: Record<string, unknown> | null): string | null {
  return nonEmptyString(plainObject(metadata?.git)?.branch);
}

/** `session start: ...`, `model: ...` and the optional `session synced: ...` rows, in that order. */
export function sessionStartFields(record: SessionRecord, origin: SessionRecordOrigin): RowFields[] {
  const started = epochMs(record.started_at);
  const project = record.cwd ?? record.workspace_root;
  const meta = record.metadata;
  const common = { timestamp_utc: started, session_id: record.session_id, project_path: project, git_branch: gitBranchOf(meta) };
  const title = nonEmptyString(meta?.title) ?? null;
  let text =
    `session start: source=${show(record.source)} status=${show(record.status)} pid=${show(record.pid)}` +
    ` cwd=${show(record.cwd)} workspace_root=${show(record.workspace_root)} title=${show(title)}`;
  const imported = plainObject(meta?.importedFrom);
  const importedFrom = imported ? show(imported.tool) : null;
  if (imported) {
    text +=
      ` imported_from=${show(imported.tool)} imported_session=${show(imported.sourceSessionId)}` +
      ` imported_path=${show(imported.sourcePath)} imported_at=${show(imported.importedAt)}` +
      ` imported_provider=${show(imported.sourceProvider)} imported_model=${show(imported.sourceModel)}`;
  }
  // the session's own setting of whether a human can answer its approvals (the 3.x CLI's one-shot runs: false)
  const interactive = typeof meta?.interactive === 'boolean' ? String(meta.interactive) : null;
  if (interactive !== null) text += ` interactive=${interactive}`;
  const rows: RowFields[] = [
    {
      ...common,
      turn_type: 'system',
      kind: 'session_start',
      text,
      model: record.model,
      provider: record.provider,
      imported_from: importedFrom,
      setting_name: interactive === null ? null : 'interactive',
      setting_value: interactive,
    },
    {
      ...common,
      turn_type: 'system',
      kind: 'model',
      text: `model: ${show(record.model)} provider=${show(record.provider)}`,
      model: record.model,
      provider: record.provider,
    },
  ];
  const upload = blobUploadOf(meta);
  if (upload) {
    const storage = plainObject(upload.storage) ?? {};
    const target =
      `${show(storage.adapterType)} bucket ${show(storage.bucket)}` +
      ` object sessions/${nonEmptyString(upload.userDistinctId) ?? 'unknown'}/${record.session_id}/messages.json`;
    const from =
      origin === 'manifest'
        ? `${record.session_id}.json metadata enterprise.blobUpload, started_at`
        : origin === 'sessions.db'
          ? 'sessions.db sessions.metadata_json enterprise.blobUpload, started_at'
          : 'hub event log session metadata enterprise.blobUpload, createdAt';
    rows.push({
      ...common,
      turn_type: 'system',
      kind: 'sync',
      model: record.model,
      provider: record.provider,
      sync_target: target,
      text:
        `session synced: enterprise prompt upload to ${target}` +
        ` endpoint=${show(storage.endpoint)} region=${show(storage.region)} account=${show(storage.accountId)}` +
        ` (from ${from})`,
    });
  }
  const ended = epochMs(record.ended_at);
  if (ended !== null) {
    rows.push({
      ...common,
      timestamp_utc: ended,
      turn_type: 'system',
      kind: 'session_end',
      text: `session end: status=${show(record.status)} exit_code=${show(record.exit_code)}`,
      model: record.model,
      provider: record.provider,
    });
  }
  return rows;
}

/** A SessionRecord from an untrusted object with the manifest's / sessions.db's field names. */
export function sessionRecordFrom(value: Record<string, unknown>, sessionId: string, metadata: unknown): SessionRecord {
  return {
    session_id: nonEmptyString(value.session_id) ?? sessionId,
    source: nonEmptyString(value.source),
    status: nonEmptyString(value.status),
    pid: wholeNumber(value.pid),
    started_at: value.started_at,
    ended_at: value.ended_at,
    exit_code: wholeNumber(value.exit_code),
    cwd: nonEmptyString(value.cwd),
    workspace_root: nonEmptyString(value.workspace_root),
    provider: nonEmptyString(value.provider),
    model: nonEmptyString(value.model),
    prompt: nonEmptyString(value.prompt),
    metadata: plainObject(metadata),
  };
}
