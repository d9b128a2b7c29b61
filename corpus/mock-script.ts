// The scripts of the mock model server (mock-model-server.ts): what a scenario plans, how a request's conversation
// is read (chat messages or Responses input), and how a planned turn becomes this client's reply: a native tool
// call when the client offers tools, XML in the text when it does not, plain text for an SDK completion.

/** A logical tool call, named as in the legacy engine; the server maps it onto what the client offers. */
export type ToolCall =
  | { tool: 'execute_command'; command: string; requiresApproval?: boolean }
  | { tool: 'read_file'; path: string }
  | { tool: 'write_to_file'; path: string; content: string }
  | { tool: 'attempt_completion'; result: string }
  | { tool: 'plan_mode_respond'; response: string }
  | { tool: 'use_mcp_tool'; server: string; toolName: string; args: Record<string, string> };

export type PlannedTurn = { kind: 'text'; text: string } | { kind: 'tool'; text?: string; call: ToolCall };

export interface Scenario {
  /** A string that appears in the prompt the driver types; it tells the server which script to follow. */
  key: string;
  turns: PlannedTurn[];
  /** After this many requests for the scenario, every answer is a completion. */
  maxRequests: number;
  /** The completion text used past the script or the budget. */
  finalText: string;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  totalTokens: number;
}

export type ToolStyle = 'xml' | 'native-legacy' | 'native-sdk';

/** The reply as the request log records it. */
export type LoggedReply =
  | { kind: 'text'; text: string }
  | { kind: 'tool'; style: ToolStyle; name: string; args: unknown; call: ToolCall };

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The text of a chat or Responses message content (a string or an array of parts). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const p of content) {
    if (typeof p === 'string') parts.push(p);
    else if (isObject(p) && typeof p.text === 'string') parts.push(p.text);
  }
  return parts.join('\n');
}

export interface Conversation {
  userTexts: string[];
  assistantTurns: number;
  offeredTools: string[];
  toolSchemas: Map<string, Json>;
}

export function chatConversation(body: JsonObject): Conversation {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const userTexts: string[] = [];
  let assistantTurns = 0;
  for (const m of messages) {
    if (!isObject(m)) continue;
    if (m.role === 'user') userTexts.push(contentText(m.content));
    if (m.role === 'assistant') assistantTurns++;
  }
  return { userTexts, assistantTurns, ...offered(body) };
}

export function responsesConversation(body: JsonObject): Conversation {
  const input = body.input;
  const userTexts: string[] = [];
  let assistantTurns = 0;
  let inAssistant = false;
  if (typeof input === 'string') userTexts.push(input);
  else if (Array.isArray(input)) {
    for (const item of input) {
      if (!isObject(item)) continue;
      const assistantItem = item.role === 'assistant' || item.type === 'function_call' || item.type === 'reasoning';
      if (assistantItem && !inAssistant) assistantTurns++;
      inAssistant = assistantItem;
      if (item.role === 'user') userTexts.push(contentText(item.content));
    }
  }
  return { userTexts, assistantTurns, ...offered(body) };
}

function offered(body: JsonObject): { offeredTools: string[]; toolSchemas: Map<string, Json> } {
  const offeredTools: string[] = [];
  const toolSchemas = new Map<string, Json>();
  for (const t of Array.isArray(body.tools) ? body.tools : []) {
    if (!isObject(t)) continue;
    const fn = isObject(t.function) ? t.function : t;
    if (typeof fn.name === 'string') {
      offeredTools.push(fn.name);
      toolSchemas.set(fn.name, fn.parameters ?? null);
    }
  }
  return { offeredTools, toolSchemas };
}

function xmlCall(call: ToolCall): string {
  const field = (k: string, v: string) => `<${k}>\n${v}\n</${k}>\n`;
  switch (call.tool) {
    case 'execute_command':
      return `<execute_command>\n${field('command', call.command)}${field('requires_approval', String(call.requiresApproval === true))}</execute_command>`;
    case 'read_file':
      return `<read_file>\n${field('path', call.path)}</read_file>`;
    case 'write_to_file':
      return `<write_to_file>\n${field('path', call.path)}${field('content', call.content)}</write_to_file>`;
    case 'attempt_completion':
      return `<attempt_completion>\n${field('result', call.result)}</attempt_completion>`;
    case 'plan_mode_respond':
      return `<plan_mode_respond>\n${field('response', call.response)}</plan_mode_respond>`;
    case 'use_mcp_tool':
      return `<use_mcp_tool>\n${field('server_name', call.server)}${field('tool_name', call.toolName)}${field('arguments', JSON.stringify(call.args))}</use_mcp_tool>`;
  }
}

/** The native call for a logical one: the legacy engine's own names, or the SDK's tool set. */
function nativeCall(call: ToolCall, offeredTools: string[]): { style: ToolStyle; name: string; args: Json } | null {
  const has = (n: string) => offeredTools.includes(n);
  switch (call.tool) {
    case 'execute_command':
      if (has('execute_command'))
        return {
          style: 'native-legacy',
          name: 'execute_command',
          args: { command: call.command, requires_approval: call.requiresApproval === true },
        };
      if (has('run_commands')) return { style: 'native-sdk', name: 'run_commands', args: { commands: [call.command] } };
      return null;
    case 'read_file':
      if (has('read_file')) return { style: 'native-legacy', name: 'read_file', args: { path: call.path } };
      if (has('read_files')) return { style: 'native-sdk', name: 'read_files', args: { files: [{ path: call.path }] } };
      return null;
    case 'write_to_file':
      if (has('write_to_file'))
        return { style: 'native-legacy', name: 'write_to_file', args: { path: call.path, content: call.content } };
      if (has('editor')) return { style: 'native-sdk', name: 'editor', args: { path: call.path, new_text: call.content } };
      return null;
    case 'attempt_completion':
      if (has('attempt_completion')) return { style: 'native-legacy', name: 'attempt_completion', args: { result: call.result } };
      if (has('submit_and_exit')) return { style: 'native-sdk', name: 'submit_and_exit', args: { summary: call.result } };
      return null;
    case 'plan_mode_respond':
      if (has('plan_mode_respond'))
        return { style: 'native-legacy', name: 'plan_mode_respond', args: { response: call.response } };
      return null;
    case 'use_mcp_tool': {
      if (has('use_mcp_tool'))
        return {
          style: 'native-legacy',
          name: 'use_mcp_tool',
          args: { server_name: call.server, tool_name: call.toolName, arguments: JSON.stringify(call.args) },
        };
      // the SDK offers each MCP tool under a name of its own that holds the tool's name
      const sdkName = offeredTools.find((n) => n.endsWith(call.toolName) && n !== call.toolName) ?? null;
      return sdkName === null ? null : { style: 'native-sdk', name: sdkName, args: call.args };
    }
  }
}

export interface Reply {
  text: string;
  toolCall: { name: string; args: Json; id: string } | null;
  logged: LoggedReply;
}

/** What the scripted turn becomes for this client: native tool call, XML in text, or plain text. */
export function render(turn: PlannedTurn, conv: Conversation, seq: number, planMode: boolean): Reply {
  if (turn.kind === 'text') return { text: turn.text, toolCall: null, logged: { kind: 'text', text: turn.text } };
  let call = turn.call;
  // In plan mode the legacy engine offers no completion tool; an answer there is plan_mode_respond.
  if (planMode && call.tool === 'attempt_completion') call = { tool: 'plan_mode_respond', response: call.result };
  if (conv.offeredTools.length > 0) {
    const native = nativeCall(call, conv.offeredTools);
    if (native) {
      const id = `call_${String(seq).padStart(4, '0')}`;
      return {
        text: turn.text ?? '',
        toolCall: { name: native.name, args: native.args, id },
        logged: { kind: 'tool', style: native.style, name: native.name, args: native.args, call },
      };
    }
    // The SDK ends a turn on a plain text answer: a completion with no completion tool is text.
    if (call.tool === 'attempt_completion' || call.tool === 'plan_mode_respond') {
      const text = call.tool === 'attempt_completion' ? call.result : call.response;
      return { text, toolCall: null, logged: { kind: 'text', text } };
    }
  }
  const xml = xmlCall(call);
  const text = `${turn.text ? `${turn.text}\n\n` : ''}${xml}`;
  return { text, toolCall: null, logged: { kind: 'tool', style: 'xml', name: call.tool, args: call, call } };
}

export function isPlanMode(body: JsonObject, conv: Conversation): boolean {
  if (conv.offeredTools.includes('plan_mode_respond') && !conv.offeredTools.includes('attempt_completion')) return true;
  if (conv.offeredTools.length > 0) return false;
  // XML generations: the environment details of the last user message name the mode.
  const last = conv.userTexts.at(-1) ?? '';
  const m = /# Current Mode\s*\n\s*(PLAN|ACT) MODE/.exec(last);
  return m?.[1] === 'PLAN' && body !== null;
}

/** Deterministic usage figures: distinct per request so sums can be asserted. */
export function usageFor(seq: number, scenarioRequest: number): Usage {
  const promptTokens = 1000 + 100 * scenarioRequest + seq;
  const completionTokens = 20 + 5 * scenarioRequest;
  const cachedTokens = scenarioRequest > 0 ? 500 : 0;
  return { promptTokens, completionTokens, cachedTokens, totalTokens: promptTokens + completionTokens };
}
