/**
 * Deterministic synthetic Cline content for the benchmark fleet (bench/generate.ts): a small PRNG, text
 * with non-ASCII and emoji, base64 screenshots, and the record shapes of cline-formats.md §1-§2
 * (ClineMessage, api history entries, SDK messages with tool_use/tool_result blocks, hooks.jsonl lines).
 */

/** mulberry32: a tiny, fast, seedable 32-bit PRNG. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  id(n: number): string {
    const abc = 'abcdefghijklmnopqrstuvwxyz0123456789';
    let s = '';
    for (let i = 0; i < n; i++) s += abc[Math.floor(this.next() * abc.length)];
    return s;
  }
}

/** Seed of sub-stream `k` of `seed` (hosts, images, the big file each get their own). */
export function subSeed(seed: number, k: number): number {
  return (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(k + 1, 0xc2b2ae35)) >>> 0;
}

const WORDS = (
  'the test suite fails because function returns wrong value when input is empty so we need to fix parser and add ' +
  'a check before calling handler then run build again update config file read module export import async await ' +
  'error stack trace line column path user request response token cache cost model provider workspace branch commit'
).split(' ');
const INTL = [
  'café',
  'naïve',
  'Größe',
  'ñandú',
  '日本語',
  'テスト',
  'привет',
  'mañana',
  'çà',
  '🙂',
  '🚀',
  '✅',
  '🔥',
  '数据库',
  'Ελληνικά',
];

export function sentence(rng: Rng, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(rng.chance(0.06) ? rng.pick(INTL) : rng.pick(WORDS));
  const s = out.join(' ');
  return `${s.charAt(0).toUpperCase() + s.slice(1)}.`;
}

/** About `chars` characters of prose, lines of 8-16 words. */
export function prose(rng: Rng, chars: number): string {
  const lines: string[] = [];
  let n = 0;
  while (n < chars) {
    const s = sentence(rng, rng.int(8, 16));
    lines.push(s);
    n += s.length + 1;
  }
  return lines.join('\n');
}

const CODE_LINES = [
  'export async function handle(req: Request): Promise<Response> {',
  '  const body = await req.json();',
  '  if (!body.items?.length) throw new Error("empty input");',
  '  return new Response(JSON.stringify({ ok: true, n: body.items.length }));',
  '}',
  'def test_add():\n    assert add(1, 2) == 3',
  'import { readFile } from "node:fs/promises";',
  '  for (const [k, v] of Object.entries(map)) console.log(`${k}=${v}`);',
  '// TODO: handle the “smart quotes” and tabs\t\there',
];

export function code(rng: Rng, chars: number): string {
  const lines: string[] = [];
  let n = 0;
  while (n < chars) {
    const l = rng.pick(CODE_LINES);
    lines.push(l);
    n += l.length + 1;
  }
  return lines.join('\n');
}

export function commandOutput(rng: Rng, chars: number): string {
  const lines: string[] = [];
  let n = 0;
  while (n < chars) {
    const l = rng.chance(0.5)
      ? `PASS src/${rng.pick(WORDS)}.test.ts (${rng.int(1, 900)} ms)`
      : rng.chance(0.5)
        ? `  at ${rng.pick(WORDS)} (/home/u/proj/src/${rng.pick(WORDS)}.ts:${rng.int(1, 400)}:${rng.int(1, 80)})`
        : `npm WARN ${sentence(rng, rng.int(4, 9))}`;
    lines.push(l);
    n += l.length + 1;
  }
  return lines.join('\n');
}

/** A fixed pool of base64 "PNG" screenshots of 20-60 KB each (base64 text size), built once per seed. */
export function imagePool(rng: Rng, count = 12): string[] {
  const pool: string[] = [];
  for (let i = 0; i < count; i++) {
    const bytes = Buffer.alloc(Math.floor((rng.int(20, 60) * 1024 * 3) / 4));
    const head = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
    for (let j = 0; j < bytes.length; j++) bytes[j] = j < head.length ? head[j] : (rng.next() * 256) | 0;
    pool.push(bytes.toString('base64'));
  }
  return pool;
}

export const MODELS = [
  { id: 'claude-sonnet-4-5', provider: 'anthropic' },
  { id: 'claude-opus-4-1', provider: 'anthropic' },
  { id: 'gpt-5', provider: 'openai' },
  { id: 'claude-haiku-4-5', provider: 'anthropic' },
] as const;

type Json = Record<string, unknown>;

/** Context a legacy task carries while its messages are generated. */
export interface TaskGen {
  rng: Rng;
  images: string[];
  ts: number;
  cwd: string;
  model: (typeof MODELS)[number];
  tokensIn: number;
  tokensOut: number;
  cost: number;
}

/** The ClineMessage objects of one agent step (api request, thinking, one tool action), in order. */
export function legacyStep(t: TaskGen): Json[] {
  const { rng } = t;
  const out: Json[] = [];
  const at = () => (t.ts += rng.int(50, 4000));
  const tokensIn = rng.int(800, 60000);
  const tokensOut = rng.int(20, 3000);
  const cost = Math.round(tokensIn * 3 + tokensOut * 15) / 1e6;
  t.tokensIn += tokensIn;
  t.tokensOut += tokensOut;
  t.cost += cost;
  const modelInfo = { modelId: t.model.id, providerId: t.model.provider, mode: rng.chance(0.8) ? 'act' : 'plan' };
  const req = {
    request: `[${rng.pick(['execute_command', 'read_file', 'replace_in_file'])}] Result:\n${prose(rng, rng.int(100, 1500))}`,
    tokensIn,
    tokensOut,
    cacheWrites: rng.int(0, 5000),
    cacheReads: rng.int(0, 50000),
    cost,
  };
  out.push({
    ts: at(),
    type: 'say',
    say: 'api_req_started',
    text: JSON.stringify(req),
    modelInfo,
    conversationHistoryIndex: rng.int(0, 200),
  });
  if (rng.chance(0.4))
    out.push({ ts: at(), type: 'say', say: 'reasoning', text: prose(rng, rng.int(100, 1200)), partial: false });
  out.push({ ts: at(), type: 'say', say: 'text', text: prose(rng, rng.int(50, 600)), partial: false });
  const action = rng.next();
  if (action < 0.3) {
    const cmd = rng.pick(['npm test', 'pytest -q', 'git status', 'ls -la src', 'cargo build --release', 'grep -rn "TODO" src']);
    out.push({ ts: at(), type: 'ask', ask: 'command', text: rng.chance(0.5) ? `${cmd}REQ_APP` : cmd });
    out.push({ ts: at(), type: 'say', say: 'command_output', text: commandOutput(rng, rng.int(200, 8000)) });
  } else if (action < 0.6) {
    const tool = rng.pick(['readFile', 'editedExistingFile', 'newFileCreated', 'searchFiles', 'listFilesRecursive']);
    const file = `src/${rng.pick(['app', 'parser', 'utils', 'données', 'index'])}.ts`;
    const body =
      tool === 'editedExistingFile'
        ? { diff: `------- SEARCH\n${code(rng, 400)}\n=======\n${code(rng, rng.int(200, 3000))}\n+++++++ REPLACE` }
        : { content: tool === 'readFile' ? `${t.cwd}/${file}` : code(rng, rng.int(200, 3000)) };
    const type = rng.chance(0.5) ? 'say' : 'ask';
    out.push({
      ts: at(),
      type,
      [type]: 'tool',
      text: JSON.stringify({ tool, path: file, ...body, operationIsLocatedInWorkspace: true }),
    });
  } else if (action < 0.72) {
    out.push({
      ts: at(),
      type: 'ask',
      ask: 'use_mcp_server',
      text: JSON.stringify({
        type: 'use_mcp_tool',
        serverName: 'github',
        toolName: rng.pick(['list_issues', 'get_pr', 'search_code']),
        arguments: JSON.stringify({ q: rng.pick(WORDS) }),
      }),
    });
    out.push({
      ts: at(),
      type: 'say',
      say: 'mcp_server_response',
      text: JSON.stringify([{ title: sentence(rng, 6), body: prose(rng, rng.int(100, 2000)) }]),
    });
  } else if (action < 0.8) {
    out.push({ ts: at(), type: 'say', say: 'browser_action_launch', text: `http://localhost:${rng.int(3000, 9000)}` });
    out.push({
      ts: at(),
      type: 'say',
      say: 'browser_action_result',
      text: JSON.stringify({
        logs: sentence(rng, 5),
        screenshot: `data:image/png;base64,${rng.pick(t.images)}`,
        currentUrl: 'http://localhost:3000/',
      }),
    });
  } else if (action < 0.86) {
    const msg: Json = { ts: at(), type: 'say', say: 'user_feedback', text: sentence(rng, rng.int(5, 25)) };
    if (rng.chance(0.6)) msg.images = [`data:image/png;base64,${rng.pick(t.images)}`];
    if (rng.chance(0.3)) msg.files = [`${t.cwd}/README.md`];
    out.push(msg);
  } else if (action < 0.93) {
    out.push({
      ts: at(),
      type: 'ask',
      ask: 'followup',
      text: JSON.stringify({ question: sentence(rng, 10), options: [sentence(rng, 3), sentence(rng, 3)] }),
    });
  } else {
    out.push({
      ts: at(),
      type: 'say',
      say: 'error',
      text: `Cline tried to use ${rng.pick(['write_to_file', 'replace_in_file'])} without value for required parameter 'path'. Retrying...`,
    });
  }
  if (rng.chance(0.3)) out.push({ ts: at(), type: 'say', say: 'checkpoint_created', lastCheckpointHash: rng.id(7) });
  return out;
}

/** The first message of a task: say:task with the prompt (and sometimes a screenshot). */
export function taskStart(t: TaskGen, prompt: string): Json {
  const m: Json = { ts: t.ts, type: 'say', say: 'task', text: prompt };
  if (t.rng.chance(0.15)) m.images = [`data:image/png;base64,${t.rng.pick(t.images)}`];
  return m;
}

/** api_conversation_history.json entries for a task (compact array elements). */
export function apiHistory(t: TaskGen, prompt: string, turns: number): Json[] {
  const { rng } = t;
  const out: Json[] = [
    {
      role: 'user',
      content: [
        { type: 'text', text: `<task>\n${prompt}\n</task>` },
        { type: 'text', text: `<environment_details>\n${prose(rng, 300)}\n</environment_details>` },
      ],
      ts: t.ts,
    },
  ];
  for (let i = 0; i < turns; i++) {
    const id = `toolu_${rng.id(12)}`;
    out.push({
      role: 'assistant',
      id: `msg_${rng.id(10)}`,
      content: [
        { type: 'text', text: prose(rng, rng.int(50, 500)) },
        {
          type: 'tool_use',
          id,
          name: rng.pick(['execute_command', 'read_file', 'replace_in_file']),
          input: { command: 'npm test', requires_approval: 'false' },
        },
      ],
      modelInfo: { modelId: t.model.id, providerId: t.model.provider, mode: 'act' },
      metrics: {
        tokens: { prompt: rng.int(1000, 50000), completion: rng.int(10, 2000), cached: rng.int(0, 9000) },
        cost: rng.int(1, 900) / 10000,
      },
      ts: (t.ts += rng.int(500, 9000)),
    });
    out.push({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: id, content: commandOutput(rng, rng.int(100, 4000)), is_error: rng.chance(0.1) },
      ],
      ts: (t.ts += rng.int(500, 9000)),
    });
  }
  return out;
}

/** SDK message pairs (assistant tool_use, user tool_result up to 20 KB) for a session transcript. */
export function sdkTurn(rng: Rng, images: string[], state: { ts: number; n: number }, model: (typeof MODELS)[number]): Json[] {
  const id = `toolu_${rng.id(16)}`;
  const name = rng.pick(['run_commands', 'read_files', 'editor', 'search_codebase', 'fetch_web_content', 'apply_patch']);
  const input =
    name === 'run_commands'
      ? { commands: [rng.pick(['npm test', 'pytest -q', 'git diff --stat'])] }
      : name === 'read_files'
        ? { paths: [`src/${rng.pick(WORDS)}.ts`] }
        : name === 'editor'
          ? { path: 'src/app.ts', new_text: code(rng, rng.int(100, 1500)) }
          : { query: sentence(rng, 4) };
  const assistant: Json = {
    id: `msg_${rng.id(12)}`,
    role: 'assistant',
    content: [
      ...(rng.chance(0.5) ? [{ type: 'thinking', thinking: prose(rng, rng.int(100, 800)) }] : []),
      { type: 'text', text: prose(rng, rng.int(30, 400)) },
      { type: 'tool_use', id, name, input },
    ],
    modelInfo: { id: model.id, provider: model.provider },
    ts: (state.ts += rng.int(500, 8000)),
  };
  if (rng.chance(0.5))
    assistant.metrics = {
      inputTokens: rng.int(1000, 80000),
      outputTokens: rng.int(10, 3000),
      cacheReadTokens: rng.int(0, 50000),
      cacheWriteTokens: rng.int(0, 4000),
      cost: rng.int(1, 900) / 10000,
    };
  const isError = rng.chance(0.08);
  const resultContent: unknown = isError
    ? JSON.stringify({ error: `Tool "${name}" was not approved` })
    : name === 'read_files'
      ? [{ type: 'text', text: code(rng, rng.int(200, 20000)) }]
      : commandOutput(rng, rng.int(100, 20000));
  const user: Json = {
    id: `msg_${rng.id(12)}_tool_${id}`,
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: id, name, content: resultContent, is_error: isError }],
    ts: (state.ts += rng.int(100, 30000)),
  };
  const out = [assistant, user];
  if (rng.chance(0.05))
    out.push({
      id: `msg_${rng.id(12)}`,
      role: 'user',
      content: [
        { type: 'text', text: sentence(rng, 12) },
        { type: 'image', data: rng.pick(images), mediaType: 'image/png' },
      ],
      ts: (state.ts += rng.int(1000, 60000)),
    });
  state.n += out.length;
  return out;
}

/** hooks.jsonl lines for one tool call of a session (tool_call then tool_result). */
export function hookLines(rng: Rng, sid: string, cwd: string, ts: number): string[] {
  const base = {
    clineVersion: '4.1.25',
    taskId: `conv_${ts}_${rng.id(7)}`,
    sessionContext: { rootSessionId: sid },
    workspaceRoots: [cwd],
    workspaceInfo: { rootPath: cwd, hint: 'proj', latestGitBranchName: 'main' },
    userId: 'u',
    agent_id: `agent_${ts}_${rng.id(6)}`,
    parent_agent_id: null,
  };
  const iso = (ms: number) => new Date(ms).toISOString();
  const input = { command: rng.pick(['npm test', 'pytest -q', 'make build']) };
  const id = `call_${rng.id(6)}`;
  return [
    JSON.stringify({
      ts: iso(ts),
      ...base,
      timestamp: iso(ts - 1),
      hookName: 'tool_call',
      iteration: 1,
      tool_call: { id, name: 'bash', input },
      preToolUse: { toolName: 'bash', parameters: input },
    }),
    JSON.stringify({
      ts: iso(ts + 500),
      ...base,
      timestamp: iso(ts + 499),
      hookName: 'tool_result',
      iteration: 1,
      tool_result: { id, name: 'bash', input, output: commandOutput(rng, rng.int(50, 600)), durationMs: 480 },
      postToolUse: { toolName: 'bash', parameters: input, result: 'ok', success: true, executionTimeMs: 480 },
    }),
  ];
}
