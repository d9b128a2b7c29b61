/**
 * What the row of a Cline log record says besides its time and level (readers/cline-logs/reader.ts): its text,
 * and the session, model, provider, tool and project a record names where it names them reliably.
 *
 * A JSON record's text is its message, then `key=value` for each other key in the record's order (values
 * as in values.ts `show`: strings as they are, the rest as JSON), so nothing it holds is lost. A key named
 * like a secret (`apiKey`, `authToken`, `password`, ...), at the top or one object down (`properties`),
 * is written `key=[not kept]`: the writer redacts what detectors know (write/redact-row.ts), but a value
 * named as a secret is not emitted at all.
 */
import type { RowFields } from '../../core/row.js';
import { plainObject, show, nonEmptyString } from '../common/values.js';

/** Key names whose values are never written: those ending (case and `_`/`-` aside) with one of these words. */
const SECRET_NAME =
  /(?:apikey|secret|secretkey|privatekey|password|passwd|passphrase|token|authorization|auth|cookie|credentials?|clientsecret)$/;

/** Whether a key names a secret: `apiKey`, `OPENAI_API_KEY`, `authToken`, `x-api-key`; not `tokensIn`, `maxTokens`. */
export function isSecretName(key: string): boolean {
  return SECRET_NAME.test(key.toLowerCase().replace(/[^a-z0-9]/g, ''));
}

const NOT_KEPT = '[not kept]';

/** The value with its secret-named keys, if it is an object, replaced by `[not kept]` (one level down). */
function withoutSecrets(value: unknown): unknown {
  const record = plainObject(value);
  if (record === null || !Object.keys(record).some(isSecretName)) return value;
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, isSecretName(k) ? NOT_KEPT : v]));
}

/** `message key=value ...` of a JSON record's message and other fields. */
export function jsonRecordText(message: string, fields: Record<string, unknown>): string {
  const parts = message === '' ? [] : [message];
  for (const [key, value] of Object.entries(fields)) {
    parts.push(`${key}=${isSecretName(key) ? NOT_KEPT : show(withoutSecrets(value))}`);
  }
  return parts.join(' ');
}

/** The first of `keys` that is a non-empty string in one of `records`, in order of records then keys. */
function firstString(records: ReadonlyArray<Record<string, unknown> | null>, keys: readonly string[]): string | null {
  for (const record of records) {
    if (record === null) continue;
    for (const key of keys) {
      const value = nonEmptyString(record[key]);
      if (value !== null) return value;
    }
  }
  return null;
}

/**
 * The columns a JSON record names: session (`sessionId`, telemetry `properties.sessionId` or
 * `properties.ulid`, the 3.x session id), model (`model`, `modelId`), provider (`provider`,
 * `providerId`), tool (`toolName`, or `tool` of a `task.tool_used` telemetry event) and project
 * (`workspaceRoot`, `cwd`), at the top of the record or in its `properties`; else the task its message
 * names (2.x pino lines are cline-core's messages).
 */
export function jsonRecordColumns(message: string, fields: Record<string, unknown>): Partial<RowFields> {
  const properties = plainObject(fields.properties);
  const both = [fields, properties];
  const toolUsed = nonEmptyString(fields.event) === 'task.tool_used' ? nonEmptyString(properties?.tool) : null;
  return {
    session_id: firstString(both, ['sessionId', 'ulid']) ?? textSessionId(message),
    model: firstString(both, ['model', 'modelId']),
    provider: firstString(both, ['provider', 'providerId']),
    tool_name: firstString(both, ['toolName']) ?? toolUsed,
    project_path: firstString(both, ['workspaceRoot', 'cwd']),
  };
}

/**
 * The task a line of text names: `[Task 1796144349811] ...` (cline-core's task messages) or
 * `... for task 1796144349811` (its checkpoint messages); null when none.
 */
const TASK_ID = /\[Task (\d{10,16}(?:_[a-z0-9]{1,16})?)\]|\bfor task (\d{10,16}(?:_[a-z0-9]{1,16})?)\b/;

export function textSessionId(text: string): string | null {
  const m = TASK_ID.exec(text);
  return m === null ? null : (m[1] ?? m[2]);
}
