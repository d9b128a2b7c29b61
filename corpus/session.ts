// What every generation's driving shares: the run context, the CLI's argv, a logged run of it (plain or in a pty),
// and a one-prompt session whose new session or task id is read from the home.

import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type KeyStep, log, now, PTY_ENV, ptyArgv, type Running, runChild, sleep, startChild } from './child.js';
import { newSessionFacts } from './facts.js';
import type { MockServer } from './mock-model-server.js';
import type { Plan } from './scenarios.js';
import type { Generation, GenerationFacts, Mode, RunResult, SessionFacts, Target } from './types.js';

export interface Ctx {
  target: Target;
  dir: string;
  home: string;
  ws: string;
  installDir: string;
  logs: string;
  env: NodeJS.ProcessEnv;
  mock: MockServer;
  facts: GenerationFacts;
  plans: Record<string, Plan>;
  runCount: number;
}

export function cliArgv(ctx: Ctx): string[] {
  const nm = join(ctx.installDir, 'node_modules', 'cline');
  switch (ctx.target.generation) {
    case 'go-core':
    case 'sdk':
      return [join(nm, 'bin', 'cline')];
    case 'legacy-node':
      return [process.execPath, join(nm, 'dist', 'cli.mjs')];
  }
}

/** The prefix of the next run's stdout/stderr logs. */
export function nextLogPrefix(ctx: Ctx): string {
  ctx.runCount++;
  return join(ctx.logs, `run-${String(ctx.runCount).padStart(2, '0')}`);
}

export async function cli(ctx: Ctx, args: string[], timeoutMs?: number): Promise<RunResult> {
  const logPrefix = nextLogPrefix(ctx);
  const r = await runChild([...cliArgv(ctx), ...args], { cwd: ctx.ws, env: ctx.env, logPrefix, timeoutMs });
  log(`${ctx.target.version}: ${args.slice(0, 4).join(' ')} -> exit ${r.exitCode}${r.timedOut ? ' (timed out)' : ''}`);
  return r;
}

/** Runs the CLI's terminal UI under script(1), which gives it a pty, and types the keys on a schedule. */
export async function tui(ctx: Ctx, args: string[], keys: KeyStep[], timeoutMs: number): Promise<RunResult> {
  const logPrefix = nextLogPrefix(ctx);
  const env = { ...ctx.env, ...PTY_ENV };
  const r = await runChild(ptyArgv([...cliArgv(ctx), ...args]), { cwd: ctx.ws, env, logPrefix, keys, timeoutMs });
  log(`${ctx.target.version}: (tui) ${args.join(' ')} -> exit ${r.exitCode}${r.timedOut ? ' (timed out)' : ''}`);
  return r;
}

/** Starts the CLI's terminal UI in a pty and hands it back, for a caller that types as the screen changes. */
export function startTui(ctx: Ctx, args: string[], timeoutMs: number): Running {
  const logPrefix = nextLogPrefix(ctx);
  const env = { ...ctx.env, ...PTY_ENV };
  const running = startChild(ptyArgv([...cliArgv(ctx), ...args]), { cwd: ctx.ws, env, logPrefix, timeoutMs, input: true });
  void running.done.then((r) =>
    log(`${ctx.target.version}: (tui) ${args.join(' ')} -> exit ${r.exitCode}${r.timedOut ? ' (timed out)' : ''}`),
  );
  return running;
}

function listDirs(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((n) => statSync(join(dir, n)).isDirectory()) : [];
}

/** The ids of the sessions (3.x) or tasks (1.x, 2.x) in the home. */
export function sessionIds(ctx: Ctx): string[] {
  const data = join(ctx.home, '.cline', 'data');
  return ctx.target.generation === 'sdk' ? listDirs(join(data, 'sessions')) : listDirs(join(data, 'tasks'));
}

/** Flags of a one-shot, auto-approved run in the given mode. */
export function runFlags(gen: Generation, mode: Mode): string[] {
  switch (gen) {
    case 'go-core':
      return ['-y', '-m', mode, '-F', 'json'];
    case 'legacy-node':
      return ['-y', '--json', mode === 'plan' ? '-p' : '-a'];
    case 'sdk':
      return ['--json', ...(mode === 'plan' ? ['-p'] : [])];
  }
}

/**
 * Runs `run` and records the one session or task it created as the session's observed id (a note when it
 * created none or several).
 */
export async function observeNewSession(ctx: Ctx, f: SessionFacts, run: () => Promise<void>): Promise<string | null> {
  const before = new Set(sessionIds(ctx));
  await run();
  const created = sessionIds(ctx).filter((id) => !before.has(id));
  if (created.length === 1) f.observedSessionId = created[0];
  else f.notes.push(`sessions created by the run: ${created.length}`);
  return f.observedSessionId;
}

/** The scenarios `names` as one-prompt sessions in act mode, one after another, each recorded in the facts. */
export async function oneShotSessions(ctx: Ctx, names: readonly string[], provider: string, model: string): Promise<void> {
  for (const name of names) {
    const f = newSessionFacts(ctx.plans[name], provider, model);
    await oneSession(ctx, f, ctx.plans[name].prompt, 'act');
    ctx.facts.sessions.push(f);
  }
}

/** One prompt as a one-shot run in `mode`; the new session's id, when the run created exactly one. */
export async function oneSession(
  ctx: Ctx,
  f: SessionFacts,
  prompt: string,
  mode: Mode,
  extra: string[] = [],
): Promise<string | null> {
  return observeNewSession(ctx, f, async () => {
    f.prompts.push({ text: prompt, mode, typedAt: now(), via: 'argv' });
    f.runs.push(await cli(ctx, [...runFlags(ctx.target.generation, mode), ...extra, prompt]));
  });
}

/** Types `prompt` into a TUI's input box and Enter, recorded in the facts; the time Enter was sent. */
export async function typeIntoTui(running: Running, f: SessionFacts, prompt: string, via: string): Promise<number> {
  running.type(prompt);
  await sleep(1000);
  const sentMs = Date.now();
  running.type('\r');
  f.prompts.push({ text: prompt, mode: 'act', typedAt: new Date(sentMs).toISOString(), via });
  return sentMs;
}

/** Leaves a TUI as a person does: Ctrl+C twice. */
export async function leaveTui(running: Running): Promise<void> {
  running.type('\u0003');
  await sleep(2000);
  running.type('\u0003');
}
