/**
 * `workspace-state` store: the per-workspace state of the legacy engine under `~/.cline/data`:
 * `workspace/workspaceState.json` (CLI 1.x, JetBrains: one folder, `WORKSPACE_STORAGE_DIR` of the host)
 * and `workspaces/<hash>/workspaceState.json` (CLI 2.x; cline-formats.md §4.4). One flat JSON object,
 * rewritten whole (apps/vscode/src/shared/storage/storage-context.ts at cline-formats H). Its keys are the
 * workspace's rule and workflow toggles (`localClineRulesToggles`, `localCursorRulesToggles`,
 * `localWindsurfRulesToggles`, `localAgentsRulesToggles`, `localSkillsToggles`, `workflowToggles`), each
 * `{"<absolute file path>": enabled}`: which rule files (`.clinerules/`, `.cursorrules`, `AGENTS.md`, ...)
 * and workflows were fed to the agent in that workspace, the place a planted rule would show.
 *
 * `<hash>` is `hashString(workspace path)` (a 32-bit JS string hash in hex); the path itself is not
 * recorded. A toggled file's ancestor folder whose hash is `<hash>` is the workspace, and fills
 * `project_path`. The file records no time: rows are at its mtime.
 *
 * Rows (`source_line` the key's 1-based position in the file, `source_seq` the entry's in its map): one `workspace_state` row per file (`workspace state: workspace=<hash> path=<path or -> keys=<key>(<n>),...`),
 * one `rule_toggle` row per toggle entry (`rule toggle: <key> <file>=true|false`), and one
 * `workspace_state_key` row per other key (`workspace state key: <key>=<value, cut at 300 characters>`).
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Row, Source } from '../../core/row.js';
import { readJsonFile } from '../parse/json-file.js';
import { shortenAtTokenBoundary } from '../parse/quote.js';
import { homePath } from '../common/home-path.js';
import type { Reader } from '../common/rows.js';
import { eachFile, parserRow, rowFor } from '../common/rows.js';
import { plainObject, show } from '../common/values.js';

/** Most entries of one toggle map read into rows; more are counted in the file's row. */
const MAX_TOGGLES = 5000;

/** Cline's `hashString` (storage-context.ts): 32-bit `(h << 5) - h + c` over UTF-16 units, `abs` in hex, 8 digits at most. */
export function workspaceHash(text: string): string {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = ((hash << 5) - hash + text.charCodeAt(i)) | 0;
  return Math.abs(hash).toString(16).substring(0, 8);
}

/** The ancestor folder of `file` whose hash is `hash` (the workspace), or null. */
function workspaceOf(file: string, hash: string): string | null {
  const sep = file.includes('\\') && !file.includes('/') ? '\\' : '/';
  const parts = file.split(sep);
  for (let n = parts.length - 1; n > 0; n--) {
    const folder = parts.slice(0, n).join(sep) || sep;
    if (workspaceHash(folder) === hash) return folder;
  }
  return null;
}

/** A toggle map: an object whose values are all booleans. */
function toggles(value: unknown): Record<string, unknown> | null {
  const record = plainObject(value);
  if (record === null) return null;
  for (const v of Object.values(record)) if (typeof v !== 'boolean') return null;
  return record;
}

async function* readWorkspaceStateFile(source: Source, file: string): AsyncGenerator<Row> {
  const result = await readJsonFile(file);
  if (!result.ok) {
    yield parserRow(source, file, null, result.message);
    return;
  }
  if (result.repair) yield parserRow(source, file, null, result.repair);
  const state = plainObject(result.value);
  if (state === null) {
    yield parserRow(source, file, null, 'not a JSON object');
    return;
  }
  const mtimeMs = await fs.stat(file).then(
    (st) => Math.trunc(st.mtimeMs),
    () => null,
  );
  const parts = path.relative(source.root, file).split(path.sep);
  const hash = parts.length === 3 && parts[0] === 'workspaces' ? parts[1] : null;
  let workspace: string | null = null;
  if (hash !== null) {
    for (const value of Object.values(state)) {
      for (const toggled of Object.keys(toggles(value) ?? {}).slice(0, MAX_TOGGLES)) {
        workspace = workspaceOf(toggled, hash);
        if (workspace !== null) break;
      }
      if (workspace !== null) break;
    }
  }
  const from = `(from ${homePath(source, file)}, file mtime)`;
  const common = {
    timestamp_utc: mtimeMs,
    timestamp_source: 'file_mtime' as const,
    project_path: workspace,
    turn_type: 'system' as const,
  };
  const keys = Object.entries(state).map(([k, v]) => {
    const map = toggles(v);
    return map === null ? k : `${k}(${Object.keys(map).length})`;
  });
  yield rowFor(source, file, {
    ...common,
    kind: 'workspace_state',
    text: `workspace state: workspace=${hash ?? '-'} path=${workspace ?? '-'} keys=${keys.join(',') || '(none)'} ${from}`,
  });
  let position = 0;
  for (const [key, value] of Object.entries(state)) {
    position += 1;
    const map = toggles(value);
    if (map === null) {
      yield rowFor(source, file, {
        ...common,
        source_line: position,
        kind: 'workspace_state_key',
        text: `workspace state key: ${key}=${shortenAtTokenBoundary(show(value), 300)} ${from}`,
      });
      continue;
    }
    let seq = 0;
    for (const [toggled, enabled] of Object.entries(map).slice(0, MAX_TOGGLES)) {
      yield rowFor(source, file, {
        ...common,
        source_line: position,
        source_seq: seq++,
        kind: 'rule_toggle',
        text: `rule toggle: ${key} ${toggled}=${enabled} ${from}`,
      });
    }
  }
}

/** Rows of every workspaceState.json of the source; see the module comment. */
export const readWorkspaceState: Reader = eachFile(readWorkspaceStateFile);
