/**
 * A legacy task's `ui_messages.json` (cline-formats.md §1; store specification, "Parser plan"): one row
 * per ClineMessage. The file is read with its base64 payloads elided (parse/base64-elision.ts): the
 * images and screenshots are only counted, so they are never decoded. A message whose row still holds
 * an elided payload is built again from the message as written (common/rows.ts needsOriginal).
 */
import { ERROR_KINDS, messageTurnType } from './cline-message-kinds.js';
import { streamJson } from '../parse/json-stream.js';
import { shortenAtTokenBoundary } from '../parse/quote.js';
import type { Row, RowFields, Source } from '../../core/row.js';
import { needsOriginal, parserRow, rowFor } from '../common/rows.js';
import { requestResults } from './request-results.js';
import { modelAt, type TaskContext } from '../shapes/task-context.js';
import { epochMs, wholeNumber, finiteNumber, plainObject, parseEmbeddedJson, show, nonEmptyString } from '../common/values.js';

/** The last tool use of the file so far: a tool result carries its id and name. */
interface LastToolUse {
  id: string | null;
  name: string | null;
}

/** ` | [N image(s)] | [N file(s)]` appended to a message text; the attachments are never copied. */
function withAttachments(text: string | null, images: unknown, files: unknown): string | null {
  const parts = text === null || text === '' ? [] : [text];
  if (Array.isArray(images) && images.length > 0) parts.push(`[${images.length} image(s)]`);
  if (Array.isArray(files) && files.length > 0) parts.push(`[${files.length} file(s)]`);
  return parts.length === 0 ? null : parts.join(' | ');
}

/**
 * One row per ClineMessage; tool results carry the tool_use_id (`String(ts)`) and tool name of the last tool
 * use. A `say:api_req_started` message whose request carries tool results back (legacy-tasks/request-results.ts) is
 * followed by one `request:tool_result` row per result (source_seq 1, 2, ...), with the id and tool name of the
 * tool use it answers: the tool uses since the request before, in order (the last tool use past them).
 */
export async function* readUiMessages(source: Source, file: string, task: TaskContext): AsyncGenerator<Row> {
  const base = { session_id: task.session_id, project_path: task.project_path };
  let index = 0;
  const last: LastToolUse = { id: null, name: null };
  let pending: LastToolUse[] = [];
  for await (const event of streamJson(file, ['$.*'], '[', { elideBase64: true })) {
    if (event.type === 'error') {
      yield parserRow(source, file, null, `${event.message} (${event.valuesBefore} records read)`, base);
      return;
    }
    index += 1;
    const rowsOf = (value: unknown): Row[] => {
      const message = plainObject(value);
      if (message === null)
        return [parserRow(source, file, index, `message is not a JSON object: ${shortenAtTokenBoundary(show(value), 77)}`, base)];
      const fields = messageFields(message, index, task, last);
      const row = rowFor(source, file, fields);
      if (fields.kind !== 'say:api_req_started' || fields.text === null || fields.text === undefined) return [row];
      const results = requestResults(fields.text).map((r, i) => {
        const use = pending[i] ?? last;
        return rowFor(source, file, {
          ...base,
          source_line: index,
          source_seq: i + 1,
          timestamp_utc: fields.timestamp_utc,
          turn_type: 'tool_result',
          kind: 'request:tool_result',
          model: fields.model,
          provider: fields.provider,
          text: r.text,
          tool_name: use.name ?? r.tool,
          tool_use_id: use.id,
          is_error: r.isError ? true : null,
        });
      });
      return [row, ...results];
    };
    let rows = rowsOf(event.value);
    if (event.original && needsOriginal(rows)) rows = rowsOf(event.original());
    for (const row of rows) {
      if (row.turn_type === 'tool_use') {
        last.id = row.tool_use_id;
        last.name = row.tool_name;
        pending.push({ id: row.tool_use_id, name: row.tool_name });
      } else if (row.kind === 'say:api_req_started') pending = [];
      yield row;
    }
  }
}

/** The row of the `index`-th message (1-based) of the file, after the tool use `last`. */
function messageFields(message: Record<string, unknown>, index: number, task: TaskContext, last: LastToolUse): RowFields {
  const type = nonEmptyString(message.type);
  const value = type === 'ask' ? nonEmptyString(message.ask) : type === 'say' ? nonEmptyString(message.say) : null;
  const kind = `${type ?? show(message.type)}:${value ?? '-'}`;
  // Cline shows a task's first message as its task whatever its `say` (ChatView: `displayMessages.at(0)`);
  // the 1.x CLI writes the prompt there as `say: "text"`, which would otherwise read as the agent's.
  const turnType = index === 1 && kind === 'say:text' ? 'user' : messageTurnType(type, value);
  const ts = epochMs(message.ts);
  const raw = typeof message.text === 'string' ? message.text : null;
  const model = modelAt(task, message.modelInfo, ts);
  // Every field spelled out, no spreads: one object shape for all rows (spreads cost 10 % of the read).
  const fields: RowFields = {
    session_id: task.session_id,
    project_path: task.project_path,
    source_line: index,
    timestamp_utc: ts,
    turn_type: turnType,
    kind,
    model: model.model,
    provider: model.provider,
    text: raw,
    is_error: ERROR_KINDS.has(kind) ? true : null,
    tool_name: null,
    tool_use_id: null,
    tokens_in: null,
    tokens_out: null,
    cost_usd: null,
  };
  if (value === 'reasoning' && raw === null) fields.text = nonEmptyString(message.reasoning);
  else if (value === 'api_req_started') {
    const info = plainObject(parseEmbeddedJson(raw));
    if (info !== null) {
      fields.text = nonEmptyString(info.request) ?? '-';
      fields.tokens_in = wholeNumber(info.tokensIn);
      fields.tokens_out = wholeNumber(info.tokensOut);
      fields.cost_usd = finiteNumber(info.cost);
      if (nonEmptyString(info.cancelReason) !== null) fields.is_error = true;
    }
  } else if (kind === 'ask:command' && raw !== null && raw.endsWith('REQ_APP')) {
    fields.text = raw.slice(0, -'REQ_APP'.length);
  } else if (value === 'browser_action_result') {
    const result = plainObject(parseEmbeddedJson(raw));
    if (result !== null && typeof result.screenshot === 'string') {
      const { screenshot: _screenshot, ...rest } = result;
      fields.text = withAttachments(show(rest), [1], null);
    }
  }
  fields.tool_name = toolNameOf(value, raw);
  if (turnType === 'tool_use') {
    fields.tool_use_id = ts === null ? null : String(ts);
  } else if (turnType === 'tool_result') {
    fields.tool_use_id = last.id;
    fields.tool_name ??= last.name;
  }
  fields.text = withAttachments(fields.text ?? null, message.images, message.files);
  return fields;
}

/** tool_name of a message: ClineSayTool.tool, the MCP tool, or the legacy tool the discriminator stands for. */
function toolNameOf(value: string | null, raw: string | null): string | null {
  switch (value) {
    case 'tool':
      return nonEmptyString(plainObject(parseEmbeddedJson(raw))?.tool);
    case 'use_mcp_server': {
      const mcp = plainObject(parseEmbeddedJson(raw));
      return mcp?.type === 'access_mcp_resource' ? 'access_mcp_resource' : nonEmptyString(mcp?.toolName);
    }
    case 'command':
      return 'execute_command';
    case 'browser_action_launch':
    case 'browser_action':
    case 'browser_action_result':
      return 'browser_action';
    case 'use_subagents':
      return 'use_subagents';
    default:
      return null;
  }
}
