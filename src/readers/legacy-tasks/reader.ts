/**
 * Legacy Cline tasks (cline-formats.md §1; store specification, "Legacy task files", "Parser plan"),
 * shared by the VS Code globalStorage store, the standalone `~/.cline/data` store and the task stores of
 * Roo Code and Kilo Code, which kept Cline's layout. Reads, under the store root: `state/taskHistory.json`
 * first (Cline), then `tasks/_index.json` (Roo Code 3.49+: a cache of the history items, read only for the
 * tasks with no `history_item.json`), then per task directory (sorted by id) `tasks/<id>/history_item.json`
 * (Roo Code 3.49+), `tasks/<id>/task_metadata.json`, `tasks/<id>/settings.json` (the task's own settings:
 * task-settings.ts), `tasks/<id>/ui_messages.json` (one row per message: ui-messages.ts) and, only when
 * the task has no ui_messages.json, `tasks/<id>/api_conversation_history.json` (one row per content block).
 * Times are epoch ms. Large files are streamed; a bad file or record is one `parser:` row.
 */
import * as path from 'node:path';
import { readJsonFile } from '../parse/json-file.js';
import { streamJson } from '../parse/json-stream.js';
import { shortenAtTokenBoundary } from '../parse/quote.js';
import type { Row, RowFields, Source } from '../../core/row.js';
import { guardFile, needsOriginal, parserRow, rowFor } from '../common/rows.js';
import { blockRowFields, contentBlockFields, type MessageFields } from '../shapes/content-blocks.js';
import { readTaskSettings } from './task-settings.js';
import { historyItemRow } from '../shapes/history-item.js';
import { epochMs, wholeNumber, finiteNumber, plainObject, show, nonEmptyString } from '../common/values.js';
import { type HistoryFacts, modelAt, type TaskContext } from '../shapes/task-context.js';
import { requestResults } from './request-results.js';
import { readUiMessages } from './ui-messages.js';

interface TaskFiles {
  /** `history_item.json` (Roo Code 3.49+). */
  item?: string;
  ui?: string;
  api?: string;
  meta?: string;
  settings?: string;
}

/** Rows of one legacy task store, in file order: task history, then each task directory by id. */
export async function* readLegacyTasks(source: Source): AsyncGenerator<Row> {
  const tasks = new Map<string, TaskFiles>();
  let historyFile: string | null = null;
  let indexFile: string | null = null;
  for (const file of source.files) {
    const parts = path.relative(source.root, file).split(path.sep);
    if (parts.length === 2 && parts[0] === 'state' && parts[1] === 'taskHistory.json') historyFile = file;
    else if (parts.length === 2 && parts[0] === 'tasks' && parts[1] === '_index.json') indexFile = file;
    else if (parts.length === 3 && parts[0] === 'tasks') {
      const entry = tasks.get(parts[1]) ?? {};
      if (parts[2] === 'history_item.json') entry.item = file;
      else if (parts[2] === 'ui_messages.json') entry.ui = file;
      else if (parts[2] === 'api_conversation_history.json') entry.api = file;
      else if (parts[2] === 'task_metadata.json') entry.meta = file;
      else if (parts[2] === 'settings.json') entry.settings = file;
      else continue;
      tasks.set(parts[1], entry);
    }
  }
  const history = new Map<string, HistoryFacts>();
  if (historyFile !== null) yield* guardFile(source, historyFile, readTaskHistory(source, historyFile, history));
  if (indexFile !== null) {
    const kept = (id: string | null) => id === null || tasks.get(id)?.item === undefined;
    yield* guardFile(source, indexFile, readTaskHistory(source, indexFile, history, kept));
  }
  for (const id of [...tasks.keys()].sort()) {
    const files = tasks.get(id)!;
    if (files.item !== undefined) yield* guardFile(source, files.item, readHistoryItem(source, files.item, history));
    const facts = history.get(id) ?? null;
    const task: TaskContext = { session_id: id, project_path: facts?.project_path ?? null, history: facts, usage: [] };
    const reads: [string | undefined, TaskFileReader][] = [
      [files.meta, readTaskMetadata],
      [files.settings, readTaskSettings],
      files.ui ? [files.ui, readUiMessages] : [files.api, readApiHistory],
    ];
    for (const [file, read] of reads) if (file !== undefined) yield* guardFile(source, file, read(source, file, task));
  }
}

/** A reader of one file of a task folder; a file that throws costs itself (guardFile). */
type TaskFileReader = (source: Source, file: string, task: TaskContext) => AsyncGenerator<Row>;

/**
 * `task_history` rows of a history array (`state/taskHistory.json`) or of the `entries` of Roo Code's
 * `tasks/_index.json`, filling `facts` with each task's cwd and model; an item `kept` refuses gives no row.
 */
async function* readTaskHistory(
  source: Source,
  file: string,
  facts: Map<string, HistoryFacts>,
  kept: (id: string | null) => boolean = () => true,
): AsyncGenerator<Row> {
  const isIndex = path.basename(file) === '_index.json';
  let index = 0;
  for await (const event of isIndex ? streamJson(file, ['$.entries.*'], '{') : streamJson(file, ['$.*'], '[')) {
    if (event.type === 'error') {
      yield parserRow(source, file, null, `${event.message} (${event.valuesBefore} records read)`);
      return;
    }
    index += 1;
    const item = plainObject(event.value);
    if (item === null) {
      yield parserRow(source, file, index, `history item is not a JSON object: ${shortenAtTokenBoundary(show(event.value), 77)}`);
      continue;
    }
    const history = historyItemRow(item);
    if (!kept(history.id)) continue;
    if (history.id !== null) facts.set(history.id, history.facts);
    yield rowFor(source, file, { ...history.fields, source_line: index });
  }
}

/** The `task_history` row of one task's `history_item.json` (Roo Code 3.49+), filling `facts` for the task's rows. */
async function* readHistoryItem(source: Source, file: string, facts: Map<string, HistoryFacts>): AsyncGenerator<Row> {
  const parsed = await readJsonFile(file);
  const item = parsed.ok ? plainObject(parsed.value) : null;
  if (!parsed.ok || item === null) {
    yield parserRow(source, file, null, parsed.ok ? 'history item is not a JSON object' : parsed.message);
    return;
  }
  if (parsed.repair) yield parserRow(source, file, null, parsed.repair);
  const history = historyItemRow(item);
  if (history.id !== null) facts.set(history.id, history.facts);
  yield rowFor(source, file, history.fields);
}

/** `model_usage`, `environment_history` and `files_in_context` rows; fills `task.usage`. */
async function* readTaskMetadata(source: Source, file: string, task: TaskContext): AsyncGenerator<Row> {
  const base = { session_id: task.session_id, project_path: task.project_path };
  const parsed = await readJsonFile(file);
  const meta = parsed.ok ? plainObject(parsed.value) : null;
  if (!parsed.ok || meta === null) {
    yield parserRow(source, file, null, parsed.ok ? 'task metadata is not a JSON object' : parsed.message, base);
    return;
  }
  if (parsed.repair) yield parserRow(source, file, null, parsed.repair, base);
  for (const field of ['model_usage', 'environment_history', 'files_in_context'] as const) {
    const list = meta[field];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) {
      yield parserRow(source, file, null, `${field} is not an array`, base);
      continue;
    }
    for (let i = 0; i < list.length; i++) {
      const entry = plainObject(list[i]);
      if (entry === null) {
        yield parserRow(source, file, i + 1, `${field} entry ${i + 1} is not a JSON object`, base);
        continue;
      }
      const at = { ...base, source_line: i + 1, turn_type: 'system' as const, kind: field };
      if (field === 'model_usage') {
        const usage = {
          ts: epochMs(entry.ts),
          model: nonEmptyString(entry.model_id),
          provider: nonEmptyString(entry.model_provider_id),
        };
        task.usage.push(usage);
        const mode = show(entry.mode);
        yield rowFor(source, file, {
          ...at,
          timestamp_utc: usage.ts,
          model: usage.model,
          provider: usage.provider,
          permission_mode: mode === '-' ? null : mode,
          text: `model usage: model_id=${show(entry.model_id)} model_provider_id=${show(entry.model_provider_id)} mode=${mode}`,
        });
      } else if (field === 'environment_history') {
        yield rowFor(source, file, {
          ...at,
          timestamp_utc: epochMs(entry.ts),
          text:
            `environment: os_name=${show(entry.os_name)} os_version=${show(entry.os_version)} os_arch=${show(entry.os_arch)}` +
            ` host_name=${show(entry.host_name)} host_version=${show(entry.host_version)} cline_version=${show(entry.cline_version)}`,
        });
      } else {
        yield rowFor(source, file, {
          ...at,
          // Cline writes cline_*_date, Roo Code and Kilo Code roo_*_date
          timestamp_utc:
            epochMs(entry.cline_edit_date ?? entry.roo_edit_date) ??
            epochMs(entry.cline_read_date ?? entry.roo_read_date) ??
            epochMs(entry.user_edit_date),
          text: `file in context: ${show(entry.path)} record_state=${show(entry.record_state)} record_source=${show(entry.record_source)}`,
        });
      }
    }
  }
}

/**
 * Fallback for a task without ui_messages.json: one row per content block of the API history, read with
 * its base64 payloads elided (image blocks are only counted); an entry whose rows keep any is read again
 * as written.
 */
async function* readApiHistory(source: Source, file: string, task: TaskContext): AsyncGenerator<Row> {
  const base = { session_id: task.session_id, project_path: task.project_path };
  const last: LastCall = { id: null, name: null };
  let index = 0;
  for await (const event of streamJson(file, ['$.*'], '[', { elideBase64: true })) {
    if (event.type === 'error') {
      yield parserRow(source, file, null, `${event.message} (${event.valuesBefore} records read)`, base);
      return;
    }
    index += 1;
    const before = { ...last };
    let rows = apiEntryRows(source, file, event.value, index, task, last);
    if (event.original && needsOriginal(rows)) {
      Object.assign(last, before);
      rows = apiEntryRows(source, file, event.original(), index, task, last);
    }
    yield* rows;
  }
}

/** The last native tool_use block of an API history so far: a tool result the engine wrote as text answers it. */
interface LastCall {
  id: string | null;
  name: string | null;
}

/**
 * A user text block that is a tool's result as the XML-era engine wrote it (`[read_file for 'app.py']
 * Result:\n...`, legacy-tasks/request-results.ts): a tool_result row with the tool its header names (and the id of
 * the last native tool_use, when that was the call), not a user turn.
 */
function asToolResult(fields: RowFields, last: LastCall): RowFields {
  if (fields.turn_type !== 'user' || fields.kind !== 'text' || typeof fields.text !== 'string') return fields;
  const [result] = requestResults(fields.text);
  if (result === undefined) return fields;
  const answersLast = last.name === result.tool;
  return {
    ...fields,
    turn_type: 'tool_result',
    kind: 'tool_result',
    tool_name: result.tool,
    tool_use_id: answersLast ? last.id : null,
  };
}

/** The rows of the `index`-th entry (1-based) of an API history; `last` follows its native tool_use blocks. */
function apiEntryRows(source: Source, file: string, value: unknown, index: number, task: TaskContext, last: LastCall): Row[] {
  const base = { session_id: task.session_id, project_path: task.project_path };
  const entry = plainObject(value);
  const content = entry?.content;
  if (entry === null || (typeof content !== 'string' && !Array.isArray(content))) {
    const what = entry === null ? 'entry is not a JSON object' : 'entry content is neither a string nor an array';
    return [parserRow(source, file, index, what, base)];
  }
  const role = nonEmptyString(entry.role);
  const ts = epochMs(entry.ts);
  const model = modelAt(task, entry.modelInfo, ts);
  const metrics = plainObject(entry.metrics);
  const tokens = plainObject(metrics?.tokens);
  const blocks: unknown[] = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
  const at: MessageFields = { ...base, ...model, source_line: index, timestamp_utc: ts };
  const rows: Row[] = [];
  for (let seq = 0; seq < blocks.length; seq++) {
    const usage =
      seq === 0
        ? {
            tokens_in: wholeNumber(tokens?.prompt),
            tokens_out: wholeNumber(tokens?.completion),
            cost_usd: finiteNumber(metrics?.cost),
          }
        : null;
    const block = plainObject(blocks[seq]);
    if (block === null) {
      rows.push(parserRow(source, file, index, `content block ${seq} is not a JSON object`, { ...at, source_seq: seq }));
      continue;
    }
    const fields = asToolResult(contentBlockFields(block, role), last);
    if (fields.turn_type === 'tool_use') {
      last.id = fields.tool_use_id ?? null;
      last.name = fields.tool_name ?? null;
    }
    rows.push(rowFor(source, file, blockRowFields(at, seq, usage, fields)));
  }
  return rows;
}
