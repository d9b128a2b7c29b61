/**
 * How a tool call's input becomes row text, shared by every store that records tool calls (SDK
 * transcripts, legacy api history, hooks.jsonl), so the same call reads the same in each.
 */
import { show } from '../common/values.js';

/**
 * The command itself when the input carries one (`command`, or `commands` joined by newlines), the
 * string when the input is a string, else the input as compact JSON.
 */
export function summariseToolInput(input: unknown): string {
  if (typeof input === 'string') return input;
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
    const record = input as Record<string, unknown>;
    if (typeof record.command === 'string') return record.command;
    if (Array.isArray(record.commands) && record.commands.every((c) => typeof c === 'string')) {
      return (record.commands as string[]).join('\n');
    }
  }
  return show(input);
}

/**
 * Whether a tool result's content reports a failure: the 3.x CLI gives each command or file of a call
 * its own result object, `{query, result, error, success}`, and a failed one has `success: false`
 * (its `is_error` is never set).
 */
export function toolResultFailed(content: unknown): boolean {
  return (
    Array.isArray(content) &&
    content.some((c) => typeof c === 'object' && c !== null && (c as { success?: unknown }).success === false)
  );
}

/**
 * Text of a tool result's content: a string as it is, an array's text parts joined by newlines with
 * images and files counted (`[1 image(s)]`), never their bytes.
 */
export function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return show(content);
  const parts: string[] = [];
  let images = 0;
  for (const block of content) {
    if (typeof block === 'string') parts.push(block);
    else if (typeof block === 'object' && block !== null) {
      const b = block as Record<string, unknown>;
      if (b.type === 'image') images += 1;
      else if (typeof b.text === 'string') parts.push(b.text);
      else if (b.type === 'file' && typeof b.path === 'string') parts.push(`[file ${b.path}]`);
      else parts.push(show(b));
    }
  }
  if (images > 0) parts.push(`[${images} image(s)]`);
  return parts.join('\n');
}
