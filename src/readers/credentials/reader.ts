/**
 * `credentials` store: files Cline keeps API keys and tokens in. Files, relative to their root:
 * `~/.cline/data/{secrets.json, settings/providers.json, connectors/settings.json}`,
 * `<globalStorage>/saoudrizwan.claude-dev/cache/remote_config_*.json`, and `<home>/Documents/Cline/
 * webhook_config.json` (discover/discover.ts).
 *
 * Each file gives one system row, kind `credential_file`, at the file's mtime:
 * `credential file: <home-relative file> keys=<key paths>`. Key paths are the JSON leaves' names, nested
 * keys dotted, array items as `[]` (`providers.anthropic.apiKey`, `servers[].token`), each once, in file
 * order, at most MAX_KEYS. Values are never read into a row, but for the provider defaults of a 3.x
 * `settings/providers.json` (credentials/provider-defaults.ts: the default provider and each provider's default model,
 * rows of kind `provider_default`). A file that is not JSON is one `parser:` row whose message never quotes the
 * file (JSON.parse quotes the text around the fault).
 */
import { promises as fs } from 'node:fs';
import { homePath } from '../common/home-path.js';
import { readJsonFile } from '../parse/json-file.js';
import type { Row, Source } from '../../core/row.js';
import type { Reader } from '../common/rows.js';
import { eachFile, parserRow, rowFor } from '../common/rows.js';
import { providerDefaultRows } from './provider-defaults.js';
import { plainObject } from '../common/values.js';

/** Most key paths listed for one file; more are counted. */
export const MAX_KEYS = 200;
/** Deepest nesting followed; a deeper value is listed by its path so far. */
const MAX_DEPTH = 32;
/** Files larger than this are not parsed (credential files are a few KB). */
const MAX_BYTES = 16 * 1024 * 1024;

/** A key as printed: plain when it is a simple name, else JSON-quoted and cut to 100 characters. */
function keyName(key: string): string {
  return /^[^\s,.=[\]"\\\p{C}]{1,100}$/u.test(key) ? key : JSON.stringify(key.slice(0, 100));
}

/** Every leaf path of a JSON value, once each, in document order; empty objects and arrays are leaves. */
export function keyPaths(value: unknown): { paths: string[]; total: number } {
  const seen = new Set<string>();
  const walk = (v: unknown, prefix: string, depth: number): void => {
    if (depth >= MAX_DEPTH) {
      seen.add(prefix);
      return;
    }
    if (Array.isArray(v)) {
      const itemPrefix = `${prefix}[]`;
      if (v.length === 0) seen.add(itemPrefix);
      for (const item of v) walk(item, itemPrefix, depth + 1);
      return;
    }
    const record = plainObject(v);
    if (record) {
      const keys = Object.keys(record);
      if (keys.length === 0 && prefix !== '') seen.add(prefix);
      for (const key of keys) walk(record[key], prefix === '' ? keyName(key) : `${prefix}.${keyName(key)}`, depth + 1);
      return;
    }
    if (prefix !== '') seen.add(prefix);
  };
  walk(value, '', 0);
  const all = [...seen];
  return { paths: all.slice(0, MAX_KEYS), total: all.length };
}

/** `credential file: <file> keys=<a,b.c,d[].e>`, with `(+N more)` past MAX_KEYS and `(none)` when empty. */
export function credentialText(file: string, value: unknown): string {
  const { paths, total } = keyPaths(value);
  const list = paths.length === 0 ? '(none)' : paths.join(',');
  return `credential file: ${file} keys=${list}${total > paths.length ? ` (+${total - paths.length} more)` : ''}`;
}

/** A read problem that cannot quote the file: I/O errors and size limits as they are, syntax errors generic. */
function safeProblem(message: string): string {
  if (message === 'empty file' || message.startsWith('file of ') || /^E[A-Z]+: /.test(message)) return message;
  return 'not valid JSON';
}

export const readCredentials: Reader = eachFile(readCredentialFile);

async function* readCredentialFile(source: Source, file: string): AsyncGenerator<Row> {
  const result = await readJsonFile(file, MAX_BYTES);
  if (!result.ok) {
    yield parserRow(source, file, null, safeProblem(result.message));
    return;
  }
  if (result.repair) yield parserRow(source, file, null, result.repair);
  const mtime = await fs.stat(file).then(
    (st) => Math.trunc(st.mtimeMs),
    () => null,
  );
  yield rowFor(source, file, {
    timestamp_utc: mtime,
    timestamp_source: 'file_mtime',
    turn_type: 'system',
    kind: 'credential_file',
    text: credentialText(homePath(source, file), result.value),
  });
  if (file.endsWith('/settings/providers.json')) {
    let seq = 1;
    for (const fields of providerDefaultRows(result.value, mtime)) yield rowFor(source, file, { ...fields, source_seq: seq++ });
  }
}
