/**
 * The rows of the hub event log's events other than the session records and the run results' messages
 * (readers/hub-events/reader.ts): the end of each run, the hook calls and their answers, tool approvals, the
 * streamed events no run result holds, and any other event. Each function gives the event's own fields;
 * the reader adds the record's place, time, session and the session's project, branch and model.
 * Payloads: cline/cline sdk/packages/core/src/hub/server/handlers/ (session-event-projector.ts,
 * run-handlers.ts, approval-handlers.ts) and sdk/packages/shared/src/hub.ts.
 */
import type { RowFields } from '../../core/row.js';
import { shortJson } from '../shapes/content-blocks.js';
import { summariseToolInput, toolResultFailed, toolResultText } from '../shapes/tool-input.js';
import { wholeNumber, finiteNumber, plainObject, parseEmbeddedJson, show, nonEmptyString } from '../common/values.js';

/** The fields an event row decides. */
export type EventFields = Pick<RowFields, 'turn_type' | 'kind' | 'text'> &
  Partial<
    Pick<
      RowFields,
      | 'tool_name'
      | 'tool_use_id'
      | 'is_error'
      | 'tokens_in'
      | 'tokens_out'
      | 'cost_usd'
      | 'model'
      | 'provider'
      | 'setting_name'
      | 'setting_value'
    >
  >;

/** What a capability request asked, kept until its answer (capability.resolved names only the request id). */
export interface CapabilityCall {
  name: string;
  tool_name: string | null;
  tool_use_id: string | null;
}

/** The capability the hub asks a client's hook bridge for every agent event; it repeats the other events, so it gives no row. */
export const EVERY_EVENT_HOOK = 'hook.onEvent';

/**
 * `run <completed|failed|aborted|interrupted>: reason=... iterations=... duration_ms=... tokens_in=...
 * tokens_out=... cost=... error=...`: one per run end, the run's totals in the text only (the messages
 * carry each request's usage). An error on run.failed, or a failed finish, makes it an error row.
 */
export function runEndFields(event: string, payload: Record<string, unknown>): EventFields {
  const result = plainObject(payload.result);
  const usage = plainObject(result?.usage);
  const model = plainObject(result?.model);
  const error = nonEmptyString(payload.error);
  const reason = nonEmptyString(payload.reason) ?? nonEmptyString(result?.finishReason);
  return {
    turn_type: 'system',
    kind: 'run_end',
    text:
      `run ${event.slice('run.'.length)}: reason=${show(reason)} iterations=${show(result?.iterations)}` +
      ` duration_ms=${show(result?.durationMs)} tokens_in=${show(usage?.inputTokens)} tokens_out=${show(usage?.outputTokens)}` +
      ` cost=${show(usage?.totalCost)} error=${show(error)}`,
    model: nonEmptyString(model?.id),
    provider: nonEmptyString(model?.provider),
    is_error: event === 'run.failed' || error !== null || reason === 'error' || reason === 'failed',
  };
}

/** The tool a capability's context names (`toolCall` of hook.beforeTool/afterTool), else null fields. */
function toolOf(context: Record<string, unknown> | null): { name: string | null; id: string | null; input: unknown } {
  const call = plainObject(context?.toolCall);
  return {
    name: nonEmptyString(call?.toolName) ?? nonEmptyString(plainObject(context?.tool)?.name),
    id: nonEmptyString(call?.toolCallId),
    input: context?.input ?? call?.input,
  };
}

/**
 * `hook call: <capability> [tool=<name> call=<id> input=<command>] [run=<run id> status=<status>]` for a
 * hook the hub asked a client to run (`hook.beforeRun`, `hook.beforeTool`, ...), `capability call:
 * <capability> <request JSON>` for any other capability (client tool executors, approvals).
 */
export function capabilityCallFields(payload: Record<string, unknown>): { fields: EventFields; call: CapabilityCall } {
  const name = nonEmptyString(payload.capabilityName) ?? '-';
  const request = plainObject(payload.payload);
  const context = plainObject(request?.context);
  const tool = toolOf(context);
  const call: CapabilityCall = { name, tool_name: tool.name, tool_use_id: tool.id };
  const common = { turn_type: 'system' as const, tool_name: tool.name, tool_use_id: tool.id };
  if (!name.startsWith('hook.')) {
    return { call, fields: { ...common, kind: 'capability_call', text: `capability call: ${name} ${shortJson(request ?? {})}` } };
  }
  const snapshot = plainObject(context?.snapshot);
  let text = `hook call: ${name}`;
  if (tool.name !== null || tool.id !== null)
    text += ` tool=${show(tool.name)} call=${show(tool.id)} input=${summariseToolInput(tool.input)}`;
  if (nonEmptyString(snapshot?.runId) !== null) text += ` run=${show(snapshot?.runId)} status=${show(snapshot?.status)}`;
  const duration = wholeNumber(context?.durationMs);
  if (duration !== null) text += ` duration_ms=${duration}`;
  return { call, fields: { ...common, kind: 'hook_call', text } };
}

/**
 * The answer to a capability request, or null when a hook's answer says nothing (ok, no payload, no
 * error): the call row already says the hook ran. `hook result: <capability> tool=... call=... ok=...
 * answer=<JSON>` (a control such as `{"policy":{"autoApprove":true}}`) `error=... cancelled=...`.
 */
export function capabilityResultFields(payload: Record<string, unknown>, call: CapabilityCall | null): EventFields | null {
  const name = nonEmptyString(payload.capabilityName) ?? call?.name ?? '-';
  const answer = plainObject(payload.payload);
  const error = nonEmptyString(payload.error);
  const ok = payload.ok === true;
  const isHook = name.startsWith('hook.');
  const empty = answer === null || Object.keys(answer).length === 0;
  if (isHook && ok && empty && error === null && payload.cancelled !== true) return null;
  // a hook policy's answer on whether the call may run without asking: the settings model reads it
  const autoApprove = plainObject(plainObject(answer?.control)?.policy)?.autoApprove;
  const policy = typeof autoApprove === 'boolean' ? { setting_name: 'autoApprove', setting_value: String(autoApprove) } : {};
  return {
    ...policy,
    turn_type: 'system',
    kind: isHook ? 'hook_result' : 'capability_result',
    tool_name: call?.tool_name ?? null,
    tool_use_id: call?.tool_use_id ?? null,
    text:
      `${isHook ? 'hook' : 'capability'} result: ${name} tool=${show(call?.tool_name)} call=${show(call?.tool_use_id)}` +
      ` ok=${show(payload.ok)} answer=${empty ? '-' : shortJson(answer)} error=${show(error)} cancelled=${show(payload.cancelled)}`,
    is_error: !ok || error !== null,
  };
}

/** `approval requested: tool=<name> call=<id> input=<command> policy=<JSON>`: the hub asked whether a tool call may run. */
export function approvalRequestFields(payload: Record<string, unknown>): EventFields {
  const input = parseEmbeddedJson(payload.inputJson) ?? payload.inputJson;
  return {
    turn_type: 'system',
    kind: 'approval_request',
    tool_name: nonEmptyString(payload.toolName),
    tool_use_id: nonEmptyString(payload.toolCallId),
    text:
      `approval requested: tool=${show(payload.toolName)} call=${show(payload.toolCallId)}` +
      ` input=${summariseToolInput(input)} policy=${show(payload.policy)}`,
  };
}

/** `approval resolved: approved=<bool> reason=... cancelled=...`, with the tool of its request when the log holds it. */
export function approvalResultFields(payload: Record<string, unknown>, call: CapabilityCall | null): EventFields {
  return {
    turn_type: 'system',
    kind: 'approval_result',
    tool_name: call?.tool_name ?? null,
    tool_use_id: call?.tool_use_id ?? null,
    text: `approval resolved: approved=${show(payload.approved)} reason=${show(payload.reason)} cancelled=${show(payload.cancelled)}`,
  };
}

/**
 * A streamed event that no run result holds, as the row its message would have given: assistant.finished
 * an assistant text, reasoning.finished a thinking row, tool.started a tool_use, tool.finished a
 * tool_result (an error when it carries one or a command failed), usage.updated a `usage:` row with the
 * request's token counts and cost (the only record of that request). Null for an empty text.
 */
export function streamedFields(event: string, payload: Record<string, unknown>): EventFields | null {
  const tool = { tool_name: nonEmptyString(payload.toolName), tool_use_id: nonEmptyString(payload.toolCallId) };
  switch (event) {
    case 'assistant.finished':
      return nonEmptyString(payload.text) === null
        ? null
        : { turn_type: 'assistant', kind: 'assistant_finished', text: nonEmptyString(payload.text) };
    case 'reasoning.finished':
      return nonEmptyString(payload.reasoning) === null
        ? null
        : { turn_type: 'thinking', kind: 'reasoning_finished', text: nonEmptyString(payload.reasoning) };
    case 'tool.started':
      return { ...tool, turn_type: 'tool_use', kind: 'tool_started', text: summariseToolInput(payload.input) };
    case 'tool.finished': {
      const error = nonEmptyString(payload.error);
      const output = payload.output === undefined || payload.output === null ? null : toolResultText(payload.output);
      return {
        ...tool,
        turn_type: 'tool_result',
        kind: 'tool_finished',
        text: [output, error === null ? null : `error: ${error}`].filter((t) => t !== null).join('\n') || null,
        is_error: error !== null || toolResultFailed(payload.output),
      };
    }
    case 'usage.updated': {
      const delta = plainObject(payload.delta);
      const totals = plainObject(payload.totals);
      return {
        turn_type: 'system',
        kind: 'usage',
        tokens_in: wholeNumber(delta?.inputTokens),
        tokens_out: wholeNumber(delta?.outputTokens),
        cost_usd: finiteNumber(delta?.totalCost),
        text:
          `usage: tokens_in=${show(delta?.inputTokens)} tokens_out=${show(delta?.outputTokens)}` +
          ` cache_read=${show(delta?.cacheReadTokens)} cache_write=${show(delta?.cacheWriteTokens)} cost=${show(delta?.totalCost)}` +
          ` agent=${show(plainObject(payload.agent)?.kind)} (run totals tokens_in=${show(totals?.inputTokens)} tokens_out=${show(totals?.outputTokens)})`,
      };
    }
    default:
      return null;
  }
}

/** `hub event: <event> <payload JSON, long strings cut>`: an event this reader has no row shape for (schedules, tasks, notices, ...). */
export function otherEventFields(event: string, payload: Record<string, unknown>): EventFields {
  return { turn_type: 'system', kind: 'hub_event', text: `hub event: ${event} ${shortJson(payload)}` };
}
