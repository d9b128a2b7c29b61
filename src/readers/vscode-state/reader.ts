/**
 * Store `vscode-state`: the state databases of an editor of the VS Code family (README.md beside this
 * file), where every extension keeps its globalState and workspaceState: `User/globalStorage/state.vscdb`
 * (and a profile's), `User/workspaceStorage/<hash>/state.vscdb`, each with VS Code's `.backup` copy.
 * Roo Code and Kilo Code keep their task history and settings there; Cline did before v3.28, and what an
 * older version left stays after an update. Only the keys of the Cline family are read: the other
 * extensions' state is no record of theirs.
 *
 * Rows, in ItemTable rowid order (`source_line` the rowid, `source_seq` the place in its value), each with
 * the `agent` its key names: one `task_history` row per item of a `taskHistory` array (history-item.ts:
 * a task whose folder is gone still gives its prompt), one `state_setting` row per other setting of the value
 * (`state setting: <extension id> <key>=<JSON, cut at 300 characters>`, with `setting_name` and the whole
 * `setting_value`: see settingItems for how a key is split), and one `secret_key` row per
 * secret of the agent, by key name only. Settings and secrets record no time: their rows are at the
 * database's mtime. A workspace's rows take the folder its `workspace.json` names as `project_path`.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { AgentId } from '../../core/root-kinds.js';
import type { Row, Source } from '../../core/row.js';
import { hasTable, type PrivateCopy } from '../../evidence/sqlite-copy.js';
import { readJsonFile } from '../parse/json-file.js';
import { shortenAtTokenBoundary } from '../parse/quote.js';
import { customModeItems } from '../shapes/custom-modes.js';
import { historyItemRow } from '../shapes/history-item.js';
import { entries, leaves, type PermissionItem } from '../shapes/settings-permissions.js';
import { parserRow, rowFor } from '../common/rows.js';
import { readEvidenceDatabases } from '../common/sqlite-evidence.js';
import { plainObject, show } from '../common/values.js';
import { agentOfExtension, agentSecret, SECRET_PREFIX, workspaceFolder } from './state-keys.js';

/** Longest value of one setting kept in its row's text. */
const MAX_SETTING_CHARS = 300;

/** What every row of one database shares. */
interface DbContext {
  source: Source;
  file: string;
  mtimeMs: number | null;
  projectPath: string | null;
}

/** Rows of every state database of the source, in file order. */
export async function* readVscodeState(source: Source): AsyncGenerator<Row> {
  const folders = new Map<string, string | null>();
  for (const file of source.files.filter((f) => path.basename(f) === 'workspace.json')) {
    const parsed = await readJsonFile(file);
    folders.set(path.dirname(file), parsed.ok ? workspaceFolder(parsed.value) : null);
  }
  const databases = { ...source, files: source.files.filter((f) => path.basename(f) !== 'workspace.json') };
  yield* readEvidenceDatabases(databases, null, async function* (copy, file) {
    const ctx: DbContext = { source, file, mtimeMs: await mtimeOf(file), projectPath: folders.get(path.dirname(file)) ?? null };
    yield* readItemTable(ctx, copy);
  });
}

async function mtimeOf(file: string): Promise<number | null> {
  try {
    return Math.trunc((await fs.stat(file)).mtimeMs);
  } catch {
    return null;
  }
}

/**
 * The rows of the Cline family's keys of one database's ItemTable. A database SQLite finds malformed
 * gives the rows read before the fault and one `parser:` row; a fault of our private copy ends the load.
 */
async function* readItemTable(ctx: DbContext, copy: PrivateCopy): AsyncGenerator<Row> {
  let lastRowid: number | null = null;
  try {
    if (!hasTable(copy.db, 'ItemTable')) {
      yield parserRow(ctx.source, ctx.file, null, `no ItemTable (not an editor state database; ${path.basename(ctx.file)})`);
      return;
    }
    const keys = copy.db.prepare('SELECT rowid, key FROM ItemTable ORDER BY rowid').all() as { rowid: number; key: unknown }[];
    const valueAt = copy.db.prepare('SELECT value FROM ItemTable WHERE rowid = ?').pluck();
    for (const { rowid, key } of keys) {
      lastRowid = rowid;
      if (typeof key !== 'string') continue;
      const secret = agentSecret(key);
      if (secret !== null) {
        yield rowFor(ctx.source, ctx.file, {
          agent: secret.agent,
          source_line: rowid,
          timestamp_utc: ctx.mtimeMs,
          timestamp_source: 'file_mtime',
          project_path: ctx.projectPath,
          turn_type: 'system',
          kind: 'secret_key',
          text: `secret key: ${shortenAtTokenBoundary(secret.key, MAX_SETTING_CHARS)} (value not read)`,
        });
        continue;
      }
      const agent = key.startsWith(SECRET_PREFIX) ? null : agentOfExtension(key);
      if (agent === null) continue;
      yield* stateRows(ctx, rowid, key, agent, valueAt.get(rowid));
    }
  } catch (err) {
    const own = copy.ownFault(err);
    if (own) throw own;
    const where = lastRowid === null ? '' : ` after rowid ${lastRowid}`;
    yield parserRow(
      ctx.source,
      ctx.file,
      null,
      `reading ItemTable failed${where}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/** The rows of one extension's globalState or workspaceState value. */
function* stateRows(ctx: DbContext, rowid: number, extension: string, agent: AgentId, raw: unknown): Generator<Row> {
  const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : typeof raw === 'string' ? raw : null;
  let state: Record<string, unknown> | null = null;
  try {
    state = text === null ? null : plainObject(JSON.parse(text));
  } catch (err) {
    yield parserRow(ctx.source, ctx.file, rowid, `${extension}: ${(err as Error).message}`, { agent });
    return;
  }
  if (state === null) {
    yield parserRow(ctx.source, ctx.file, rowid, `${extension}: state is not a JSON object`, { agent });
    return;
  }
  let seq = 0;
  for (const [name, value] of Object.entries(state)) {
    if (name === 'taskHistory' && Array.isArray(value)) {
      for (const element of value) {
        const item = plainObject(element);
        if (item === null) {
          yield parserRow(ctx.source, ctx.file, rowid, `${extension} taskHistory: item is not a JSON object`, {
            agent,
            source_seq: seq++,
          });
          continue;
        }
        const history = historyItemRow(item);
        yield rowFor(ctx.source, ctx.file, { ...history.fields, agent, source_line: rowid, source_seq: seq++ });
      }
      continue;
    }
    for (const item of settingItems(name, value)) {
      if ('problem' in item) {
        yield parserRow(ctx.source, ctx.file, rowid, `${extension} ${item.problem}`, { agent, source_seq: seq++ });
        continue;
      }
      const shown = show(item.value);
      yield rowFor(ctx.source, ctx.file, {
        agent,
        source_line: rowid,
        source_seq: seq++,
        timestamp_utc: ctx.mtimeMs,
        timestamp_source: 'file_mtime',
        project_path: ctx.projectPath,
        turn_type: 'system',
        kind: 'state_setting',
        text: `state setting: ${extension} ${item.key}=${shortenAtTokenBoundary(shown, MAX_SETTING_CHARS)}`,
        setting_name: item.key,
        setting_value: shown,
      });
    }
  }
}

/**
 * The settings one globalState key gives, as the settings files' are split (shapes/settings-permissions.ts), so
 * the `settings` and `safety_off` models read them by the same names: Cline's `autoApprovalSettings` object one
 * per leaf (`autoApprovalSettings.actions.executeAllCommands`), Roo Code's and Kilo Code's command lists one per
 * entry (`allowedCommands=*`: Roo Code `src/core/auto-approval/commands.ts` reads `*` as every command), their
 * `customModes` as the custom modes files' (shapes/custom-modes.ts: `customModes.<slug>.groups.command=*`), any
 * other key as it stands.
 */
function settingItems(name: string, value: unknown): Iterable<PermissionItem> {
  if (name === 'autoApprovalSettings' && plainObject(value) !== null) return leaves(name, value);
  if (name === 'allowedCommands' || name === 'deniedCommands') return entries(name, value);
  if (name === 'customModes') return customModeItems(value);
  return [{ key: name, value }];
}
