// The driven corpus (issue 31 point 5): one 3.x home where a person types sessions and another agent hands the CLI
// work the way the MCP bridge of shared/spec 004 does (ask_cline, apply_cline_edits, ask_cline_workspace, and a
// provider/model override whose previous defaults it writes back into providers.json). The facts say which
// session was typed and which was bridge-driven, from the driver's side, so `driven_by` is checked against them.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { log, now, runChild, sleep, until } from './child.js';
import { newSessionFacts } from './facts.js';
import { type Ctx, cli, cliArgv, leaveTui, nextLogPrefix, observeNewSession, startTui, typeIntoTui } from './session.js';
import type { SessionFacts } from './types.js';

const PROVIDER = 'openai-compatible';
const MODEL = 'mock-coder-1';
/** The override run's provider and model, and the defaults the bridge restores. */
const OVERRIDE = { provider: 'openai-native', model: 'gpt-5-mini', defaultModel: 'gpt-5-nano' };
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, 'g');

/** Where the bridge's disposable worktree lies while its session runs (removed afterwards). */
export const bridgeWorktree = (dir: string): string => join(dir, 'bridge-tmp', 'cline-workspace-1');

/** The bridge's spawn: the CLI with `shell: false`, no terminal, in `cwd`; the flags of the tool it serves. */
async function bridgeRun(ctx: Ctx, f: SessionFacts, flags: string[], cwd: string, tool: string): Promise<void> {
  const prompt = ctx.plans[f.id].prompt;
  await observeNewSession(ctx, f, async () => {
    f.prompts.push({ text: prompt, mode: 'act', typedAt: now(), via: `bridge ${tool}: argv, no terminal` });
    const argv = [...cliArgv(ctx), '--json', ...flags, prompt];
    const r = await runChild(argv, { cwd, env: ctx.env, logPrefix: nextLogPrefix(ctx), timeoutMs: 180_000 });
    log(`${ctx.target.version}: (bridge ${tool}) -> exit ${r.exitCode}`);
    f.runs.push(r);
  });
  f.drivenBy = 'agent';
  f.drivenHow = tool;
}

/** A person's run in a terminal (a pty): argv flags and the prompt; `answer` is typed at an approval prompt. */
async function typedRun(ctx: Ctx, f: SessionFacts, flags: string[], answer?: string): Promise<void> {
  const prompt = ctx.plans[f.id].prompt;
  await observeNewSession(ctx, f, async () => {
    const running = startTui(ctx, [...flags, prompt], 180_000);
    f.prompts.push({ text: prompt, mode: 'act', typedAt: now(), via: `argv in a terminal (pty) ${flags.join(' ')}`.trim() });
    if (answer !== undefined) {
      const asked = await until(() => /\[y\/N\]|requires an interactive/.test(running.output().replace(ANSI, '')), 120_000);
      const screen = running.output().replace(ANSI, '');
      if (asked && screen.includes('[y/N]')) {
        await sleep(1000);
        running.type(answer);
        f.notes.push(`the CLI asked for approval at the terminal; the driver answered ${JSON.stringify(answer.trim())}`);
      } else f.notes.push('no approval prompt appeared at the terminal');
    }
    f.runs.push(await running.done);
  });
  f.drivenBy = 'person';
  f.drivenHow = 'argv typed in a terminal';
}

/** A person opens the TUI and types the prompt (written to cache/user_input_history.jsonl). */
async function typedTui(ctx: Ctx, f: SessionFacts): Promise<void> {
  const prompt = ctx.plans[f.id].prompt;
  await observeNewSession(ctx, f, async () => {
    const running = startTui(ctx, [], 200_000);
    const screen = () => running.output().replace(ANSI, '');
    if (!(await until(() => /What can I do for you|Ask anything/.test(screen()), 120_000)))
      f.notes.push('the TUI showed no input box within 2 minutes; the prompt was typed anyway');
    await sleep(2000);
    // a fresh home's TUI opens a ClinePass notice over the input box: "any other key to close"
    if (screen().includes('any other key to close')) {
      running.type('\u001b');
      f.notes.push('the TUI showed the ClinePass notice; the driver closed it with Escape');
      await sleep(1500);
    }
    const sentMs = await typeIntoTui(running, f, prompt, 'typed into the TUI (pty)');
    const mine = () => ctx.mock.log.filter((e) => e.scenario === f.scenario && Date.parse(e.at) >= sentMs);
    await until(() => mine().length >= ctx.plans[f.id].turns.length, 120_000);
    await sleep(5000);
    await leaveTui(running);
    f.runs.push(await running.done);
  });
  f.drivenBy = 'person';
  f.drivenHow = 'typed into the TUI';
}

type Providers = { lastUsedProvider?: string; providers?: Record<string, { settings?: Record<string, unknown> }> };

/**
 * The bridge's override run (apply_cline_edits, so its command and edit run): it snapshots lastUsedProvider and the target provider's settings.model and
 * settings.reasoning, runs with -P/-m, then writes back only those fields that changed (tmp file, mode 0600,
 * rename), every other field (updatedAt included) as the CLI left it.
 */
async function bridgeOverride(ctx: Ctx, f: SessionFacts): Promise<void> {
  const file = join(ctx.home, '.cline', 'data', 'settings', 'providers.json');
  const read = (): Providers => JSON.parse(readFileSync(file, 'utf8')) as Providers;
  const before = read();
  const block = before.providers?.[OVERRIDE.provider]?.settings;
  const snap = { last: before.lastUsedProvider, model: block?.model, reasoning: block?.reasoning };
  await bridgeRun(ctx, f, ['-P', OVERRIDE.provider, '-m', OVERRIDE.model], ctx.ws, 'apply_cline_edits with provider and model');
  const after = read();
  const restored: string[] = [];
  if (after.lastUsedProvider !== snap.last) {
    after.lastUsedProvider = snap.last;
    restored.push('lastUsedProvider');
  }
  const now = after.providers?.[OVERRIDE.provider]?.settings;
  if (block && now) {
    for (const key of ['model', 'reasoning'] as const) {
      const was = key === 'model' ? snap.model : snap.reasoning;
      if (JSON.stringify(now[key]) === JSON.stringify(was)) continue;
      if (was === undefined) delete now[key];
      else now[key] = was;
      restored.push(`providers.${OVERRIDE.provider}.settings.${key}`);
    }
  }
  if (restored.length > 0) {
    const tmp = `${file}.bridge-${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(after, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, file);
  }
  f.notes.push(`the bridge restored ${restored.length > 0 ? restored.join(', ') : 'nothing (no tracked field changed)'}`);
  f.bridgeRestored = restored;
}

/** ask_cline_workspace: a detached worktree of the checkout, the run there, then the worktree removed. */
async function bridgeWorkspace(ctx: Ctx, f: SessionFacts): Promise<void> {
  const wt = bridgeWorktree(ctx.dir);
  const git = (args: string[]) => execFileSync('git', ['-C', ctx.ws, ...args], { stdio: 'ignore', timeout: 60_000 });
  git(['worktree', 'add', '--detach', wt, 'HEAD']);
  await bridgeRun(ctx, f, ['--auto-approve', 'false'], wt, 'ask_cline_workspace');
  git(['worktree', 'remove', '--force', wt]);
  f.notes.push(`the bridge removed its worktree ${wt}: ${existsSync(wt) ? 'still there' : 'gone'}`);
}

export async function driveDriven(ctx: Ctx): Promise<void> {
  const { facts } = ctx;
  const sessions: SessionFacts[] = [];
  const session = (id: string) => {
    const f = newSessionFacts(ctx.plans[id], PROVIDER, MODEL);
    sessions.push(f);
    return f;
  };
  // openai-native first, so the default (lastUsedProvider) is the mock's openai-compatible
  const authNative = ['auth', '-p', OVERRIDE.provider, '-k', 'sk-corpus-mock', '-m', OVERRIDE.defaultModel];
  facts.auth.push(await cli(ctx, [...authNative, '-b', ctx.mock.baseUrl]));
  facts.auth.push(await cli(ctx, ['auth', '-p', PROVIDER, '-k', 'sk-corpus-mock', '-m', MODEL, '-b', ctx.mock.baseUrl]));

  await typedTui(ctx, session('typed-tui'));
  await typedRun(ctx, session('typed-argv'), []);
  await bridgeRun(ctx, session('bridge-ask'), ['--auto-approve', 'false'], ctx.ws, 'ask_cline');
  await bridgeRun(ctx, session('bridge-apply'), [], ctx.ws, 'apply_cline_edits');
  await bridgeWorkspace(ctx, session('bridge-workspace'));
  await typedRun(ctx, session('typed-ask'), ['--auto-approve', 'false'], 'y\r');
  const typedOverride = session('typed-override');
  typedOverride.model = 'mock-coder-2';
  await typedRun(ctx, typedOverride, ['-m', 'mock-coder-2']);
  const override = session('bridge-override');
  override.provider = OVERRIDE.provider;
  override.model = OVERRIDE.model;
  await bridgeOverride(ctx, override);
  facts.sessions.push(...sessions);
}
