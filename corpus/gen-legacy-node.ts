// cline 2.x (Node CLI on the legacy task engine): one-shot runs with `-y --json -a`; plan-then-act and the resume
// typed into its terminal UI through a pty.
//
// Why the TUI: the one-shot ways fail in 2.18. Under `-p` the mode is a session override, so after the plan the
// engine stays in plan mode whatever is switched (with `-y` it loops on plan_mode_respond until "Too many consecutive
// mistakes"). `-T <id> "<prompt>"` sends the prompt 100 ms after loading the task, and the resume ask, posted later on
// a slow machine, clears it: the run then waits forever. In the TUI the driver types once the ask is there. (The TUI's
// welcome view, `--tui` with no prompt, did not draw at all within 2 minutes on the loaded test machine.)

import { now, type Running, sleep, typeSlowly, until } from './child.js';
import { newSessionFacts } from './facts.js';
import { settle, waitForTask } from './legacy-tasks.js';
import { AUTO_APPROVED } from './attacks.js';
import { ONE_SHOT } from './scenarios.js';
import { type Ctx, cli, observeNewSession, oneSession, oneShotSessions, startTui } from './session.js';
import type { SessionFacts } from './types.js';

const PROVIDER = 'openai';
const MODEL = 'mock-coder-1';
const TUI_TIMEOUT_MS = 300_000;
const WAIT_MS = 120_000;

/** Leaves the TUI the way a person would, Ctrl+C twice, and records the run. */
async function leave(f: SessionFacts, running: Running): Promise<void> {
  running.type('\u0003');
  await sleep(1500);
  running.type('\u0003');
  const r = await running.done;
  f.runs.push(r);
  f.notes.push(`the TUI was left with Ctrl+C twice (exit ${r.exitCode}${r.timedOut ? ', killed at the timeout' : ''})`);
}

/**
 * Opens task `id` in the TUI with `-T <id> -a`, types `text` at its resume ask, waits for the completion and leaves.
 * False when no resume ask showed (nothing typed).
 */
async function tuiFollowUp(ctx: Ctx, f: SessionFacts, id: string, text: string): Promise<boolean> {
  const startMs = Date.now();
  const running = startTui(ctx, ['-T', id, '-a', '--auto-approve-all'], TUI_TIMEOUT_MS);
  const ask = await waitForTask(ctx.home, id, startMs, ['resume_task', 'resume_completed_task'], WAIT_MS);
  if (!ask?.startsWith('ask:')) {
    f.notes.push(`the TUI opened with -T <id> showed no resume ask (saw ${ask ?? 'nothing in time'}); nothing was typed`);
    await leave(f, running);
    return false;
  }
  await sleep(1500);
  await typeSlowly(running, text);
  await sleep(500);
  const sentMs = Date.now();
  running.type('\r');
  f.resumed = true;
  f.prompts.push({
    text,
    mode: 'act',
    typedAt: new Date(sentMs).toISOString(),
    via: `tui -T <id> -a (typed into a pty at its ${ask.slice(4)} ask, then Enter)`,
  });
  const done = await waitForTask(ctx.home, id, sentMs, [], WAIT_MS);
  if (done !== 'completed') f.notes.push(`the follow-up did not complete (saw ${done ?? 'nothing in time'})`);
  await settle(ctx.home, id);
  await leave(f, running);
  return true;
}

/**
 * The plan typed as the TUI's initial prompt under `-p`, left at its plan_mode_respond ask; the act phase is the same
 * task reopened with `-T <id> -a` (the `-p` override would keep a switch made in this TUI in plan mode).
 */
async function planThenAct(ctx: Ctx, f: SessionFacts): Promise<void> {
  const plan = ctx.plans['plan-then-act'];
  const startMs = Date.now();
  let running: Running | null = null;
  const id = await observeNewSession(ctx, f, async () => {
    running = startTui(ctx, ['-p', '--auto-approve-all', plan.prompt], TUI_TIMEOUT_MS);
    f.prompts.push({ text: plan.prompt, mode: 'plan', typedAt: now(), via: 'tui -p "<prompt>" (argv, in a pty)' });
    // The task folder is there once the engine has sent its first request.
    await until(() => ctx.mock.log.some((e) => e.scenario === f.scenario), WAIT_MS);
    await sleep(1000);
  });
  const tuiRun = running as Running | null;
  if (!tuiRun) return;
  const planned = id ? await waitForTask(ctx.home, id, startMs, ['plan_mode_respond'], WAIT_MS) : null;
  await sleep(2000);
  const requests = ctx.mock.log.filter((e) => e.scenario === f.scenario).length;
  await leave(f, tuiRun);
  if (!id || planned !== 'ask:plan_mode_respond' || requests !== 1) {
    f.notes.push(
      `no act phase: the plan did not stop at a plan_mode_respond ask (saw ${planned ?? 'nothing'}, ${requests} requests)`,
    );
    f.filesWritten = [];
    return;
  }
  if (!(await tuiFollowUp(ctx, f, id, plan.followUp!))) f.filesWritten = [];
}

/** A one-shot answer, then the task reopened in the TUI and a follow-up typed at its resume ask. */
async function resumed(ctx: Ctx, f: SessionFacts): Promise<void> {
  const plan = ctx.plans.resumed;
  const id = await oneSession(ctx, f, plan.prompt, 'act');
  if (!id) f.notes.push('not resumed: the first run left no task id to resume');
  if (!id || !(await tuiFollowUp(ctx, f, id, plan.followUp!))) f.commands = [];
}

/**
 * The denied command (issue 27): the prompt typed as the TUI's initial prompt without any auto-approval; at the
 * command's approval ask the driver presses `2`, the TUI's Reject button (typing text there was not taken as a
 * denial by 2.18), then leaves once the task completed.
 */
async function denied(ctx: Ctx, f: SessionFacts): Promise<void> {
  const plan = ctx.plans.denied;
  const startMs = Date.now();
  let running: Running | null = null;
  const id = await observeNewSession(ctx, f, async () => {
    running = startTui(ctx, ['-a', plan.prompt], TUI_TIMEOUT_MS);
    f.prompts.push({ text: plan.prompt, mode: 'act', typedAt: now(), via: 'tui -a "<prompt>" (argv, in a pty)' });
    await until(() => ctx.mock.log.some((e) => e.scenario === f.scenario), WAIT_MS);
    await sleep(1000);
  });
  const tuiRun = running as Running | null;
  if (!tuiRun) return;
  const ask = id ? await waitForTask(ctx.home, id, startMs, ['command'], WAIT_MS) : null;
  if (id && ask === 'ask:command') {
    await sleep(3000);
    tuiRun.type('2');
    f.denied = true;
    f.notes.push('the command stopped at its approval ask; the driver pressed 2 (Reject)');
    const done = await waitForTask(ctx.home, id, Date.now() - 1000, [], WAIT_MS);
    if (done !== 'completed') f.notes.push(`the task did not complete after the denial (saw ${done ?? 'nothing in time'})`);
    await settle(ctx.home, id);
  } else f.notes.push(`no approval ask to deny (saw ${ask ?? 'nothing in time'})`);
  await leave(f, tuiRun);
}

export async function driveLegacyNode(ctx: Ctx): Promise<void> {
  const { plans, facts } = ctx;
  facts.auth.push(await cli(ctx, ['auth', '-p', PROVIDER, '-k', 'sk-corpus-mock', '-m', MODEL, '-b', ctx.mock.baseUrl]));

  await oneShotSessions(ctx, ONE_SHOT, PROVIDER, MODEL);

  const pta = newSessionFacts(plans['plan-then-act'], PROVIDER, MODEL);
  await planThenAct(ctx, pta);
  facts.sessions.push(pta);

  const res = newSessionFacts(plans.resumed, PROVIDER, MODEL);
  await resumed(ctx, res);
  facts.sessions.push(res);

  await oneShotSessions(ctx, AUTO_APPROVED, PROVIDER, MODEL);

  const den = newSessionFacts(plans.denied, PROVIDER, MODEL);
  await denied(ctx, den);
  facts.sessions.push(den);

  facts.skipped.push({ what: 'deleted session', why: 'the brief asks for it in 3.x only (cline history delete)' });

  {
    // The legacy engine takes no base URL for openai-native; the OpenAI SDK it bundles reads OPENAI_BASE_URL.
    const model = 'gpt-5-mini';
    facts.auth.push(await cli(ctx, ['auth', '-p', 'openai-native', '-k', 'sk-corpus-mock', '-m', model]));
    const f = newSessionFacts(plans['second-provider'], 'openai-native', model);
    await oneSession(ctx, f, plans['second-provider'].prompt, 'act');
    facts.sessions.push(f);
  }

  facts.skipped.push({
    what: 'a separate interactive session',
    why: 'plan-then-act and the resume are interactive already: typed into the TUI through a pty',
  });
}
