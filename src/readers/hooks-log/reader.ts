/**
 * `hooks-log` store: the SDK's hook audit log `~/.cline/data/logs/hooks.jsonl` (store specification
 * "Hook audit log", "Past-use rows and secondary sources"; cline-formats §4.2 and §7.3-7.5).
 *
 * Append-only JSONL, one line per hook event, read line by line so a bad line costs one `parser:` row.
 * Every row is at the line's `ts` (ISO; else `timestamp`), with session_id
 * `sessionContext.rootSessionId` (else `taskId`, the conversation id, else the shutdown line's
 * `sessionId`), project_path the first `workspaceRoots` entry (else `workspaceInfo.rootPath`) and
 * git_branch `workspaceInfo.latestGitBranchName`. Kinds are `hook:<hookName>`.
 */
import type { Row, RowFields, Source } from '../../core/row.js';
import type { Reader } from '../common/rows.js';
import { eachFile, parserRow, rowFor } from '../common/rows.js';
import { quoteLine, readLines } from '../parse/lines.js';
import { summariseToolInput, toolResultText } from '../shapes/tool-input.js';
import { isRunReminder } from '../shapes/user-input.js';
import { booleanOrNull, epochMs, plainObject, show, nonEmptyString } from '../common/values.js';

/** The fields every row of a line shares: time, session, project and branch. */
function lineContext(line: Record<string, unknown>): Partial<RowFields> {
  const workspaceInfo = plainObject(line.workspaceInfo);
  const roots = Array.isArray(line.workspaceRoots) ? line.workspaceRoots : [];
  return {
    timestamp_utc: epochMs(line.ts) ?? epochMs(line.timestamp),
    session_id:
      nonEmptyString(plainObject(line.sessionContext)?.rootSessionId) ??
      nonEmptyString(line.taskId) ??
      nonEmptyString(line.sessionId),
    project_path: nonEmptyString(roots[0]) ?? nonEmptyString(workspaceInfo?.rootPath),
    git_branch: nonEmptyString(workspaceInfo?.latestGitBranchName),
  };
}

/** `error=<name>: <message>` for an agent_error's error; never the stack. */
function errorPair(error: unknown): string | null {
  if (error === undefined || error === null || error === '') return null;
  const record = plainObject(error);
  if (!record) return `error=${show(error)}`;
  const name = nonEmptyString(record.name);
  const message = nonEmptyString(record.message) ?? '-';
  return name ? `error=${name}: ${message}` : `error=${message}`;
}

/** `hook audit: <hookName>` with the line's identifying pairs, each only when present and non-empty. */
export function hookAuditText(hookName: string, line: Record<string, unknown>): string {
  const pairs: [string, unknown][] = [
    ['cline_version', line.clineVersion],
    ['user', line.userId],
    ['agent', line.agent_id],
    ['parent_agent', line.parent_agent_id],
    ['reason', line.reason],
    ['pid', line.pid],
    ['source', line.source],
  ];
  const parts = [`hook audit: ${hookName}`];
  for (const [name, value] of pairs) {
    if (value === undefined || value === null || value === '') continue;
    parts.push(`${name}=${show(value)}`);
  }
  const error = errorPair(line.error);
  if (error) parts.push(error);
  return parts.join(' ');
}

/** The row fields of one parsed line, by hookName. */
function hookFields(hookName: string, line: Record<string, unknown>): RowFields {
  const kind = `hook:${hookName}`;
  switch (hookName) {
    case 'prompt_submit': {
      // the CLI's own run reminders reach the hook as prompts too: system rows, as in the transcript
      const prompt = nonEmptyString(plainObject(line.userPromptSubmit)?.prompt);
      return { turn_type: prompt !== null && isRunReminder(prompt, null) ? 'system' : 'user', kind, text: prompt };
    }
    case 'tool_call': {
      const call = plainObject(line.tool_call);
      const pre = plainObject(line.preToolUse);
      const input = call && 'input' in call ? call.input : pre?.parameters;
      return {
        turn_type: 'tool_use',
        kind,
        tool_name: nonEmptyString(call?.name) ?? nonEmptyString(pre?.toolName),
        tool_use_id: nonEmptyString(call?.id),
        text: input === undefined ? null : summariseToolInput(input),
      };
    }
    case 'tool_result': {
      const call = plainObject(line.tool_result);
      const post = plainObject(line.postToolUse);
      const error = call?.error;
      const hasError = error !== undefined && error !== null && error !== '';
      let text: string | null;
      if (hasError) text = `[error] ${show(error)}`;
      else if (typeof post?.result === 'string') text = post.result;
      else text = call && call.output !== undefined ? toolResultText(call.output) : null;
      return {
        turn_type: 'tool_result',
        kind,
        tool_name: nonEmptyString(call?.name) ?? nonEmptyString(post?.toolName),
        tool_use_id: nonEmptyString(call?.id),
        text,
        is_error: hasError || booleanOrNull(post?.success) === false,
      };
    }
    case 'agent_end':
      return { turn_type: 'assistant', kind, text: nonEmptyString(plainObject(line.turn)?.outputText) };
    default:
      return { turn_type: 'system', kind, text: hookAuditText(hookName, line) };
  }
}

/** One row per hooks.jsonl line; a line that is not a JSON object with a hookName is a `parser:` row. */
export const readHooksLog: Reader = eachFile(readHooksFile);

async function* readHooksFile(source: Source, file: string): AsyncGenerator<Row> {
  for await (const event of readLines(file)) {
    if (event.type === 'error') {
      yield parserRow(source, file, event.lineNo, event.message);
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(event.text);
    } catch {
      yield parserRow(source, file, event.lineNo, `not JSON: ${quoteLine(event.text)}`);
      continue;
    }
    const line = plainObject(value);
    const hookName = nonEmptyString(line?.hookName);
    if (!line || !hookName) {
      yield parserRow(source, file, event.lineNo, `no hookName: ${quoteLine(event.text)}`);
      continue;
    }
    yield rowFor(source, file, { ...lineContext(line), ...hookFields(hookName, line), source_line: event.lineNo });
  }
}
