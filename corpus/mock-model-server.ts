// A scripted OpenAI-compatible model server for driving the released Cline CLIs (issue 11).
//
// It listens on 127.0.0.1 only, on a free port the OS picks. Every reply comes from a script: a scenario is
// recognised by a key that appears in one of the conversation's user messages, and the planned turn is picked by
// the number of assistant turns already in the history the client sent (so a resumed session carries on where it
// stopped). Loops are bounded: past a scenario's request budget the server answers with a completion; past the
// global request cap or the timeout it stops answering and closes.
//
// Speaks: GET /v1/models, POST /v1/chat/completions (SSE or JSON, native tool calls or XML-in-text tool calls),
// POST /v1/responses (SSE events of the Responses API). Each request is logged as one JSON line.

import { appendFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A logical tool call, named as in the legacy engine; the server maps it onto what the client offers. */
export type ToolCall =
  | { tool: 'execute_command'; command: string }
  | { tool: 'read_file'; path: string }
  | { tool: 'write_to_file'; path: string; content: string }
  | { tool: 'attempt_completion'; result: string }
  | { tool: 'plan_mode_respond'; response: string };

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

export interface RequestLogEntry {
  seq: number;
  at: string;
  path: string;
  model: string | null;
  stream: boolean;
  /** The tool names the client offered (empty when tools are described in the system prompt). */
  offeredTools: string[];
  scenario: string | null;
  /** The number of assistant turns already in the history. */
  turnIndex: number;
  scenarioRequest: number;
  lastUserMessage: string;
  reply: { kind: 'text'; text: string } | { kind: 'tool'; style: ToolStyle; name: string; args: unknown; call: ToolCall };
  usage: Usage;
}

export type ToolStyle = 'xml' | 'native-legacy' | 'native-sdk';

export interface MockOptions {
  scenarios: Scenario[];
  logFile: string;
  /** Full request bodies, for reading when adapting the server to a new generation; never committed. */
  bodyDir?: string;
  requestCap: number;
  timeoutMs: number;
}

export interface MockServer {
  port: number;
  baseUrl: string;
  log: RequestLogEntry[];
  /** Replaces the scripts (the driver knows the workspace path only once it exists). */
  setScenarios(scenarios: Scenario[]): void;
  close(): Promise<void>;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

function isObject(v: unknown): v is JsonObject {
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

interface Conversation {
  userTexts: string[];
  assistantTurns: number;
  offeredTools: string[];
  toolSchemas: Map<string, Json>;
}

function chatConversation(body: JsonObject): Conversation {
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

function responsesConversation(body: JsonObject): Conversation {
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
      return `<execute_command>\n${field('command', call.command)}${field('requires_approval', 'false')}</execute_command>`;
    case 'read_file':
      return `<read_file>\n${field('path', call.path)}</read_file>`;
    case 'write_to_file':
      return `<write_to_file>\n${field('path', call.path)}${field('content', call.content)}</write_to_file>`;
    case 'attempt_completion':
      return `<attempt_completion>\n${field('result', call.result)}</attempt_completion>`;
    case 'plan_mode_respond':
      return `<plan_mode_respond>\n${field('response', call.response)}</plan_mode_respond>`;
  }
}

/** The native call for a logical one: the legacy engine's own names, or the SDK's tool set. */
function nativeCall(call: ToolCall, offeredTools: string[]): { style: ToolStyle; name: string; args: Json } | null {
  const has = (n: string) => offeredTools.includes(n);
  switch (call.tool) {
    case 'execute_command':
      if (has('execute_command'))
        return { style: 'native-legacy', name: 'execute_command', args: { command: call.command, requires_approval: false } };
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
  }
}

interface Reply {
  text: string;
  toolCall: { name: string; args: Json; id: string } | null;
  logged: RequestLogEntry['reply'];
}

/** What the scripted turn becomes for this client: native tool call, XML in text, or plain text. */
function render(turn: PlannedTurn, conv: Conversation, seq: number, planMode: boolean): Reply {
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

function isPlanMode(body: JsonObject, conv: Conversation): boolean {
  if (conv.offeredTools.includes('plan_mode_respond') && !conv.offeredTools.includes('attempt_completion')) return true;
  if (conv.offeredTools.length > 0) return false;
  // XML generations: the environment details of the last user message name the mode.
  const last = conv.userTexts.at(-1) ?? '';
  const m = /# Current Mode\s*\n\s*(PLAN|ACT) MODE/.exec(last);
  return m?.[1] === 'PLAN' && body !== null;
}

/** Deterministic usage figures: distinct per request so sums can be asserted. */
function usageFor(seq: number, scenarioRequest: number): Usage {
  const promptTokens = 1000 + 100 * scenarioRequest + seq;
  const completionTokens = 20 + 5 * scenarioRequest;
  const cachedTokens = scenarioRequest > 0 ? 500 : 0;
  return { promptTokens, completionTokens, cachedTokens, totalTokens: promptTokens + completionTokens };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function sse(res: ServerResponse, data: unknown, event?: string): void {
  if (event) res.write(`event: ${event}\n`);
  res.write(`data: ${JSON.stringify(data)}\n\n`);
}

function writeChat(res: ServerResponse, body: JsonObject, reply: Reply, usage: Usage, seq: number): void {
  const id = `chatcmpl-mock${seq}`;
  const created = Math.floor(Date.now() / 1000);
  const model = typeof body.model === 'string' ? body.model : 'mock';
  const usageJson = {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.totalTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedTokens },
  };
  const finish = reply.toolCall ? 'tool_calls' : 'stop';
  const toolCalls = reply.toolCall
    ? [
        {
          index: 0,
          id: reply.toolCall.id,
          type: 'function',
          function: { name: reply.toolCall.name, arguments: JSON.stringify(reply.toolCall.args) },
        },
      ]
    : undefined;
  if (body.stream !== true) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: reply.text || null, ...(toolCalls ? { tool_calls: toolCalls } : {}) },
            finish_reason: finish,
          },
        ],
        usage: usageJson,
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const chunk = (delta: unknown, finishReason: string | null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
  sse(res, chunk({ role: 'assistant', content: '' }, null));
  // The text in a few pieces, as a real stream would send it.
  const pieces = reply.text.match(/[\s\S]{1,40}/g) ?? [];
  for (const p of pieces) sse(res, chunk({ content: p }, null));
  if (toolCalls) sse(res, chunk({ tool_calls: toolCalls }, null));
  sse(res, chunk({}, finish));
  // The usage figures in the final chunk (stream_options.include_usage).
  sse(res, { id, object: 'chat.completion.chunk', created, model, choices: [], usage: usageJson });
  res.write('data: [DONE]\n\n');
  res.end();
}

function writeResponses(res: ServerResponse, body: JsonObject, reply: Reply, usage: Usage, seq: number): void {
  const id = `resp_mock${seq}`;
  const model = typeof body.model === 'string' ? body.model : 'mock';
  const created_at = Math.floor(Date.now() / 1000);
  const output: JsonObject[] = [];
  if (reply.text)
    output.push({
      type: 'message',
      id: `msg_mock${seq}`,
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: reply.text, annotations: [] }],
    });
  if (reply.toolCall)
    output.push({
      type: 'function_call',
      id: `fc_mock${seq}`,
      call_id: reply.toolCall.id,
      name: reply.toolCall.name,
      arguments: JSON.stringify(reply.toolCall.args),
      status: 'completed',
    });
  const usageJson = {
    input_tokens: usage.promptTokens,
    input_tokens_details: { cached_tokens: usage.cachedTokens },
    output_tokens: usage.completionTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.totalTokens,
  };
  const base = { id, object: 'response', created_at, model };
  const completed = { ...base, status: 'completed', output, usage: usageJson };
  if (body.stream !== true) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(completed));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  let n = 0;
  const ev = (type: string, data: JsonObject) => sse(res, { type, sequence_number: n++, ...data }, type);
  ev('response.created', { response: { ...base, status: 'in_progress', output: [] } });
  ev('response.in_progress', { response: { ...base, status: 'in_progress', output: [] } });
  output.forEach((item, output_index) => {
    if (item.type === 'message') {
      ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
      const part = { type: 'output_text', text: '', annotations: [] };
      ev('response.content_part.added', { item_id: item.id, output_index, content_index: 0, part });
      for (const delta of reply.text.match(/[\s\S]{1,40}/g) ?? [])
        ev('response.output_text.delta', { item_id: item.id, output_index, content_index: 0, delta });
      ev('response.output_text.done', { item_id: item.id, output_index, content_index: 0, text: reply.text });
      ev('response.content_part.done', {
        item_id: item.id,
        output_index,
        content_index: 0,
        part: { ...part, text: reply.text },
      });
    } else {
      ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } });
      ev('response.function_call_arguments.delta', { item_id: item.id, output_index, delta: item.arguments });
      ev('response.function_call_arguments.done', { item_id: item.id, output_index, arguments: item.arguments });
    }
    ev('response.output_item.done', { output_index, item });
  });
  ev('response.completed', { response: completed });
  res.end();
}

export async function startMockServer(opts: MockOptions): Promise<MockServer> {
  const log: RequestLogEntry[] = [];
  const perScenario = new Map<string, number>();
  let seq = 0;
  let scenarios = opts.scenarios;
  writeFileSync(opts.logFile, '');

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.replace(/^\/v1(?=\/)/, '');
    const raw = await readBody(req);
    if (seq >= opts.requestCap) {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'mock request cap reached', type: 'server_error' } }));
      // The global cap is a fuse: the server stops once it has been reached.
      void close();
      return;
    }
    if (req.method === 'GET' && path === '/models') {
      const ids = ['mock-coder-1', 'mock-coder-2', 'mock-planner-1'];
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: 'mock' })) }));
      return;
    }
    if (req.method !== 'POST' || (path !== '/chat/completions' && path !== '/responses')) {
      appendFileSync(
        opts.logFile,
        `${JSON.stringify({ at: new Date().toISOString(), unhandled: `${req.method} ${url.pathname}` })}\n`,
      );
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `mock: no route ${req.method} ${url.pathname}` } }));
      return;
    }
    let body: JsonObject;
    try {
      const parsed: unknown = JSON.parse(raw);
      body = isObject(parsed) ? parsed : {};
    } catch {
      res.writeHead(400).end();
      return;
    }
    const mySeq = ++seq;
    if (opts.bodyDir) writeFileSync(`${opts.bodyDir}/req-${String(mySeq).padStart(4, '0')}.json`, raw);
    const conv = path === '/responses' ? responsesConversation(body) : chatConversation(body);
    const all = conv.userTexts.join('\n');
    const scenario = scenarios.find((s) => all.includes(s.key)) ?? null;
    const scenarioRequest = scenario ? (perScenario.get(scenario.key) ?? 0) : 0;
    if (scenario) perScenario.set(scenario.key, scenarioRequest + 1);
    let turn: PlannedTurn;
    if (!scenario) turn = { kind: 'text', text: 'Mock model: no scripted scenario matched this request.' };
    else if (scenarioRequest >= scenario.maxRequests || conv.assistantTurns >= scenario.turns.length)
      turn = { kind: 'tool', call: { tool: 'attempt_completion', result: scenario.finalText } };
    else turn = scenario.turns[conv.assistantTurns];
    const reply = render(turn, conv, mySeq, isPlanMode(body, conv));
    const usage = usageFor(mySeq, scenarioRequest);
    const entry: RequestLogEntry = {
      seq: mySeq,
      at: new Date().toISOString(),
      path,
      model: typeof body.model === 'string' ? body.model : null,
      stream: body.stream === true,
      offeredTools: conv.offeredTools,
      scenario: scenario?.key ?? null,
      turnIndex: conv.assistantTurns,
      scenarioRequest,
      lastUserMessage: (conv.userTexts.at(-1) ?? '').slice(0, 2000),
      reply: reply.logged,
      usage,
    };
    log.push(entry);
    appendFileSync(opts.logFile, `${JSON.stringify(entry)}\n`);
    if (path === '/responses') writeResponses(res, body, reply, usage, mySeq);
    else writeChat(res, body, reply, usage, mySeq);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      appendFileSync(opts.logFile, `${JSON.stringify({ at: new Date().toISOString(), error: String(err) })}\n`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    clearTimeout(timer);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  const timer = setTimeout(() => void close(), opts.timeoutMs);
  timer.unref();
  const setScenarios = (next: Scenario[]): void => {
    scenarios = next;
  };
  return { port, baseUrl: `http://127.0.0.1:${port}/v1`, log, setScenarios, close };
}
