/** Content blocks of a message, shared by the SDK transcripts and the legacy API history. */
import type { RowFields, TurnType } from '../../core/row.js';
import { shortenAtTokenBoundary } from '../parse/quote.js';
import { summariseToolInput, toolResultFailed, toolResultText } from './tool-input.js';
import { label, plainObject, nonEmptyString } from '../common/values.js';

/** What every block row of one message shares. */
export type MessageFields = Pick<
  RowFields,
  'session_id' | 'project_path' | 'source_line' | 'timestamp_utc' | 'timestamp_source' | 'model' | 'provider' | 'git_branch'
>;

/**
 * The fields of one block row: the message's, the usage (first block only) and the block's own, written
 * out in one fixed shape. Object spreads here cost more than the rest of the row.
 */
export function blockRowFields(
  message: MessageFields,
  seq: number,
  usage: Pick<RowFields, 'tokens_in' | 'tokens_out' | 'cost_usd'> | null,
  block: RowFields,
): RowFields {
  return {
    session_id: message.session_id,
    project_path: message.project_path,
    git_branch: message.git_branch ?? null,
    source_line: message.source_line,
    source_seq: seq,
    timestamp_utc: message.timestamp_utc,
    timestamp_source: message.timestamp_source,
    model: message.model,
    provider: message.provider,
    tokens_in: usage?.tokens_in ?? null,
    tokens_out: usage?.tokens_out ?? null,
    cost_usd: usage?.cost_usd ?? null,
    turn_type: block.turn_type,
    kind: block.kind,
    text: block.text ?? null,
    tool_name: block.tool_name ?? null,
    tool_use_id: block.tool_use_id ?? null,
    is_error: block.is_error ?? null,
    permission_mode: block.permission_mode ?? null,
  };
}

/** Longest string kept per field in the JSON text of an unknown block, and longest such text, in characters. */
const UNKNOWN_FIELD_CHARS = 120;
const UNKNOWN_TEXT_CHARS = 400;

/**
 * turn_type, kind and the block's own columns for one content block of a message of `role`: the
 * Anthropic blocks of legacy api_conversation_history.json and the SDK blocks of `*.messages.json`
 * (cline-formats.md §1.3, §2.3). Images, media and unknown blocks are summarised, never copied.
 */
export function contentBlockFields(block: Record<string, unknown>, role: string | null): RowFields {
  const byRole: TurnType = role === 'user' || role === 'assistant' ? role : 'system';
  const type = typeof block.type === 'string' ? block.type : label(block.type);
  switch (type) {
    case 'text':
      return { turn_type: byRole, kind: 'text', text: typeof block.text === 'string' ? block.text : null };
    case 'tool_use':
      return {
        turn_type: 'tool_use',
        kind: 'tool_use',
        tool_name: nonEmptyString(block.name),
        tool_use_id: nonEmptyString(block.id),
        text: summariseToolInput(block.input),
      };
    case 'tool_result':
      return {
        turn_type: 'tool_result',
        kind: 'tool_result',
        tool_name: nonEmptyString(block.name),
        tool_use_id: nonEmptyString(block.tool_use_id),
        is_error: block.is_error === true || toolResultFailed(block.content),
        text: toolResultText(block.content),
      };
    case 'thinking':
      return { turn_type: 'thinking', kind: 'thinking', text: typeof block.thinking === 'string' ? block.thinking : null };
    case 'redacted_thinking':
      return { turn_type: 'thinking', kind: 'redacted_thinking', text: '[redacted thinking]' };
    case 'image':
      return { turn_type: byRole, kind: 'image', text: '[1 image(s)]' };
    case 'document':
      return { turn_type: byRole, kind: 'document', text: '[document]' };
    case 'file':
      return {
        turn_type: byRole,
        kind: 'file',
        text: `file ${nonEmptyString(block.path) ?? '-'}:\n${typeof block.content === 'string' ? block.content : ''}`,
      };
    case 'media': {
      const media = plainObject(block.media);
      const label = [nonEmptyString(media?.mediaType), nonEmptyString(media?.name)].filter((part) => part !== null).join(' ');
      return { turn_type: byRole, kind: 'media', text: label === '' ? '[media]' : `[media ${label}]` };
    }
    default:
      return { turn_type: 'system', kind: `block:${type}`, text: shortJson(block) };
  }
}

/**
 * Compact JSON of an unknown block (or any record read only for show, such as an unknown hub event's
 * payload) with long strings cut, so a base64 payload never fills the row.
 */
export function shortJson(block: Record<string, unknown>): string {
  let text: string;
  try {
    text = JSON.stringify(block, (_key, value: unknown) =>
      typeof value === 'string' ? shortenAtTokenBoundary(value, UNKNOWN_FIELD_CHARS) : value,
    );
  } catch {
    text = '{}';
  }
  return shortenAtTokenBoundary(text, UNKNOWN_TEXT_CHARS);
}
