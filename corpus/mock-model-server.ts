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

import {
  chatConversation,
  isObject,
  isPlanMode,
  type JsonObject,
  type LoggedReply,
  type PlannedTurn,
  type Reply,
  render,
  responsesConversation,
  type Scenario,
  type Usage,
  usageFor,
} from './mock-script.js';

export type { PlannedTurn, Scenario, ToolCall } from './mock-script.js';

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
  reply: LoggedReply;
  usage: Usage;
}

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
