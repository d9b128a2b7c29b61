/**
 * `settings` store: the standing permission settings and the Cline Cloud state (store specification
 * "Permission rows", "Sync, relay and origin rows", "Bad-line rows"; cline-formats §4.4-4.7).
 *
 * Files, relative to the store root: `globalState.json`, `settings/global-settings.json`,
 * `settings/cline_mcp_settings.json` and `cloud-pending-starts/*.json` under `~/.cline/data`, and
 * `settings/cline_mcp_settings.json` under a globalStorage root (Roo Code's and Kilo Code's also
 * `settings/mcp_settings.json`, the same object under the name they gave it, and their custom modes files:
 * settings/custom-modes.ts). Rows are system rows at the file's
 * mtime (epoch ms) unless they carry their own time (cloudSessionStatuses observedAt). A file that is
 * not the JSON type expected is one `parser:` row.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Row, Source } from '../../core/row.js';
import type { Reader } from '../common/rows.js';
import { eachFile, parserRow, rowFor } from '../common/rows.js';
import { readJsonFile } from '../parse/json-file.js';
import { homePath } from '../common/home-path.js';
import { plainObject, show } from '../common/values.js';
import {
  globalSettingsPermissions,
  globalStatePermissions,
  mcpSettingsPermissions,
  permissionText,
  type PermissionItem,
} from '../shapes/settings-permissions.js';
import { cloudSessionStatusItems, cloudTaskTargetItems, pendingStartItems, type CloudItem } from './cloud.js';
import { customModesFileRows, customModesFormat } from './custom-modes.js';

/** Next source_seq among the rows of a file that are not tied to one record. */
interface Counter {
  next: number;
}

type SettingsFile = 'globalState' | 'globalSettings' | 'mcpSettings' | 'pendingStart';

/** Which settings file a path under the store root is, or null for a file this reader does not know. */
function settingsFileOf(relative: string): SettingsFile | null {
  if (relative === 'globalState.json') return 'globalState';
  if (relative === 'settings/global-settings.json') return 'globalSettings';
  // Roo Code and Kilo Code renamed Cline's file `mcp_settings.json`; the same `mcpServers` object
  if (relative === 'settings/cline_mcp_settings.json' || relative === 'settings/mcp_settings.json') return 'mcpSettings';
  if (/^cloud-pending-starts\/[^/]+\.json$/.test(relative)) return 'pendingStart';
  return null;
}

/** The file's modification time in epoch ms, or null when it cannot be read. */
async function mtimeOf(file: string): Promise<number | null> {
  try {
    return Math.trunc((await fs.stat(file)).mtimeMs);
  } catch {
    return null;
  }
}

/** The permission rows of one file, with a `parser:` row for each part that could not be read. */
function* permissionRows(
  source: Source,
  file: string,
  items: Iterable<PermissionItem>,
  mtimeMs: number | null,
  seq: Counter,
): Generator<Row> {
  const from = homePath(source, file);
  for (const item of items) {
    if ('problem' in item) {
      yield parserRow(source, file, null, item.problem);
      continue;
    }
    yield rowFor(source, file, {
      source_seq: seq.next++,
      timestamp_utc: mtimeMs,
      timestamp_source: 'file_mtime',
      turn_type: 'system',
      kind: 'permission',
      text: permissionText(item.key, item.value, from),
      setting_name: item.key,
      setting_value: show(item.value),
    });
  }
}

/**
 * The rows of Cline Cloud items, with a `parser:` row for each part that could not be read. A row of the
 * whole file (no source_line) takes its source_seq from the file's counter, after the permission rows.
 */
function* cloudRows(source: Source, file: string, items: Iterable<CloudItem>, seq: Counter): Generator<Row> {
  for (const item of items) {
    if ('problem' in item) yield { ...parserRow(source, file, null, item.problem), source_line: item.position };
    else if (item.fields.source_line === undefined) yield rowFor(source, file, { ...item.fields, source_seq: seq.next++ });
    else yield rowFor(source, file, item.fields);
  }
}

/** Rows of one settings file. */
async function* settingsFileRows(source: Source, file: string): AsyncGenerator<Row> {
  const relative = path.relative(source.root, file).split(path.sep).join('/');
  const modes = customModesFormat(relative);
  if (modes !== null) {
    yield* customModesFileRows(source, file, modes);
    return;
  }
  const kind = settingsFileOf(relative);
  if (!kind) {
    yield parserRow(source, file, null, 'not a settings file this reader knows');
    return;
  }
  const result = await readJsonFile(file);
  if (!result.ok) {
    yield parserRow(source, file, null, result.message);
    return;
  }
  if (result.repair) yield parserRow(source, file, null, result.repair);
  const mtimeMs = await mtimeOf(file);
  const from = homePath(source, file);
  const seq: Counter = { next: 0 };
  if (kind === 'pendingStart') {
    if (!Array.isArray(result.value)) yield parserRow(source, file, null, 'not a JSON array');
    else yield* cloudRows(source, file, pendingStartItems(result.value, from, mtimeMs), seq);
    return;
  }
  const record = plainObject(result.value);
  if (!record) {
    yield parserRow(source, file, null, 'not a JSON object');
  } else if (kind === 'globalState') {
    yield* permissionRows(source, file, globalStatePermissions(record), mtimeMs, seq);
    yield* cloudRows(source, file, cloudTaskTargetItems(record, from, mtimeMs), seq);
    yield* cloudRows(source, file, cloudSessionStatusItems(record, from), seq);
  } else if (kind === 'globalSettings') {
    yield* permissionRows(source, file, globalSettingsPermissions(record), mtimeMs, seq);
  } else {
    yield* permissionRows(source, file, mcpSettingsPermissions(record), mtimeMs, seq);
  }
}

/** Rows of the settings store: permission settings, cloud task target, cloud origin and sync rows; a file that throws costs itself. */
export const readSettings: Reader = eachFile(settingsFileRows);
