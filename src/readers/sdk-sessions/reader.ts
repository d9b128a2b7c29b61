/**
 * Store `sdk-sessions`: the SDK session folders `~/.cline/data/sessions/<id>/` (cline-formats.md §2; spec 002
 * "SDK manifest", "SDK messages file", "Parser plan", "Model rows", "Sync, relay and origin rows",
 * "Imported sessions"). Per folder, in order: the manifest `<id>.json` (session start, model, optional
 * sync and session end rows, shared with the sessions.db reader through readers/shapes/session-start.ts), the lead
 * transcript `<id>.messages.json`, then every other `*.messages.json` (subagents, teammates), sorted.
 * Compaction sidecars `*.compaction.json` repeat the transcript and are not read.
 */
import * as path from 'node:path';
import { readJsonFile } from '../parse/json-file.js';
import type { Row, Source } from '../../core/row.js';
import { guardFile, parserRow, rowFor } from '../common/rows.js';
import { readSdkMessages, type TranscriptContext } from '../shapes/sdk-messages.js';
import { gitBranchOf, sessionRecordFrom, sessionStartFields } from '../shapes/session-start.js';
import { epochMs, plainObject } from '../common/values.js';

const MESSAGES_SUFFIX = '.messages.json';
const COMPACTION_SUFFIX = '.compaction.json';

/** Rows of every session folder among `source.files`, folder by folder in path order. Never throws. */
export async function* readSdkSessions(source: Source): AsyncGenerator<Row> {
  for (const [folder, files] of groupByFolder(source.files)) {
    yield* readSessionFolder(source, folder, files);
  }
}

/** The files of each folder, folders in first-seen order (the files come sorted), names sorted. */
function groupByFolder(files: string[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const file of files) {
    const folder = path.dirname(file);
    const list = groups.get(folder) ?? [];
    list.push(file);
    groups.set(folder, list);
  }
  for (const list of groups.values()) list.sort();
  return groups;
}

async function* readSessionFolder(source: Source, folder: string, files: string[]): AsyncGenerator<Row> {
  const sessionId = path.basename(folder);
  const manifestFile = path.join(folder, `${sessionId}.json`);
  const leadFile = path.join(folder, `${sessionId}${MESSAGES_SUFFIX}`);
  const lead: TranscriptContext = {
    session_id: sessionId,
    project_path: null,
    started_ms: null,
    model: null,
    provider: null,
    git_branch: null,
  };
  const others: string[] = [];
  const unknown: string[] = [];
  let hasLead = false;

  for (const file of files) {
    const name = path.basename(file);
    if (file === manifestFile || name.endsWith(COMPACTION_SUFFIX)) continue;
    if (file === leadFile) hasLead = true;
    else if (name.endsWith(MESSAGES_SUFFIX)) others.push(file);
    else unknown.push(file);
  }

  if (files.includes(manifestFile)) yield* guardFile(source, manifestFile, readManifest(source, manifestFile, lead));

  const transcripts: [string, TranscriptContext][] = hasLead ? [[leadFile, lead]] : [];
  for (const file of others.sort()) transcripts.push([file, { ...lead, model: null, provider: null }]);
  for (const [file, context] of transcripts) yield* guardFile(source, file, readSdkMessages(source, file, context));
  for (const file of unknown) {
    yield parserRow(source, file, null, 'not a session manifest or messages file; not read', { session_id: sessionId });
  }
}

/** The start rows of a session manifest `<id>.json`; fills the lead transcript's context from it. */
async function* readManifest(source: Source, manifestFile: string, lead: TranscriptContext): AsyncGenerator<Row> {
  const sessionId = path.basename(path.dirname(manifestFile));
  const result = await readJsonFile(manifestFile);
  const manifest = result.ok ? plainObject(result.value) : null;
  if (!result.ok) {
    yield parserRow(source, manifestFile, null, `manifest not read: ${result.message}`, { session_id: sessionId });
  } else if (!manifest) {
    yield parserRow(source, manifestFile, null, 'manifest is not a JSON object', { session_id: sessionId });
  } else {
    if (result.repair) yield parserRow(source, manifestFile, null, result.repair, { session_id: sessionId });
    const record = sessionRecordFrom(manifest, sessionId, manifest.metadata);
    const fields = sessionStartFields(record, 'manifest');
    for (let seq = 0; seq < fields.length; seq++) {
      yield rowFor(source, manifestFile, { ...fields[seq], source_line: 1, source_seq: seq });
    }
    lead.project_path = record.cwd ?? record.workspace_root;
    lead.started_ms = epochMs(record.started_at);
    lead.model = record.model;
    lead.provider = record.provider;
    lead.git_branch = gitBranchOf(record.metadata);
  }
}
