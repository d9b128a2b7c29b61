// Drives the released Cline CLIs (npm package `cline`, one release per major) against the scripted mock model
// server and keeps the homes they write as fixtures/real-producer/cline-<version>/home, with a facts.json written
// from the driver's side (issue 11). Run by `make real-corpus`; not part of `make test`.
//
// Every child has a hard timeout; stray daemons started from an install folder are killed by pid at the end.

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type MockServer, type RequestLogEntry, type Scenario, startMockServer, type ToolCall } from './mock-model-server.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ROOT = '/tmp/clinetrail-real-corpus';
const FIXTURES = join(REPO, 'fixtures', 'real-producer');
const CHILD_TIMEOUT_MS = 150_000;

type Generation = 'go-core' | 'legacy-node' | 'sdk';

interface Target {
  generation: Generation;
  major: number;
  version: string;
}

interface KeyStep {
  atMs: number;
  keys: string;
}

interface RunResult {
  argv: string[];
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  startedAt: string;
  endedAt: string;
}

interface SessionFacts {
  id: string;
  scenario: string;
  description: string;
  prompts: { text: string; mode: 'plan' | 'act'; typedAt: string; via: string }[];
  provider: string;
  model: string;
  commands: { command: string; expectedExitCode: number }[];
  filesRead: string[];
  filesWritten: { path: string; content: string }[];
  /** Checked by the driver in the workspace after the runs: is each planned file there with the planned content? */
  filesWrittenFound: { path: string; found: boolean; sameContent: boolean; bytes: number | null }[];
  resumed: boolean;
  deleted: boolean;
  /** The session or task id as the CLI reported it (only used to resume or delete). */
  observedSessionId: string | null;
  runs: RunResult[];
  mockRequests: Pick<RequestLogEntry, 'seq' | 'at' | 'path' | 'model' | 'stream' | 'turnIndex' | 'reply' | 'usage'>[];
  usageTotals: { promptTokens: number; completionTokens: number; cachedTokens: number; requests: number };
  notes: string[];
}

interface GenerationFacts {
  package: string;
  version: string;
  generation: Generation;
  driver: string;
  drivenAt: string;
  home: string;
  workspace: string;
  mockBaseUrl: string;
  auth: RunResult[];
  sessions: SessionFacts[];
  skipped: { what: string; why: string }[];
  strippedFromHome: string[];
  renamed: { from: string; to: string; why: string }[];
}

const now = (): string => new Date().toISOString();

function log(msg: string): void {
  process.stderr.write(`[drive ${now()}] ${msg}\n`);
}

/** The latest release of each major of the `cline` package, as the registry lists them. */
function pickVersions(): Target[] {
  const raw = execFileSync('npm', ['view', 'cline', 'versions', '--json'], { encoding: 'utf8', timeout: 120_000 });
  const versions = (JSON.parse(raw) as string[]).filter((v) => /^\d+\.\d+\.\d+$/.test(v));
  const latest = (major: number): string | undefined =>
    versions
      .filter((v) => Number(v.split('.')[0]) === major)
      .sort((a, b) => {
        const pa = a.split('.').map(Number);
        const pb = b.split('.').map(Number);
        return pa[0] - pb[0] || pa[1] - pb[1] || pa[2] - pb[2];
      })
      .at(-1);
  const out: Target[] = [];
  const gens: [number, Generation][] = [
    [1, 'go-core'],
    [2, 'legacy-node'],
    [3, 'sdk'],
  ];
  for (const [major, generation] of gens) {
    const version = latest(major);
    if (version) out.push({ generation, major, version });
  }
  return out;
}

function runChild(
  argv: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number; logPrefix: string; keys?: KeyStep[] },
): Promise<RunResult> {
  const startedAt = now();
  return new Promise((resolvePromise) => {
    const child: ChildProcess = spawn(argv[0], argv.slice(1), {
      cwd: opts.cwd,
      env: opts.env,
      stdio: [opts.keys ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      detached: true,
    });
    // Keys typed into a pty (through script(1)) on a schedule, the way a person at the terminal would.
    const keyTimers = (opts.keys ?? []).map((k) => setTimeout(() => child.stdin?.write(k.keys), k.atMs));
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (d: Buffer) => out.push(d));
    child.stderr?.on('data', (d: Buffer) => err.push(d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, opts.timeoutMs ?? CHILD_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      for (const t of keyTimers) clearTimeout(t);
      writeFileSync(`${opts.logPrefix}.stdout`, Buffer.concat(out));
      writeFileSync(`${opts.logPrefix}.stderr`, Buffer.concat(err));
      resolvePromise({ argv, exitCode: code, signal, timedOut, startedAt, endedAt: now() });
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      writeFileSync(`${opts.logPrefix}.stderr`, String(e));
      resolvePromise({ argv, exitCode: null, signal: null, timedOut, startedAt, endedAt: now() });
    });
  });
}

function sh(cmd: string, args: string[], cwd: string): void {
  execFileSync(cmd, args, { cwd, stdio: 'ignore', timeout: 60_000 });
}

/** A small git repo the sessions work in, so checkpoints can happen. */
function makeWorkspace(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'README.md'), '# demo-project\n\nA throw-away workspace for the clinetrail real-producer corpus.\n');
  writeFileSync(join(dir, 'app.py'), 'def add(a, b):\n    return a + b\n');
  const git = ['-c', 'user.email=corpus@example.invalid', '-c', 'user.name=corpus'];
  sh('git', ['init', '-q', '-b', 'main'], dir);
  sh('git', [...git, 'add', '.'], dir);
  sh('git', [...git, 'commit', '-q', '-m', 'initial'], dir);
}

function listDirs(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((n) => statSync(join(dir, n)).isDirectory()) : [];
}

/** Processes whose command line names the install folder: the CLI's own daemons (hub, cline-core, cline-host). */
function strayPids(installDir: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (cmd.includes(installDir)) pids.push(Number(name));
    } catch {
      // gone
    }
  }
  return pids;
}

function killStrays(installDir: string): number[] {
  const pids = strayPids(installDir);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // gone
    }
  }
  return pids;
}

// ---------------------------------------------------------------------------------------------------------------
// Scenarios: the same plan for every generation; the mock maps the logical tool calls onto each generation's tools.

interface Plan {
  scenario: string;
  description: string;
  prompt: string;
  turns: Scenario['turns'];
  commands: { command: string; expectedExitCode: number }[];
  filesRead: string[];
  filesWritten: { path: string; content: string }[];
}

const SUBTRACT = 'def subtract(a, b):\n    return a - b\n';
const NOTES = 'Corpus notes: add() returns the sum of its two arguments.\n';

function plans(ws: string, absolutePaths: boolean): Plan[] {
  const p = (rel: string) => (absolutePaths ? join(ws, rel) : rel);
  const done = (result: string): Scenario['turns'][number] => ({
    kind: 'tool',
    call: { tool: 'attempt_completion', result },
  });
  const cmd = (command: string, text: string): Scenario['turns'][number] => ({
    kind: 'tool',
    text,
    call: { tool: 'execute_command', command },
  });
  return [
    {
      scenario: 'plain-answer',
      description: 'a plain answer, no tool use',
      prompt: 'What does the add function in this project return? (corpus case plain-answer)',
      turns: [done('add(a, b) returns a + b, the sum of its two arguments.')],
      commands: [],
      filesRead: [],
      filesWritten: [],
    },
    {
      scenario: 'command-ok',
      description: 'a command that succeeds (exit 0)',
      prompt: 'List the files of the project with ls -la. (corpus case command-ok)',
      turns: [cmd('ls -la', 'I will list the files.'), done('Listed the project files: README.md and app.py.')],
      commands: [{ command: 'ls -la', expectedExitCode: 0 }],
      filesRead: [],
      filesWritten: [],
    },
    {
      scenario: 'command-fail',
      description: 'a command that fails with exit code 3',
      prompt: 'Run the check script and tell me if it passes. (corpus case command-fail)',
      turns: [
        cmd('sh -c "echo check failed: missing config >&2; exit 3"', 'Running the check.'),
        done('The check failed with exit code 3: missing config.'),
      ],
      commands: [{ command: 'sh -c "echo check failed: missing config >&2; exit 3"', expectedExitCode: 3 }],
      filesRead: [],
      filesWritten: [],
    },
    {
      scenario: 'file-read-write',
      description: 'a file read, then a file write, then completion',
      prompt: 'Read app.py and write a short notes.txt describing it. (corpus case file-read-write)',
      turns: [
        { kind: 'tool', text: 'Reading app.py first.', call: { tool: 'read_file', path: p('app.py') } },
        {
          kind: 'tool',
          text: 'Writing the notes.',
          call: { tool: 'write_to_file', path: p('notes.txt'), content: NOTES },
        },
        done('Wrote notes.txt describing app.py.'),
      ],
      commands: [],
      filesRead: ['app.py'],
      filesWritten: [{ path: 'notes.txt', content: NOTES }],
    },
  ];
}

function scenarioOf(plan: Plan): Scenario {
  return { key: `corpus case ${plan.scenario}`, turns: plan.turns, maxRequests: 8, finalText: 'Done.' };
}

// ---------------------------------------------------------------------------------------------------------------

interface Ctx {
  target: Target;
  dir: string;
  home: string;
  ws: string;
  installDir: string;
  logs: string;
  env: NodeJS.ProcessEnv;
  mock: MockServer;
  facts: GenerationFacts;
  runCount: number;
}

function cliArgv(ctx: Ctx): string[] {
  const nm = join(ctx.installDir, 'node_modules', 'cline');
  switch (ctx.target.generation) {
    case 'go-core':
      return [join(nm, 'bin', 'cline')];
    case 'legacy-node':
      return [process.execPath, join(nm, 'dist', 'cli.mjs')];
    case 'sdk':
      return [join(nm, 'bin', 'cline')];
  }
}

async function cli(ctx: Ctx, args: string[], cwd?: string): Promise<RunResult> {
  ctx.runCount++;
  const prefix = join(ctx.logs, `run-${String(ctx.runCount).padStart(2, '0')}`);
  const r = await runChild([...cliArgv(ctx), ...args], { cwd: cwd ?? ctx.ws, env: ctx.env, logPrefix: prefix });
  log(`${ctx.target.version}: ${args.slice(0, 4).join(' ')} -> exit ${r.exitCode}${r.timedOut ? ' (timed out)' : ''}`);
  return r;
}

/** Runs the CLI's terminal UI under script(1), which gives it a pty, and types the keys on a schedule. */
async function tui(ctx: Ctx, args: string[], keys: KeyStep[], timeoutMs: number): Promise<RunResult> {
  ctx.runCount++;
  const prefix = join(ctx.logs, `run-${String(ctx.runCount).padStart(2, '0')}`);
  const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
  const command = [...cliArgv(ctx), ...args].map(quote).join(' ');
  const env = { ...ctx.env, TERM: 'xterm-256color', COLUMNS: '100', LINES: '30' };
  const r = await runChild(['script', '-qfec', command, '/dev/null'], { cwd: ctx.ws, env, logPrefix: prefix, keys, timeoutMs });
  log(`${ctx.target.version}: (tui) ${args.join(' ')} -> exit ${r.exitCode}${r.timedOut ? ' (timed out)' : ''}`);
  return r;
}

/** Resumes a session by typing a prompt into the 3.x TUI opened with --id (3.x one-shot runs cannot resume). */
async function tuiFollowUp(ctx: Ctx, f: SessionFacts, id: string, prompt: string): Promise<void> {
  const typeAt = 8000;
  f.prompts.push({
    text: prompt,
    mode: 'act',
    typedAt: new Date(Date.now() + typeAt).toISOString(),
    via: 'tui --id (typed into a pty)',
  });
  f.runs.push(
    await tui(
      ctx,
      ['--id', id],
      [
        { atMs: typeAt, keys: prompt },
        { atMs: typeAt + 1000, keys: '\r' },
        { atMs: typeAt + 20_000, keys: '\u0003' },
        { atMs: typeAt + 22_000, keys: '\u0003' },
      ],
      60_000,
    ),
  );
  f.resumed = true;
  f.notes.push('resumed in the TUI (cline --id <id> needs a terminal); the prompt was typed, then Ctrl+C twice to leave');
}

/** The ids of the sessions (3.x) or tasks (1.x, 2.x) in the home. */
function sessionIds(ctx: Ctx): string[] {
  const data = join(ctx.home, '.cline', 'data');
  return ctx.target.generation === 'sdk' ? listDirs(join(data, 'sessions')) : listDirs(join(data, 'tasks'));
}

function newFacts(
  plan: Pick<Plan, 'scenario' | 'description' | 'commands' | 'filesRead' | 'filesWritten'>,
  provider: string,
  model: string,
): SessionFacts {
  return {
    id: plan.scenario,
    scenario: `corpus case ${plan.scenario}`,
    description: plan.description,
    prompts: [],
    provider,
    model,
    commands: plan.commands,
    filesRead: plan.filesRead,
    filesWritten: plan.filesWritten,
    filesWrittenFound: [],
    resumed: false,
    deleted: false,
    observedSessionId: null,
    runs: [],
    mockRequests: [],
    usageTotals: { promptTokens: 0, completionTokens: 0, cachedTokens: 0, requests: 0 },
    notes: [],
  };
}

/** Flags of a one-shot, auto-approved run in the given mode. */
function runFlags(gen: Generation, mode: 'plan' | 'act'): string[] {
  switch (gen) {
    case 'go-core':
      return ['-y', '-m', mode, '-F', 'json'];
    case 'legacy-node':
      return ['-y', '--json', mode === 'plan' ? '-p' : '-a'];
    case 'sdk':
      return ['--json', ...(mode === 'plan' ? ['-p'] : [])];
  }
}

/** Flags that resume a session by id, where the generation has them. */
function resumeFlags(gen: Generation, id: string): string[] | null {
  switch (gen) {
    case 'go-core':
      return null;
    case 'legacy-node':
      return ['-T', id];
    case 'sdk':
      return null; // --id opens the TUI: see tuiFollowUp
  }
}

/**
 * A follow-up prompt on session `id` in act mode: typed into the 3.x TUI, or a one-shot run with the
 * generation's resume flags. False when the generation cannot resume one-shot (nothing is run).
 */
async function followUp(ctx: Ctx, f: SessionFacts, gen: Generation, id: string | null, prompt: string): Promise<boolean> {
  if (id && gen === 'sdk') {
    await tuiFollowUp(ctx, f, id, prompt);
    return true;
  }
  const resume = id ? resumeFlags(gen, id) : null;
  if (!resume) return false;
  f.resumed = true;
  f.prompts.push({ text: prompt, mode: 'act', typedAt: now(), via: `argv ${resume[0]}` });
  f.runs.push(await cli(ctx, [...runFlags(gen, 'act'), ...resume, prompt]));
  return true;
}

async function oneSession(
  ctx: Ctx,
  f: SessionFacts,
  prompt: string,
  mode: 'plan' | 'act',
  extra: string[] = [],
): Promise<string | null> {
  const before = new Set(sessionIds(ctx));
  f.prompts.push({ text: prompt, mode, typedAt: now(), via: 'argv' });
  f.runs.push(await cli(ctx, [...runFlags(ctx.target.generation, mode), ...extra, prompt]));
  const created = sessionIds(ctx).filter((id) => !before.has(id));
  if (created.length === 1) f.observedSessionId = created[0];
  else f.notes.push(`sessions created by the run: ${created.length}`);
  return f.observedSessionId;
}

async function authOpenAiCompatible(ctx: Ctx, model: string): Promise<void> {
  const provider = ctx.target.generation === 'sdk' ? 'openai-compatible' : 'openai';
  ctx.facts.auth.push(await cli(ctx, ['auth', '-p', provider, '-k', 'sk-corpus-mock', '-m', model, '-b', ctx.mock.baseUrl]));
}

async function authOpenAiNative(ctx: Ctx, model: string): Promise<void> {
  // The legacy engines take no base URL for openai-native; the OpenAI SDK they bundle reads OPENAI_BASE_URL.
  const args = ['auth', '-p', 'openai-native', '-k', 'sk-corpus-mock', '-m', model];
  if (ctx.target.generation === 'sdk') args.push('-b', ctx.mock.baseUrl);
  ctx.facts.auth.push(await cli(ctx, args));
}

async function driveGeneration(ctx: Ctx): Promise<void> {
  const gen = ctx.target.generation;
  const providerMain = gen === 'sdk' ? 'openai-compatible' : 'openai';
  await authOpenAiCompatible(ctx, 'mock-coder-1');

  for (const plan of plans(ctx.ws, gen === 'sdk')) {
    const f = newFacts(plan, providerMain, 'mock-coder-1');
    await oneSession(ctx, f, plan.prompt, 'act');
    ctx.facts.sessions.push(f);
  }

  // Plan mode, then act mode on the same session (a resume where the generation can resume).
  {
    const planPrompt = 'Plan how to add a subtract function in a new file subtract.py. (corpus case plan-then-act)';
    const actPrompt = 'The plan looks good: go ahead and write it. (corpus case plan-then-act)';
    const sub = SUBTRACT;
    const f = newFacts(
      {
        scenario: 'plan-then-act',
        description: 'plan mode answer, then the same session resumed in act mode to write the file',
        commands: [],
        filesRead: [],
        filesWritten: [{ path: 'subtract.py', content: sub }],
      },
      providerMain,
      'mock-coder-1',
    );
    const id = await oneSession(ctx, f, planPrompt, 'plan');
    if (!(await followUp(ctx, f, gen, id, actPrompt))) {
      f.notes.push('not resumed in act mode: this generation has no one-shot resume flag (see corpus/README.md)');
      f.filesWritten = [];
    }
    ctx.facts.sessions.push(f);
  }

  // A resumed session: a plain session, then a follow-up on the same id.
  {
    const f = newFacts(
      {
        scenario: 'resumed',
        description: 'a session answered, then resumed by id with a follow-up prompt',
        commands: [{ command: 'git log --oneline -1', expectedExitCode: 0 }],
        filesRead: [],
        filesWritten: [],
      },
      providerMain,
      'mock-coder-1',
    );
    const first = 'Say which branch this repository is on. (corpus case resumed)';
    const id = await oneSession(ctx, f, first, 'act');
    if (!(await followUp(ctx, f, gen, id, 'Now show the last commit. (corpus case resumed)'))) {
      f.notes.push('not resumed: this generation has no one-shot resume flag (see corpus/README.md)');
      f.commands = [];
    }
    ctx.facts.sessions.push(f);
  }

  // 3.x: a session deleted with `cline history delete`.
  if (gen === 'sdk') {
    const f = newFacts(
      {
        scenario: 'deleted',
        description: 'a session then deleted with cline history delete',
        commands: [],
        filesRead: [],
        filesWritten: [],
      },
      providerMain,
      'mock-coder-1',
    );
    const id = await oneSession(ctx, f, 'Tell me a one-line fact about git. (corpus case deleted)', 'act');
    if (id) {
      f.runs.push(await cli(ctx, ['history', 'delete', '--session-id', id]));
      f.deleted = true;
    }
    ctx.facts.sessions.push(f);
  } else ctx.facts.skipped.push({ what: 'deleted session', why: 'the brief asks for it in 3.x only (cline history delete)' });

  // A second model on a second provider: openai-native (the Responses API for gpt-5 models).
  {
    const model = 'gpt-5-mini';
    await authOpenAiNative(ctx, model);
    const f = newFacts(
      {
        scenario: 'second-provider',
        description: 'a second provider (openai-native) and model, with a command',
        commands: [{ command: 'git status --short', expectedExitCode: 0 }],
        filesRead: [],
        filesWritten: [],
      },
      'openai-native',
      model,
    );
    await oneSession(ctx, f, 'Show me the git status of the project. (corpus case second-provider)', 'act');
    ctx.facts.sessions.push(f);
  }

  if (gen === 'sdk')
    ctx.facts.skipped.push({
      what: 'a separate interactive session',
      why: 'the resumes above are interactive already: prompts typed into the TUI through a pty (cache/user_input_history.jsonl)',
    });
  else
    ctx.facts.skipped.push({
      what: 'interactive session (input history)',
      why: 'not scripted for this generation in this first part (its TUI needs a pty and key-by-key input)',
    });
}

function scenariosFor(ctx: Ctx): Scenario[] {
  const gen = ctx.target.generation;
  const abs = gen === 'sdk';
  const s = plans(ctx.ws, abs).map(scenarioOf);
  s.push({
    key: 'corpus case plan-then-act',
    maxRequests: 8,
    finalText: 'Added subtract() in subtract.py.',
    turns: [
      {
        kind: 'tool',
        call: {
          tool: 'attempt_completion',
          result: 'Plan: create subtract.py with a subtract(a, b) function that returns a - b.',
        },
      },
      {
        kind: 'tool',
        text: 'Writing subtract.py.',
        call: { tool: 'write_to_file', path: abs ? join(ctx.ws, 'subtract.py') : 'subtract.py', content: SUBTRACT },
      },
      { kind: 'tool', call: { tool: 'attempt_completion', result: 'Added subtract() in subtract.py.' } },
    ],
  });
  s.push({
    key: 'corpus case resumed',
    maxRequests: 8,
    finalText: 'The last commit is "initial".',
    turns: [
      { kind: 'tool', call: { tool: 'attempt_completion', result: 'This repository is on branch main.' } },
      { kind: 'tool', text: 'Showing the last commit.', call: { tool: 'execute_command', command: 'git log --oneline -1' } },
      { kind: 'tool', call: { tool: 'attempt_completion', result: 'The last commit is "initial".' } },
    ],
  });
  s.push({
    key: 'corpus case deleted',
    maxRequests: 4,
    finalText: 'Git stores snapshots, not diffs.',
    turns: [{ kind: 'tool', call: { tool: 'attempt_completion', result: 'Git stores snapshots, not diffs.' } }],
  });
  const call: ToolCall = { tool: 'execute_command', command: 'git status --short' };
  s.push({
    key: 'corpus case second-provider',
    maxRequests: 6,
    finalText: 'The working tree has the files the earlier sessions wrote.',
    turns: [
      { kind: 'tool', text: 'Checking git status.', call },
      {
        kind: 'tool',
        call: { tool: 'attempt_completion', result: 'The working tree has the files the earlier sessions wrote.' },
      },
    ],
  });
  return s;
}

/** Copies what the CLI wrote under HOME into the fixtures, without caches; nested .git dirs are renamed. */
function keepHome(ctx: Ctx): void {
  const out = join(FIXTURES, `cline-${ctx.target.version}`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const dest = join(out, 'home');
  const strip = ['.npm', '.cache', '.config/configstore', '.local/share/pnpm'];
  cpSync(ctx.home, dest, { recursive: true, verbatimSymlinks: true });
  for (const s of strip) {
    if (existsSync(join(dest, s))) {
      rmSync(join(dest, s), { recursive: true, force: true });
      ctx.facts.strippedFromHome.push(s);
    }
  }
  // git cannot commit a directory named .git inside the repository: keep it as dot-git (see corpus/README.md).
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (!statSync(p).isDirectory()) continue;
      if (name === '.git') {
        const to = join(dir, 'dot-git');
        renameSync(p, to);
        ctx.facts.renamed.push({ from: relative(dest, p), to: relative(dest, to), why: 'a nested .git cannot be committed' });
      } else walk(p);
    }
  };
  walk(dest);
  writeFileSync(join(out, 'facts.json'), `${JSON.stringify(ctx.facts, null, 2)}\n`);
}

function attachMockLog(ctx: Ctx): void {
  for (const f of ctx.facts.sessions) {
    const mine = ctx.mock.log.filter((e) => e.scenario === f.scenario);
    f.mockRequests = mine.map(({ seq, at, path, model, stream, turnIndex, reply, usage }) => ({
      seq,
      at,
      path,
      model,
      stream,
      turnIndex,
      reply,
      usage,
    }));
    f.usageTotals = {
      promptTokens: mine.reduce((a, e) => a + e.usage.promptTokens, 0),
      completionTokens: mine.reduce((a, e) => a + e.usage.completionTokens, 0),
      cachedTokens: mine.reduce((a, e) => a + e.usage.cachedTokens, 0),
      requests: mine.length,
    };
    f.filesWrittenFound = f.filesWritten.map((w) => {
      const p = join(ctx.ws, w.path);
      if (!existsSync(p)) return { path: w.path, found: false, sameContent: false, bytes: null };
      const text = readFileSync(p, 'utf8');
      return { path: w.path, found: true, sameContent: text === w.content, bytes: Buffer.byteLength(text) };
    });
    const asked = [...new Set(mine.map((e) => e.model))].filter((m) => m !== f.model);
    if (asked.length > 0) f.notes.push(`the CLI asked the mock for model(s) ${asked.join(', ')}, not ${f.model}`);
  }
}

async function driveTarget(target: Target, only: string[]): Promise<void> {
  if (only.length > 0 && !only.includes(String(target.major)) && !only.includes(target.version)) return;
  const dir = join(ROOT, `cline-${target.version}`);
  rmSync(dir, { recursive: true, force: true });
  const home = join(dir, 'home');
  const ws = join(dir, 'work', 'demo-project');
  const installDir = join(ROOT, 'install', `cline-${target.version}`);
  const logs = join(dir, 'logs');
  for (const d of [home, logs]) mkdirSync(d, { recursive: true });
  makeWorkspace(ws);
  if (!existsSync(join(installDir, 'node_modules', 'cline', 'package.json'))) {
    log(`installing cline@${target.version} into ${installDir}`);
    mkdirSync(installDir, { recursive: true });
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', installDir, `cline@${target.version}`], {
      stdio: 'inherit',
      timeout: 900_000,
    });
  }
  const mock = await startMockServer({
    scenarios: [],
    logFile: join(logs, 'mock-requests.jsonl'),
    requestCap: 200,
    timeoutMs: 30 * 60_000,
  });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    USER: 'corpus',
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    TERM: 'dumb',
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    // No self-update: 1.x starts `npm install cline` in the background unless it believes it runs in CI.
    CI: 'true',
    CLINE_NO_AUTO_UPDATE: '1',
    NO_UPDATE_NOTIFIER: '1',
    npm_config_update_notifier: 'false',
    OPENAI_BASE_URL: mock.baseUrl,
  };
  const facts: GenerationFacts = {
    package: 'cline',
    version: target.version,
    generation: target.generation,
    driver: 'corpus/drive.ts',
    drivenAt: now(),
    home,
    workspace: ws,
    mockBaseUrl: mock.baseUrl,
    auth: [],
    sessions: [],
    skipped: [],
    strippedFromHome: [],
    renamed: [],
  };
  const ctx: Ctx = { target, dir, home, ws, installDir, logs, env, mock, facts, runCount: 0 };
  // The scenarios need the workspace path (3.x tools take absolute paths), so they are set once it exists.
  mock.setScenarios(scenariosFor(ctx));
  try {
    await driveGeneration(ctx);
  } finally {
    await new Promise((r) => setTimeout(r, 2000));
    const killed = killStrays(installDir);
    if (killed.length > 0) log(`${target.version}: stopped stray processes ${killed.join(', ')}`);
    await new Promise((r) => setTimeout(r, 1500));
    await mock.close();
  }
  attachMockLog(ctx);
  keepHome(ctx);
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const targets = pickVersions();
  log(`versions: ${targets.map((t) => t.version).join(', ')}`);
  mkdirSync(ROOT, { recursive: true });
  for (const t of targets) await driveTarget(t, only);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
