/**
 * Generator of broken and hostile host images for the hostile-input suite. Every builder writes one
 * host folder into a fleet (under os.tmpdir()) and returns the cases it planted, each with what the
 * warehouse must say about it afterwards.
 */
import Database from 'better-sqlite3';
import { createWriteStream, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { once } from 'node:events';
import { fixture } from '../helpers/source.js';
import { DEMO_SESSIONS } from '../helpers/demo-dbs.js';
import { writeSessionsDb } from '../helpers/sqlite-fixtures.js';

/**
 * What the warehouse must show for a planted entry:
 * - `error`: a `files` row with count_errors > 0 and a `parser:` row naming the file;
 * - `clean`: a `files` row with rows and no error (odd but valid input);
 * - `listed`: a `files` row without error (e.g. an empty log: no lines, nothing lost);
 * - `problem`: a discovery-skipped entry (never opened): a `parser:` row naming the path.
 */
export type Expect = 'error' | 'clean' | 'listed' | 'problem';

export interface HostileCase {
  host: string;
  /** Image-relative, `/`-separated path of the planted entry. */
  file: string;
  what: string;
  expect: Expect;
}

/** `home/u/.cline/data`: the cline-tasks / sdk / db / logs store root inside an image. */
export const DATA = 'home/u/.cline/data';

/** Valid bytes to mutate. */
export const UI_VALID = readFileSync(fixture('cline-tasks', 'img', DATA, 'tasks', '1761000000000', 'ui_messages.json'));
export const HOOKS_VALID = readFileSync(fixture('hooks-log', 'img', DATA, 'logs', 'hooks.jsonl'));

/** A host builder: plants files and records the cases. */
export class HostBuilder {
  readonly cases: HostileCase[] = [];
  private next = 1762000000000;
  constructor(
    readonly fleet: string,
    readonly host: string,
  ) {
    mkdirSync(path.join(fleet, host), { recursive: true });
  }
  abs(rel: string): string {
    return path.join(this.fleet, this.host, ...rel.split('/'));
  }
  /** Writes a file (folders created) and records the case when `expect` is given. */
  put(rel: string, bytes: Buffer | string, what?: string, expect?: Expect): string {
    mkdirSync(path.dirname(this.abs(rel)), { recursive: true });
    writeFileSync(this.abs(rel), bytes);
    if (what && expect) this.cases.push({ host: this.host, file: rel, what, expect });
    return rel;
  }
  /** Records an entry made by the caller (FIFO, link, ...). */
  record(rel: string, what: string, expect: Expect): void {
    this.cases.push({ host: this.host, file: rel, what, expect });
  }
  /** A fresh task folder path `home/u/.cline/data/tasks/<id>/<name>`. */
  task(name = 'ui_messages.json'): string {
    return `${DATA}/tasks/${this.next++}/${name}`;
  }
  /** One valid task, so the host has a cline-tasks partition for discovery problems to land in. */
  anchor(): void {
    this.put(this.task(), UI_VALID);
  }
}

/** Offsets inside a string, between array elements and inside a number of the valid ui_messages. */
export function truncationOffsets(bytes: Buffer): Array<{ at: number; where: string }> {
  const text = bytes.toString('latin1');
  const out: Array<{ at: number; where: string }> = [
    { at: 1, where: 'after the opening bracket' },
    { at: text.indexOf('add a CLI') + 3, where: 'inside a string' },
    { at: text.indexOf('},{') + 1, where: 'after an element, before the comma' },
    { at: text.indexOf('},{') + 2, where: 'after a comma between elements' },
    { at: text.indexOf('1761000001000') + 5, where: 'inside a number' },
    { at: text.indexOf('\\"request') + 1, where: 'inside an escape sequence' },
    { at: text.indexOf('"type"') + 3, where: 'inside a key' },
    { at: text.indexOf('true') === -1 ? text.indexOf(':"say"') + 1 : text.indexOf('true') + 2, where: 'after a colon' },
    { at: bytes.length - 1, where: 'just before the closing bracket' },
  ];
  for (let at = 7; at < bytes.length - 1; at += 61) out.push({ at, where: `at byte ${at}` });
  return out;
}

/** Truncations of a valid ui_messages.json, one task per offset. */
export function buildTruncated(fleet: string): HostBuilder {
  const b = new HostBuilder(fleet, 'h-trunc');
  for (const { at, where } of truncationOffsets(UI_VALID))
    b.put(b.task(), UI_VALID.subarray(0, at), `ui_messages truncated ${where} (${at} bytes)`, 'error');
  b.put(
    b.task('api_conversation_history.json'),
    '[{"role":"user","content":[{"type":"text","text":"hal',
    'api history truncated in a string',
    'error',
  );
  b.put(`${DATA}/state/taskHistory.json`, '[{"id":"1762000000000","ts":17620', 'taskHistory truncated in a number', 'error');
  b.put(
    `${DATA}/logs/hooks.jsonl`,
    HOOKS_VALID.subarray(0, Math.floor(HOOKS_VALID.length / 2)),
    'hooks.jsonl truncated mid-line',
    'error',
  );
  return b;
}

const msg = (ts: number, extra: string) => `{"ts":${ts},"type":"say","say":"text",${extra}}`;

/** Encodings: invalid UTF-8, lone surrogates, BOM, NUL bytes, CRLF. */
export function buildEncodings(fleet: string): HostBuilder {
  const b = new HostBuilder(fleet, 'h-enc');
  const invalid = Buffer.concat([
    Buffer.from(`[${msg(1762000000001, '"text":"bad ')}`),
    Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80]),
    Buffer.from('"}]'),
  ]);
  b.put(b.task(), invalid, 'invalid UTF-8 bytes inside a string (row kept, repair reported)', 'error');
  b.put(b.task(), Buffer.concat([Buffer.from([0xff, 0xfe]), UI_VALID]), 'invalid UTF-8 bytes before the root', 'error');
  b.put(b.task(), `[${msg(1762000000002, '"text":"lone \\ud800 high and \\udc00 low"')}]`, 'lone surrogate escapes', 'clean');
  b.put(b.task(), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), UI_VALID]), 'UTF-8 BOM', 'clean');
  b.put(b.task(), Buffer.concat([Buffer.from('[\0'), UI_VALID.subarray(1)]), 'NUL byte between tokens', 'error');
  b.put(
    b.task(),
    Buffer.concat([Buffer.from(`[${msg(1762000000003, '"text":"nul ')}`), Buffer.from([0]), Buffer.from('inside"}]')]),
    'raw NUL byte inside a string',
    'error',
  );
  b.put(b.task(), Buffer.alloc(4096), 'a file of NUL bytes only', 'error');
  b.put(
    b.task(),
    UI_VALID.toString('utf8').replace(/\},\{/g, '},\r\n{').replace(/^\[/, '[\r\n'),
    'CRLF line ends between tokens',
    'clean',
  );
  const hooksCrlf = HOOKS_VALID.toString('utf8').replace(/\n/g, '\r\n');
  b.put(
    `${DATA}/logs/hooks.jsonl`,
    Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(hooksCrlf), Buffer.from([0xff, 0x00, 0x0a])]),
    'hooks.jsonl with BOM, CRLF and a garbage line',
    'error',
  );
  return b;
}

/** Wrong JSON types, unknown kinds and block types. */
export function buildTypes(fleet: string): HostBuilder {
  const b = new HostBuilder(fleet, 'h-types');
  b.put(b.task(), '{"messages":[]}', 'ui_messages root is an object', 'error');
  b.put(b.task(), '"just a string"', 'ui_messages root is a string', 'error');
  b.put(b.task(), 'null', 'ui_messages root is null', 'error');
  b.put(b.task(), '[null, "str", 42, [1,[2]], true]', 'messages of the wrong type', 'error');
  b.put(
    b.task(),
    `[{"ts":"not a time","type":{"x":1},"say":["a"],"text":{"t":1},"images":"x","modelInfo":"m"}]`,
    'fields of the wrong type',
    'clean',
  );
  b.put(
    b.task(),
    `[{"ts":1e400,"type":"say","say":"api_req_started","text":"{\\"tokensIn\\":1e308,\\"tokensOut\\":-1e400,\\"cost\\":\\"NaN\\"}"}]`,
    'huge numbers',
    'clean',
  );
  b.put(
    b.task(),
    `[{"ts":123456789012345678901234567890,"type":"ask","ask":"no_such_ask_kind","text":"?"},{"ts":1762000000000,"type":"say","say":"no_such_say_kind"},{"ts":1,"type":"weird"}]`,
    'unknown ask/say kinds',
    'clean',
  );
  b.put(
    b.task('api_conversation_history.json'),
    '[{"role":"assistant","content":[{"type":"no_such_block"},{"type":"tool_use","input":[[[1]]]},{"type":"tool_result","content":{"a":1}},7,null]},{"role":7,"content":{"x":1}}]',
    'unknown block types, wrong content types',
    'error',
  );
  b.put(
    `${DATA}/state/taskHistory.json`,
    '[{"id":{"x":1},"ts":"x","task":[1],"tokensIn":"lots"}, 5]',
    'taskHistory items of the wrong types',
    'error',
  );
  b.put(
    `${DATA}/tasks/1762000000001/task_metadata.json`,
    '{"model_usage":"x","environment_history":[1,null],"files_in_context":{}}',
    'task_metadata fields of the wrong types',
    'error',
  );
  b.put(
    `${DATA}/logs/hooks.jsonl`,
    '{"hookName":{"x":1}}\n[1,2]\nnull\n"s"\n{"hookName":"tool_call","tool_call":"x","ts":[1]}\n',
    'hooks lines of the wrong types',
    'error',
  );
  b.put(
    `${DATA}/cache/user_input_history.jsonl`,
    '{"prompt":{"x":1}}\n{"prompt":"ok","ts":"x"}\n',
    'input history of the wrong types',
    'error',
  );
  b.put(`${DATA}/sessions/1762000000000_abcde/1762000000000_abcde.json`, '[1,2,3]', 'sdk manifest is an array', 'error');
  b.put(
    `${DATA}/sessions/1762000000000_abcde/1762000000000_abcde.messages.json`,
    '{"messages":"nope"}',
    'sdk messages of the wrong type',
    'error',
  );
  b.put(`${DATA}/globalState.json`, '[]', 'globalState is an array', 'error');
  return b;
}

/** Empty and zero-length files, and the SQLite cases. */
export function buildEmptyAndSqlite(fleet: string): HostBuilder {
  const b = new HostBuilder(fleet, 'h-empty');
  b.put(b.task(), '', 'zero-length ui_messages.json', 'error');
  b.put(b.task(), ' \n\t\r\n', 'whitespace-only ui_messages.json', 'error');
  b.put(b.task('task_metadata.json'), '', 'zero-length task_metadata.json', 'error');
  b.put(`${DATA}/logs/hooks.jsonl`, '', 'zero-length hooks.jsonl', 'listed');
  b.put(`${DATA}/db/sessions.db`, '', 'zero-length sessions.db', 'error');
  const corrupt = Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(8192, 0xa5)]);
  b.put(`${DATA}/db/session-search.db`, corrupt, 'corrupt SQLite (header then garbage)', 'error');
  return b;
}

/**
 * SQLite of an older schema, of an unknown schema, a `-wal` without its database, and a `sessions` table
 * declared `WITHOUT ROWID` (issue 9: it lost every row): one host each.
 */
export function buildSqliteSchemas(fleet: string): HostBuilder[] {
  const legacy = new HostBuilder(fleet, 'h-sqlite-old');
  writeSessionsDb(legacy.abs(`${DATA}/db/sessions.db`), DEMO_SESSIONS, { legacy: true });
  legacy.record(`${DATA}/db/sessions.db`, 'SQLite of an older schema (missing later columns)', 'clean');
  const unknown = new HostBuilder(fleet, 'h-sqlite-unknown');
  mkdirSync(path.dirname(unknown.abs(`${DATA}/db/sessions.db`)), { recursive: true });
  const db = new Database(unknown.abs(`${DATA}/db/sessions.db`));
  db.exec("create table foo (a, b); insert into foo values (1, 'x');");
  db.close();
  unknown.record(`${DATA}/db/sessions.db`, 'SQLite of an unknown schema', 'error');
  const orphan = new HostBuilder(fleet, 'h-sqlite-walonly');
  writeSessionsDb(orphan.abs(`${DATA}/db/sessions.db`), DEMO_SESSIONS, { wal: true });
  rmSync(orphan.abs(`${DATA}/db/sessions.db`));
  rmSync(orphan.abs(`${DATA}/db/sessions.db-shm`), { force: true });
  orphan.record(`${DATA}/db/sessions.db-wal`, 'a -wal without its database', 'error');
  const keyed = new HostBuilder(fleet, 'h-sqlite-norowid');
  writeSessionsDb(keyed.abs(`${DATA}/db/sessions.db`), DEMO_SESSIONS, { withoutRowid: true });
  keyed.record(`${DATA}/db/sessions.db`, 'a sessions table declared WITHOUT ROWID', 'clean');
  return [legacy, unknown, orphan, keyed];
}

/** Writes `bytes` repeated until `total` bytes through a stream (never one big Buffer). */
export async function writeStreamed(file: string, head: string, fill: Buffer, total: number, tail: string): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  const out = createWriteStream(file);
  out.write(head);
  let left = total;
  while (left > 0) {
    const piece = left >= fill.length ? fill : fill.subarray(0, left);
    left -= piece.length;
    if (!out.write(piece)) await once(out, 'drain');
  }
  out.end(tail);
  await once(out, 'finish');
}

/** A symlink, created relative or absolute as given. */
export function link(b: HostBuilder, rel: string, target: string, what: string, expect?: Expect): void {
  mkdirSync(path.dirname(b.abs(rel)), { recursive: true });
  symlinkSync(target, b.abs(rel));
  if (expect) b.record(rel, what, expect);
}
