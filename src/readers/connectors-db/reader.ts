/**
 * `connectors-db` store: `~/.cline/data/db/connectors.db` (cline-formats.md §3.4), the 3.x chat
 * connectors (Slack, Telegram, Discord, Google Chat, Linear, WhatsApp bots that run an agent on incoming
 * messages) and their credentials (`SqliteConnectorStore`, sdk/packages/shared/src/db/connector-store.ts
 * at cline-formats H; it replaced `connectors/settings.json`, which it renames `.migrated`). Times are ISO
 * strings.
 *
 * Values are never read into a row, with or without `--keep-secrets`: `values_json` and
 * `security_values_json` (`{name: string}`: bot tokens, user ids) give their key names only, and the
 * `cline connect` arguments kept for auto-reconnect (`connect_args_json`, "auth flags included") give their
 * flag names only, each value printed as `<value>`. The one exception is the values of `--cwd`,
 * `--provider`, `--model` and `--mode`, which are a path, two names and a mode: `--cwd` fills
 * `project_path`, `--provider` and `--model` fill `provider` and `model`.
 *
 * Rows: `connector_configs` → `connector_config` at configured_at (`connector config: <channel> type=...
 * values_keys=... security=true|false security_keys=...`); `connector_connections` →
 * `connector_connection` at last_connected_at (`connector connection: <channel> <instance> enabled=...
 * args=<flags> last_successful_args=<flags>`). A JSON column that does not parse is a `parser:` row whose
 * message never quotes the column.
 */
import type { Row, Source } from '../../core/row.js';
import type { PrivateCopy } from '../../evidence/sqlite-copy.js';
import { readEvidenceDatabases } from '../common/sqlite-evidence.js';
import {
  field,
  flagField,
  jsonColumn,
  type RecordRow,
  readTables,
  type TableSpec,
  textOf,
  timeField,
} from '../common/sqlite-tables.js';
import { epochMs, plainObject } from '../common/values.js';

/** Flags whose values are printed: not credentials. */
const SHOWN_FLAGS = new Set(['--cwd', '--provider', '--model', '--mode']);
/** A token printed as a flag name: `--kebab-case` or `-x`; anything else may be a value and is not printed. */
const FLAG_NAME = /^(?:--[a-z][a-z0-9-]{0,40}|-[A-Za-z])$/;
/** Most keys or arguments listed per column; more are counted. */
const MAX_ITEMS = 100;

/** A key as printed: plain when it is a short simple name, else JSON-quoted and cut to 100 characters. */
function keyName(key: string): string {
  return /^[^\s,=[\]"\\\p{C}]{1,100}$/u.test(key) ? key : JSON.stringify(key.slice(0, 100));
}

/** The key names of a JSON object column, `(none)` when empty; null with a problem when it is not one. */
function keysOf(value: unknown, column: string): { text: string } | { problem: string } {
  const parsed = jsonColumn(value, column);
  if ('problem' in parsed) return { problem: `${column} is not valid JSON` };
  if (parsed.value === null) return { text: '-' };
  const record = plainObject(parsed.value);
  if (record === null) return { problem: `${column} is not a JSON object` };
  const keys = Object.keys(record);
  if (keys.length === 0) return { text: '(none)' };
  const more = keys.length > MAX_ITEMS ? ` (+${keys.length - MAX_ITEMS} more)` : '';
  return { text: keys.slice(0, MAX_ITEMS).map(keyName).join(',') + more };
}

/** What the rows keep of a `cline connect` argument list. */
interface ConnectArgs {
  text: string;
  cwd: string | null;
  provider: string | null;
  model: string | null;
}

/** The argument list with every value but SHOWN_FLAGS' as `<value>`; null with a problem when it is not a JSON array. */
function argsOf(value: unknown, column: string): ConnectArgs | { problem: string } {
  const parsed = jsonColumn(value, column);
  if ('problem' in parsed) return { problem: `${column} is not valid JSON` };
  if (parsed.value === null) return { text: '-', cwd: null, provider: null, model: null };
  if (!Array.isArray(parsed.value)) return { problem: `${column} is not a JSON array` };
  const out: ConnectArgs = { text: '', cwd: null, provider: null, model: null };
  const shown: Record<string, string> = {};
  const parts: string[] = [];
  let previous: string | null = null;
  for (const arg of parsed.value.slice(0, MAX_ITEMS)) {
    const token = typeof arg === 'string' ? arg : null;
    const eq = token?.indexOf('=') ?? -1;
    const name = token !== null && eq > 0 ? token.slice(0, eq) : token;
    if (name !== null && FLAG_NAME.test(name)) {
      if (eq > 0) {
        const v = (token as string).slice(eq + 1);
        parts.push(`${name}=${SHOWN_FLAGS.has(name) ? v : '<value>'}`);
        if (SHOWN_FLAGS.has(name)) shown[name] = v;
        previous = null;
      } else {
        parts.push(name);
        previous = name;
      }
      continue;
    }
    if (token !== null && previous !== null && SHOWN_FLAGS.has(previous)) {
      parts.push(token);
      shown[previous] = token;
    } else parts.push('<value>');
    previous = null;
  }
  const more = parsed.value.length > MAX_ITEMS ? ` (+${parsed.value.length - MAX_ITEMS} more)` : '';
  out.text = parts.length === 0 ? '(none)' : `[${parts.join(' ')}]${more}`;
  out.cwd = shown['--cwd'] || null;
  out.provider = shown['--provider'] || null;
  out.model = shown['--model'] || null;
  return out;
}

const CONFIG_COLUMNS = [
  'channel',
  'type',
  'values_json',
  'security_enabled',
  'security_values_json',
  'configured_at',
  'updated_at',
] as const;
/** One `connector_configs` record. */
type ConnectorConfigRecord = Record<(typeof CONFIG_COLUMNS)[number], unknown>;

function* configRows(raw: Record<string, unknown>): Generator<RecordRow> {
  const r = raw as ConnectorConfigRecord;
  const values = keysOf(r.values_json, 'values_json');
  const security = keysOf(r.security_values_json, 'security_values_json');
  const fields = { timestamp_utc: epochMs(r.configured_at) ?? epochMs(r.updated_at) };
  yield {
    ...fields,
    turn_type: 'system',
    kind: 'connector_config',
    text:
      `connector config: ${textOf(r.channel) ?? '-'} ${field('type', r.type)} values_keys=${'text' in values ? values.text : '?'}` +
      ` ${flagField('security', r.security_enabled)} security_keys=${'text' in security ? security.text : '?'}` +
      ` ${timeField('configured', r.configured_at)} ${timeField('updated', r.updated_at)}`,
  };
  for (const k of [values, security]) if ('problem' in k) yield { problem: k.problem, fields };
}

const CONNECTION_COLUMNS = [
  'channel',
  'instance_id',
  'connect_args_json',
  'last_successful_args_json',
  'enabled',
  'updated_at',
  'last_connected_at',
] as const;
/** One `connector_connections` record. */
type ConnectorConnectionRecord = Record<(typeof CONNECTION_COLUMNS)[number], unknown>;

function* connectionRows(raw: Record<string, unknown>): Generator<RecordRow> {
  const r = raw as ConnectorConnectionRecord;
  const args = argsOf(r.connect_args_json, 'connect_args_json');
  const last = argsOf(r.last_successful_args_json, 'last_successful_args_json');
  const a = 'text' in args ? args : null;
  const fields = { timestamp_utc: epochMs(r.last_connected_at) ?? epochMs(r.updated_at) };
  yield {
    ...fields,
    project_path: a?.cwd ?? null,
    provider: a?.provider ?? null,
    model: a?.model ?? null,
    turn_type: 'system',
    kind: 'connector_connection',
    text:
      `connector connection: ${textOf(r.channel) ?? '-'} ${textOf(r.instance_id) ?? '-'} ${flagField('enabled', r.enabled)}` +
      ` ${timeField('last_connected', r.last_connected_at)} ${timeField('updated', r.updated_at)} args=${a?.text ?? '?'}` +
      ` last_successful_args=${'text' in last ? last.text : '?'}`,
  };
  for (const k of [args, last]) if ('problem' in k) yield { problem: k.problem, fields };
}

const TABLES: TableSpec[] = [
  { table: 'connector_configs', columns: CONFIG_COLUMNS, rows: configRows },
  { table: 'connector_connections', columns: CONNECTION_COLUMNS, rows: connectionRows },
];

/** Rows of connectors.db, key and flag names only; see the module comment. */
export async function* readConnectorsDb(source: Source): AsyncGenerator<Row> {
  yield* readEvidenceDatabases(source, 'connectors.db', (copy: PrivateCopy, file: string) =>
    readTables(source, copy, file, TABLES),
  );
}
