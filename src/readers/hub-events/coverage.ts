/**
 * What the run results of a hub event log hold, per session, so the reader can tell a streamed event
 * that a run result repeats from one that is the only record of what it says.
 *
 * The hub logs each run twice: as it streams (assistant.finished, reasoning.finished, tool.started,
 * tool.finished, usage.updated) and when it ends (run.completed / run.failed / run.aborted with
 * `result.messages`, the session's whole message list so far). The messages are the record the
 * transcripts also hold, so they are what the reader shapes; a streamed event gives a row only when no
 * run result of its session holds what it says: a run killed before its end, a subagent's tools and usage
 * (the lead's list does not hold them).
 */
import { createHash } from 'node:crypto';
import { plainObject, nonEmptyString } from '../common/values.js';

/** What the run results of one session hold. */
export interface SessionCoverage {
  /** Ids of the tool_use blocks. */
  tool_uses: Set<string>;
  /** The tool_use_id of the tool_result blocks. */
  tool_results: Set<string>;
  /** SHA-256 of each assistant text block and of each thinking block, by kind (`text:`, `thinking:`). */
  texts: Set<string>;
  /** `<inputTokens>/<outputTokens>` of each message's metrics: one model request each. */
  usages: Set<string>;
  /** Ids of the messages taken in already (a later run result repeats the earlier messages), and positions of those without one. */
  message_ids: Set<string>;
  message_positions: Set<number>;
}

/** The coverage of every session of one log, by session id ('' for run results without one). */
export type Coverage = Map<string, SessionCoverage>;

function hashOf(kind: string, text: string): string {
  return `${kind}:${createHash('sha256').update(text).digest('base64')}`;
}

function coverageOf(coverage: Coverage, sessionId: string | null): SessionCoverage {
  const key = sessionId ?? '';
  let found = coverage.get(key);
  if (!found) {
    found = {
      tool_uses: new Set(),
      tool_results: new Set(),
      texts: new Set(),
      usages: new Set(),
      message_ids: new Set(),
      message_positions: new Set(),
    };
    coverage.set(key, found);
  }
  return found;
}

/** `<in>/<out>` of a usage object (metrics, or usage.updated's delta), or null without both counts. */
export function usageKey(usage: Record<string, unknown> | null): string | null {
  const input = usage?.inputTokens;
  const output = usage?.outputTokens;
  return typeof input === 'number' && typeof output === 'number' ? `${input}/${output}` : null;
}

/** Adds the messages of one run result of `sessionId` (each message once, by id, else by position). */
export function coverMessages(coverage: Coverage, sessionId: string | null, messages: unknown[]): void {
  const session = coverageOf(coverage, sessionId);
  for (let i = 0; i < messages.length; i++) {
    const message = plainObject(messages[i]);
    const id = nonEmptyString(message?.id);
    if (id !== null ? session.message_ids.has(id) : session.message_positions.has(i)) continue;
    if (id !== null) session.message_ids.add(id);
    else session.message_positions.add(i);
    if (!message) continue;
    const usage = usageKey(plainObject(message.metrics));
    if (usage !== null) session.usages.add(usage);
    const blocks = Array.isArray(message.content) ? message.content : [{ type: 'text', text: message.content }];
    for (const value of blocks) {
      const block = plainObject(value);
      if (block?.type === 'tool_use' && typeof block.id === 'string') session.tool_uses.add(block.id);
      else if (block?.type === 'tool_result' && typeof block.tool_use_id === 'string')
        session.tool_results.add(block.tool_use_id);
      else if (block?.type === 'text' && typeof block.text === 'string' && message.role === 'assistant')
        session.texts.add(hashOf('text', block.text));
      else if (block?.type === 'thinking' && typeof block.thinking === 'string')
        session.texts.add(hashOf('thinking', block.thinking));
    }
  }
}

/**
 * Whether a run result of the session holds what a streamed event says: the tool call of tool.started,
 * the result of tool.finished, the text of assistant.finished and reasoning.finished, the request of
 * usage.updated (its delta's token counts). False for any other event.
 */
export function isCovered(
  coverage: Coverage,
  sessionId: string | null,
  event: string,
  payload: Record<string, unknown>,
): boolean {
  const session = coverage.get(sessionId ?? '');
  if (!session) return false;
  switch (event) {
    case 'tool.started':
      return typeof payload.toolCallId === 'string' && session.tool_uses.has(payload.toolCallId);
    case 'tool.finished':
      return typeof payload.toolCallId === 'string' && session.tool_results.has(payload.toolCallId);
    case 'assistant.finished':
      return typeof payload.text === 'string' && session.texts.has(hashOf('text', payload.text));
    case 'reasoning.finished':
      return typeof payload.reasoning === 'string' && session.texts.has(hashOf('thinking', payload.reasoning));
    case 'usage.updated': {
      const key = usageKey(plainObject(payload.delta));
      return key !== null && session.usages.has(key);
    }
    default:
      return false;
  }
}

/** Whether some run result of the session holds a message (any run result's message list is not empty). */
export function holdsMessages(coverage: Coverage, sessionId: string | null): boolean {
  const session = coverage.get(sessionId ?? '');
  return session !== undefined && session.message_ids.size + session.message_positions.size > 0;
}
