/**
 * What one message document of `session-search.db` says about its message. The 3.x hub indexes a message
 * as the string values of its content blocks, depth first, joined by `\n` and trimmed (@cline/core
 * `SessionSearchIndex`: `text` blocks give `text\n<text>`, tool calls `tool_use\n<id>\n<name>\n<input
 * values>`, results `tool_result\n<id>\n<name>\n<output>`), cut at the index's length cap. The block type is
 * the first line, so a document reads as the row of its first block: a prompt as typed (the `<user_input>`
 * wrapper unwrapped, its mode the permission_mode), a tool call or result with its call id and tool name in
 * their columns and its input values (and output) as text. The type, id and name lines are all that goes.
 */
import type { RowFields, TurnType } from '../../core/row.js';
import { isRunReminder, userInputOf } from '../shapes/user-input.js';

type DocumentFields = Pick<RowFields, 'turn_type' | 'text' | 'tool_use_id' | 'tool_name' | 'permission_mode'>;

const TOOL_CALL_MARK = '\ntool_use\n';

function roleTurnType(role: unknown): TurnType {
  return role === 'user' ? 'user' : role === 'assistant' ? 'assistant' : 'system';
}

/** Call id and tool name: the two lines after a block type line. */
function callOf(lines: string): { tool_use_id: string | null; tool_name: string | null } {
  const [id, name] = lines.split('\n', 2);
  return { tool_use_id: id || null, tool_name: name || null };
}

/** What follows the call id and tool name lines: the call's input values (and a result's output). */
function afterCall(lines: string): string {
  const id = lines.indexOf('\n');
  const name = id === -1 ? -1 : lines.indexOf('\n', id + 1);
  return name === -1 ? '' : lines.slice(name + 1);
}

/** The row fields of a message document with role `role` and indexed text `content`. */
export function searchDocumentFields(role: unknown, content: string | null): DocumentFields {
  const none = { tool_use_id: null, tool_name: null, permission_mode: null };
  if (content === null) return { ...none, turn_type: roleTurnType(role), text: null };
  for (const type of ['tool_result', 'tool_use'] as const) {
    if (!content.startsWith(`${type}\n`)) continue;
    const call = content.slice(type.length + 1);
    return { ...none, ...callOf(call), turn_type: type, text: afterCall(call) || null };
  }
  if (!content.startsWith('text\n')) return { ...none, turn_type: roleTurnType(role), text: content };
  const body = content.slice('text\n'.length);
  if (role === 'user') {
    const prompt = userInputOf(body);
    if (prompt) return { ...none, turn_type: 'user', text: prompt.text, permission_mode: prompt.mode };
    return { ...none, turn_type: isRunReminder(body, null) ? 'system' : 'user', text: body };
  }
  const call = body.indexOf(TOOL_CALL_MARK);
  return {
    ...none,
    ...(call === -1 ? {} : callOf(body.slice(call + TOOL_CALL_MARK.length))),
    turn_type: roleTurnType(role),
    text: body,
  };
}
