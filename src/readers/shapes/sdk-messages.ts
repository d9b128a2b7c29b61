/**
 * One SDK transcript `sessions/<id>/<id>.messages.json` (lead) or `<agentId>[__<teamTaskId>].messages.json`
 * (subagent, teammate): one row per content block of `messages[]`, streamed (cline-formats.md §2.3-2.4;
 * spec 002 "SDK messages file", "Parser plan", "Model rows"). readers/sdk-sessions/reader.ts reads the files;
 * readers/hub-events/reader.ts shapes the messages of the hub's run results with the same `sdkMessageRows`.
 */
import type { Row, RowFields, Source } from '../../core/row.js';
import { needsOriginal, parserRow, rowFor } from '../common/rows.js';
import { streamJson } from '../parse/json-stream.js';
import { blockRowFields, contentBlockFields, type MessageFields } from './content-blocks.js';
import { readJsonFile } from '../parse/json-file.js';
import { shortenAtTokenBoundary } from '../parse/quote.js';
import { userTextFields } from './user-input.js';
import { epochMs, wholeNumber, finiteNumber, plainObject, show, nonEmptyString } from '../common/values.js';

/** What a transcript takes from its session folder and manifest. */
export interface TranscriptContext {
  /** The session folder name, stamped on every row (subagent and teammate rows too); null for a hub run result of no session. */
  session_id: string | null;
  /** Manifest cwd, else workspace_root; null without a manifest. */
  project_path: string | null;
  /** Manifest started_at in epoch ms: the time of a message without `ts`. */
  started_ms: number | null;
  /** Model and provider in force before the first `modelInfo`: the manifest's for the lead, null otherwise. */
  model: string | null;
  provider: string | null;
  /** The manifest's `metadata.git.branch`, stamped on every row of the session; null without one. */
  git_branch: string | null;
}

/**
 * Rows of one transcript file, in message and block order: source_line = message index + 1, source_seq =
 * block index. The file is read with its base64 payloads elided (image blocks are only counted); a
 * message whose rows keep any is read again as written. A message that is not an object or has no string
 * or array content is one `parser:` row; a stream error keeps the rows before it and ends with one
 * `parser:` row. Never throws.
 */
export async function* readSdkMessages(source: Source, file: string, context: TranscriptContext): AsyncGenerator<Row> {
  const inForce: ModelInForce = { model: context.model, provider: context.provider };
  const common = { session_id: context.session_id, project_path: context.project_path, git_branch: context.git_branch };
  let index = -1;
  for await (const event of streamJson(file, ['$.messages.*'], '{', { elideBase64: true })) {
    if (event.type === 'error') {
      yield parserRow(source, file, null, `${event.message} (after ${event.valuesBefore} message(s))`, common);
      return;
    }
    index = typeof event.key === 'number' ? event.key : index + 1;
    const place = { line: index + 1, firstSeq: 0 };
    const before = { ...inForce };
    const rows = sdkMessageRows(source, file, event.value, place, context, inForce);
    if (event.original && needsOriginal(rows)) {
      Object.assign(inForce, before);
      yield* sdkMessageRows(source, file, event.original(), place, context, inForce);
    } else yield* rows;
  }
  if (index === -1) {
    const problem = await noMessagesProblem(file);
    if (problem !== null) yield parserRow(source, file, null, problem, common);
  }
}

/** The model and provider in force while a list of messages is read: each message's `modelInfo` replaces them. */
export interface ModelInForce {
  model: string | null;
  provider: string | null;
}

/** Where the rows of one message go in their file: its record (`source_line`) and the source_seq of its first block. */
export interface MessagePlace {
  line: number;
  firstSeq: number;
}

/** Takes the model and provider of an SDK message's `modelInfo` into `inForce` (a message without one keeps them). */
export function followModelInfo(message: Record<string, unknown>, inForce: ModelInForce): void {
  const info = plainObject(message.modelInfo);
  inForce.model = nonEmptyString(info?.id) ?? inForce.model;
  inForce.provider = nonEmptyString(info?.provider) ?? inForce.provider;
}

/**
 * The rows of one SDK message (`*.messages.json` entry, or a message of the hub's run result): one per
 * content block, the usage of its `metrics` on the first, a prompt's `<user_input>` wrapper removed. A
 * message that is not an object or has no string or array content, or a block that is not an object, is
 * a `parser:` row. Follows the message's modelInfo in `inForce` first, so its rows carry its own model.
 */
export function sdkMessageRows(
  source: Source,
  file: string,
  value: unknown,
  place: MessagePlace,
  context: TranscriptContext,
  inForce: ModelInForce,
): Row[] {
  const { line, firstSeq } = place;
  const common = { session_id: context.session_id, project_path: context.project_path, git_branch: context.git_branch };
  const message = plainObject(value);
  if (!message) return [parserRow(source, file, line, `message is not an object`, { ...common, source_seq: firstSeq })];
  followModelInfo(message, inForce);
  const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
  if (!Array.isArray(blocks)) {
    return [
      parserRow(source, file, line, `message has no string or array content`, {
        ...common,
        source_seq: firstSeq,
        ...messageTime(message, context),
      }),
    ];
  }
  const role = nonEmptyString(message.role);
  const metrics = plainObject(message.metrics);
  const base: MessageFields = {
    session_id: context.session_id,
    project_path: context.project_path,
    git_branch: context.git_branch,
    source_line: line,
    ...messageTime(message, context),
    model: inForce.model,
    provider: inForce.provider,
  };
  const rows: Row[] = [];
  for (let seq = 0; seq < blocks.length; seq++) {
    const block = plainObject(blocks[seq]);
    const usage =
      seq === 0 && metrics
        ? {
            tokens_in: wholeNumber(metrics.inputTokens),
            tokens_out: wholeNumber(metrics.outputTokens),
            cost_usd: finiteNumber(metrics.cost),
          }
        : null;
    if (!block) {
      rows.push(
        parserRow(source, file, line, `content block ${seq} is not an object`, { ...base, ...usage, source_seq: firstSeq + seq }),
      );
      continue;
    }
    const fields = contentBlockFields(block, role);
    rows.push(
      rowFor(
        source,
        file,
        blockRowFields(base, firstSeq + seq, usage, role === 'user' ? userTextFields(fields, message.metadata) : fields),
      ),
    );
  }
  return rows;
}

/** Why a transcript that gave no message has none: null for a real empty `messages`, else the problem. */
async function noMessagesProblem(file: string): Promise<string | null> {
  const parsed = await readJsonFile(file);
  if (!parsed.ok) return `no message read: ${parsed.message}`;
  const messages = plainObject(parsed.value)?.messages;
  if (Array.isArray(messages) || plainObject(messages) !== null) return null;
  return messages === undefined
    ? 'no messages array, no message read'
    : `messages is not an array (${shortenAtTokenBoundary(show(messages), 77)}), no message read`;
}

/** A message's time: its own `ts` (recorded), else its session's start (derived: the message wrote none). */
function messageTime(
  message: Record<string, unknown>,
  context: TranscriptContext,
): Pick<RowFields, 'timestamp_utc' | 'timestamp_source'> {
  const ts = epochMs(message.ts);
  return ts !== null
    ? { timestamp_utc: ts, timestamp_source: 'recorded' }
    : { timestamp_utc: context.started_ms, timestamp_source: 'derived' };
}
