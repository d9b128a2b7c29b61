/**
 * `tasks/<id>/settings.json` of a legacy task (cline-formats.md §7.15): the settings a task overrides for
 * itself, `Partial<Settings>` (apps/vscode/src/core/storage/disk.ts `writeTaskSettingsToStorage`,
 * `StateManager.setTaskSettings*`, keys in apps/vscode/src/shared/storage/state-keys.ts SETTINGS_FIELDS, at
 * cline-formats L). Written by CLI 1.x for every task (the real files: `{"openAiHeaders": {},
 * "yoloModeToggled": true}`) and by the legacy extension: a per-task mode, provider and model
 * (`mode`, `<mode>ModeApiProvider`, `<mode>ModeApiModelId` or `<mode>Mode<Provider>ModelId`), and
 * approval settings (`yoloModeToggled`, `autoApprovalSettings`).
 *
 * One `task_settings` system row per setting at the file's mtime (the file records no time), with the task id
 * as `session_id`, the model and provider in force for the task's mode, and the setting as `setting_name` and
 * `setting_value` (the settings model of sql/ reads those, never the text): `task setting: <key>=<value> (from
 * <file>, file mtime)`. Top-level strings, numbers and booleans are printed as they are; inside an
 * object or array (`openAiHeaders`, `autoApprovalSettings`) only the key paths are printed, with the
 * values of booleans and numbers (so `autoApprovalSettings.actions.executeAllCommands=true` shows, and a
 * header's value never does). A top-level string under a key that names a credential is `<set>`.
 */
import { promises as fs } from 'node:fs';
import type { Row, RowFields, Source } from '../../core/row.js';
import { readJsonFile } from '../parse/json-file.js';
import { shortenAtTokenBoundary } from '../parse/quote.js';
import { homePath } from '../common/home-path.js';
import { parserRow, rowFor } from '../common/rows.js';
import { plainObject, nonEmptyString } from '../common/values.js';

/** Deepest nesting followed; a deeper value is printed by its path so far. */
const MAX_DEPTH = 32;
/** Most leaves printed per file; more are counted. */
const MAX_LEAVES = 500;
/** A key whose string value is not printed. */
const CREDENTIAL_KEY = /(key|token|secret|password|passwd|credential|auth|cookie)/i;

/** The model and provider a task's settings put in force for its mode (act unless `mode` says plan), or null. */
export function settingsModel(settings: Record<string, unknown>): Pick<RowFields, 'model' | 'provider'> {
  const mode = settings.mode === 'plan' ? 'plan' : 'act';
  const provider = nonEmptyString(settings[`${mode}ModeApiProvider`]);
  let model = nonEmptyString(settings[`${mode}ModeApiModelId`]);
  if (model === null) {
    const prefix = `${mode}Mode`;
    for (const [key, value] of Object.entries(settings)) {
      if (
        key.startsWith(prefix) &&
        key.endsWith('ModelId') &&
        key !== `${mode}ModeApiModelId` &&
        nonEmptyString(value) !== null
      ) {
        model = nonEmptyString(value);
        break;
      }
    }
  }
  return { model, provider };
}

/** One setting of a task's settings.json: its key path and the value printed for it. */
export interface TaskSetting {
  key: string;
  value: string;
}

/** `path=value` of a nested object's leaves: booleans and numbers with their values, strings and nulls by path only. */
function nestedLeaves(value: unknown, prefix: string, out: TaskSetting[], depth: number): void {
  if (out.length >= MAX_LEAVES + 1) return;
  if (depth >= MAX_DEPTH) {
    out.push({ key: prefix, value: '<nested>' });
    return;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) out.push({ key: prefix, value: '[]' });
    for (const item of value) nestedLeaves(item, `${prefix}[]`, out, depth + 1);
    return;
  }
  const record = plainObject(value);
  if (record !== null) {
    const keys = Object.keys(record);
    if (keys.length === 0) out.push({ key: prefix, value: '{}' });
    for (const key of keys) nestedLeaves(record[key], `${prefix}.${key}`, out, depth + 1);
    return;
  }
  if (typeof value === 'boolean' || typeof value === 'number') out.push({ key: prefix, value: String(value) });
  else out.push({ key: prefix, value: `<${value === null ? 'null' : 'set'}>` });
}

/** The settings of one settings object, in file order, at most MAX_LEAVES (`more` when there were more). */
export function taskSettings(settings: Record<string, unknown>): { items: TaskSetting[]; more: boolean } {
  const items: TaskSetting[] = [];
  for (const [key, value] of Object.entries(settings)) {
    if (typeof value === 'string')
      items.push({ key, value: CREDENTIAL_KEY.test(key) ? '<set>' : shortenAtTokenBoundary(value, 300) });
    else if (typeof value === 'number' || typeof value === 'boolean' || value === null) items.push({ key, value: String(value) });
    else nestedLeaves(value, key, items, 1);
    if (items.length > MAX_LEAVES) break;
  }
  return { items: items.slice(0, MAX_LEAVES), more: items.length > MAX_LEAVES };
}

/**
 * The `task_settings` rows of one task's settings.json (`task`: the task's id and workspace), one per setting
 * (`task setting: <key>=<value> (from <file>, file mtime)`, with setting_name and setting_value), or its
 * `parser:` row. A file of no setting gives one `task settings: (none)` row, one of more than MAX_LEAVES a
 * last `task settings: more not printed` row.
 */
export async function* readTaskSettings(
  source: Source,
  file: string,
  task: Pick<RowFields, 'session_id' | 'project_path'>,
): AsyncGenerator<Row> {
  const base = { session_id: task.session_id, project_path: task.project_path };
  const parsed = await readJsonFile(file);
  const settings = parsed.ok ? plainObject(parsed.value) : null;
  if (!parsed.ok || settings === null) {
    yield parserRow(source, file, null, parsed.ok ? 'task settings are not a JSON object' : parsed.message, base);
    return;
  }
  if (parsed.repair) yield parserRow(source, file, null, parsed.repair, base);
  const mtimeMs = await fs.stat(file).then(
    (st) => Math.trunc(st.mtimeMs),
    () => null,
  );
  const from = `(from ${homePath(source, file)}, file mtime)`;
  const model = settingsModel(settings);
  const row = (seq: number, text: string, item: TaskSetting | null) =>
    rowFor(source, file, {
      ...base,
      ...model,
      source_seq: seq,
      timestamp_utc: mtimeMs,
      timestamp_source: 'file_mtime',
      turn_type: 'system',
      kind: 'task_settings',
      text,
      setting_name: item?.key ?? null,
      setting_value: item?.value ?? null,
    });
  const { items, more } = taskSettings(settings);
  if (items.length === 0) yield row(0, `task settings: (none) ${from}`, null);
  for (let i = 0; i < items.length; i++) yield row(i, `task setting: ${items[i].key}=${items[i].value} ${from}`, items[i]);
  if (more) yield row(items.length, `task settings: more not printed ${from}`, null);
}
