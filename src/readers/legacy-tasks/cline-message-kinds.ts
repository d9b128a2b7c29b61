/**
 * The turn type of each `ClineMessage` discriminator of a legacy `ui_messages.json`
 * (cline-formats.md §1.2; store specification, "Parser plan"), as plain data: every `ask` and `say`
 * value of the L and H enums, the values removed from them and the historic ones, so an old file
 * maps the same way as a new one. A value not listed here is `system`.
 */
import type { TurnType } from '../../core/row.js';

/** `ClineAsk` value → turn type. Asks are the agent asking the user, so most read as the agent's turn. */
export const ASK_TURN_TYPES: Readonly<Record<string, TurnType>> = {
  // L and H enum
  followup: 'assistant',
  plan_mode_respond: 'assistant',
  act_mode_respond: 'assistant',
  command: 'tool_use',
  command_output: 'tool_result',
  completion_result: 'assistant',
  tool: 'tool_use',
  api_req_failed: 'system',
  resume_task: 'system',
  resume_completed_task: 'system',
  mistake_limit_reached: 'system',
  browser_action_launch: 'tool_use',
  use_mcp_server: 'tool_use',
  new_task: 'assistant',
  condense: 'assistant',
  summarize_task: 'assistant',
  report_bug: 'assistant',
  use_subagents: 'tool_use',
  // removed values still found in old files
  request_limit_reached: 'system',
  auto_approval_max_req_reached: 'system',
  plan_mode_response: 'assistant',
  chat_mode_response: 'assistant',
  respond_to_inquiry: 'assistant',
  consult_advisor: 'assistant',
};

/** `ClineSay` value → turn type. */
export const SAY_TURN_TYPES: Readonly<Record<string, TurnType>> = {
  // L enum (the persisted set)
  task: 'user',
  error: 'system',
  error_retry: 'system',
  api_req_started: 'system',
  api_req_finished: 'system',
  text: 'assistant',
  reasoning: 'thinking',
  completion_result: 'assistant',
  user_feedback: 'user',
  user_feedback_diff: 'user',
  api_req_retried: 'system',
  command: 'tool_use',
  command_output: 'tool_result',
  tool: 'tool_use',
  shell_integration_warning: 'system',
  shell_integration_warning_with_suggestion: 'system',
  browser_action_launch: 'tool_use',
  browser_action: 'tool_use',
  browser_action_result: 'tool_result',
  mcp_server_request_started: 'system',
  mcp_server_response: 'tool_result',
  mcp_notification: 'system',
  use_mcp_server: 'tool_use',
  diff_error: 'system',
  deleted_api_reqs: 'system',
  clineignore_error: 'system',
  command_permission_denied: 'system',
  checkpoint_created: 'system',
  load_mcp_documentation: 'system',
  generate_explanation: 'system',
  info: 'system',
  task_progress: 'system',
  hook_status: 'system',
  hook_output_stream: 'system',
  subagent: 'system',
  use_subagents: 'tool_use',
  subagent_usage: 'system',
  conditional_rules_applied: 'system',
  // H only, never persisted by the legacy writer
  plan_completion_result: 'assistant',
  compaction: 'system',
  // historic values
  api_cost: 'system',
  task_completed: 'system',
  inspect_site_result: 'tool_result',
  consult_advisor: 'system',
  advisor_response: 'assistant',
  hook: 'system',
  hook_output: 'system',
};

/** Discriminators whose row is an error (`is_error` true), as `say:<x>` / `ask:<x>` kinds. */
export const ERROR_KINDS: ReadonlySet<string> = new Set([
  'say:error',
  'ask:api_req_failed',
  'say:diff_error',
  'say:clineignore_error',
  'say:command_permission_denied',
  'ask:mistake_limit_reached',
]);

/** Turn type of a message's `type` (`ask`/`say`) and discriminator; `system` when either is unknown. */
export function messageTurnType(type: string | null, value: string | null): TurnType {
  const table = type === 'ask' ? ASK_TURN_TYPES : type === 'say' ? SAY_TURN_TYPES : null;
  if (table === null || value === null || !Object.hasOwn(table, value)) return 'system';
  return table[value];
}
