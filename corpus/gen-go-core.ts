// cline 1.0.x (Go CLI over cline-core): every session goes to a long-lived instance (go-core-instance.ts) through the
// CLI's own instance commands: `cline task new` for a prompt, `cline task send -m act` to answer the plan in act
// mode, `cline task open <id>` then `cline task send` to resume. Those commands return at once; the driver waits on
// the task's UI messages (legacy-tasks.ts) to know when the engine is done.
//
// `cline auth` starts its own instance under the 12 s deadline, so on a loaded machine it is retried when the load
// is lower; when it still fails the same settings go to the running instance with the CLI's `cline config set`.

import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { log, now, sleep, until } from './child.js';
import { newSessionFacts } from './facts.js';
import { type Instance, startInstance, stopInstance } from './go-core-instance.js';
import { settle, type TaskState, waitForTask } from './legacy-tasks.js';
import { AUTO_APPROVED } from './attacks.js';
import { ONE_SHOT } from './scenarios.js';
import { type Ctx, cli, observeNewSession } from './session.js';
import type { Mode, SessionFacts } from './types.js';

const WAIT_MS = 300_000;
const AUTH_ATTEMPTS = 3;
const APPROVAL_ASKS = ['tool', 'command'];

interface Provider {
  id: string;
  model: string;
  authArgs: string[];
  /** The same configuration as `cline config set` keys, for when `cline auth` cannot start its instance. */
  configSet: string[];
}

function providers(baseUrl: string): Provider[] {
  const key = 'sk-corpus-mock';
  const openai = 'mock-coder-1';
  const native = 'gpt-5-mini';
  return [
    {
      id: 'openai',
      model: openai,
      authArgs: ['-p', 'openai', '-k', key, '-m', openai, '-b', baseUrl],
      configSet: [
        ...['act', 'plan'].flatMap((m) => [
          `${m}-mode-api-provider=openai`,
          `${m}-mode-open-ai-model-id=${openai}`,
          `${m}-mode-api-model-id=${openai}`,
        ]),
        `open-ai-api-key=${key}`,
        `open-ai-base-url=${baseUrl}`,
      ],
    },
    {
      // No base URL for openai-native in `cline auth`: cline-core's OpenAI SDK reads OPENAI_BASE_URL (the driver's env).
      id: 'openai-native',
      model: native,
      authArgs: ['-p', 'openai-native', '-k', key, '-m', native],
      configSet: [
        ...['act', 'plan'].flatMap((m) => [`${m}-mode-api-provider=openai_native`, `${m}-mode-api-model-id=${native}`]),
        `open-ai-native-api-key=${key}`,
      ],
    },
  ];
}

function lastRunOutput(ctx: Ctx): string {
  const prefix = `${ctx.logs}/run-${String(ctx.runCount).padStart(2, '0')}`;
  const read = (f: string) => {
    try {
      return readFileSync(f, 'utf8');
    } catch {
      return '';
    }
  };
  return `${read(`${prefix}.stderr`)}${read(`${prefix}.stdout`)}`;
}

/** `cline auth` (no instance of ours running, so nothing overwrites what it stores); true when it succeeded. */
async function auth(ctx: Ctx, p: Provider): Promise<boolean> {
  for (let attempt = 1; attempt <= AUTH_ATTEMPTS; attempt++) {
    // A retry waits (at most a minute) for a quieter machine: cline-core must register within the Go CLI's 12 s.
    if (attempt > 1) await until(() => loadavg()[0] < 4, 60_000);
    const load = loadavg()[0].toFixed(1);
    const r = await cli(ctx, ['auth', ...p.authArgs]);
    ctx.facts.auth.push(r);
    if (r.exitCode === 0) return true;
    const why =
      lastRunOutput(ctx)
        .split('\n')
        .find((l) => l.startsWith('Error:')) ?? 'no error line';
    ctx.facts.notes.push(`cline auth -p ${p.id}, attempt ${attempt}: exit ${r.exitCode}, load average ${load}: ${why}`);
  }
  return false;
}

async function configSet(ctx: Ctx, inst: Instance, p: Provider): Promise<void> {
  const r = await cli(ctx, ['config', 'set', '--address', inst.address, ...p.configSet]);
  ctx.facts.auth.push(r);
  ctx.facts.notes.push(
    `cline auth -p ${p.id} failed ${AUTH_ATTEMPTS} times (its own instance did not register within the Go CLI's 12 s); ` +
      `the same settings went to the running instance with cline config set (exit ${r.exitCode})`,
  );
}

/** A new task on the instance; waits until it completes or stops at one of `asks`. */
async function newTask(
  ctx: Ctx,
  inst: Instance,
  f: SessionFacts,
  prompt: string,
  mode: Mode,
  asks: string[] = [],
  yolo = mode === 'act',
): Promise<{ id: string | null; state: TaskState | null }> {
  const sinceMs = Date.now();
  // without -y, the task's own setting turns off the yolo that globalState.json keeps from the earlier -y tasks
  const flags = yolo ? ['-y'] : mode === 'act' ? ['-s', 'yolo-mode-toggled=false'] : [];
  const id = await observeNewSession(ctx, f, async () => {
    f.prompts.push({ text: prompt, mode, typedAt: now(), via: 'cline task new --address <instance>' });
    f.runs.push(await cli(ctx, ['task', 'new', '--address', inst.address, '-m', mode, ...flags, prompt]));
    await until(() => ctx.mock.log.some((e) => e.scenario === f.scenario && Date.parse(e.at) >= sinceMs), 60_000);
  });
  if (!id) return { id, state: null };
  const state = await waitForTask(ctx.home, id, sinceMs, asks, WAIT_MS);
  if (state !== 'completed' && !state?.startsWith('ask:'))
    f.notes.push(`the task did not complete (saw ${state ?? 'nothing in time'})`);
  await settle(ctx.home, id);
  return { id, state };
}

/**
 * `cline task send` on the instance's current task; waits until the task completes. An approval ask (yolo not in
 * effect for this task) is answered with `cline task send --approve`, at most 3 times, each one noted.
 */
async function send(ctx: Ctx, inst: Instance, f: SessionFacts, id: string, text: string, extra: string[]): Promise<void> {
  let sinceMs = Date.now();
  f.prompts.push({ text, mode: 'act', typedAt: now(), via: `cline task send ${extra.join(' ')} --address <instance>` });
  f.runs.push(await cli(ctx, ['task', 'send', '--address', inst.address, ...extra, text]));
  let state = await waitForTask(ctx.home, id, sinceMs, APPROVAL_ASKS, WAIT_MS);
  for (let i = 0; i < 3 && state?.startsWith('ask:'); i++) {
    f.notes.push(`the task stopped at a ${state.slice(4)} approval ask: approved with cline task send --approve`);
    sinceMs = Date.now();
    f.runs.push(await cli(ctx, ['task', 'send', '--address', inst.address, '--approve']));
    state = await waitForTask(ctx.home, id, sinceMs, APPROVAL_ASKS, WAIT_MS);
  }
  if (state !== 'completed') f.notes.push(`the follow-up did not complete (saw ${state ?? 'nothing in time'})`);
  await settle(ctx.home, id);
}

async function planThenAct(ctx: Ctx, inst: Instance, f: SessionFacts): Promise<void> {
  const plan = ctx.plans['plan-then-act'];
  // Under yolo cline-core answers its own plan and switches to act. Yolo of an earlier `-y` task stays in the
  // instance's task-settings cache for the next task (`cline config set yolo-mode-toggled=false` did not stop it),
  // so the plan is the first task of a fresh instance. `-s yolo_mode_toggled=false` would stop it but, being a task
  // setting, it would also outrank the yolo that `task send -y` turns on, and the act phase would wait for approvals.
  const { id, state } = await newTask(ctx, inst, f, plan.prompt, 'plan', ['plan_mode_respond']);
  await sleep(2000);
  const requests = ctx.mock.log.filter((e) => e.scenario === f.scenario).length;
  if (!id || state !== 'ask:plan_mode_respond' || requests !== 1) {
    f.notes.push(
      `no act phase: the plan did not stop at a plan_mode_respond ask (saw ${state ?? 'nothing'}, ${requests} requests)`,
    );
    f.filesWritten = [];
    return;
  }
  // -m act answers the plan ask by switching mode, with the text as the user's message (cline-core togglePlanActMode).
  await send(ctx, inst, f, id, plan.followUp!, ['-y', '-m', 'act']);
}

async function resumed(ctx: Ctx, inst: Instance, f: SessionFacts): Promise<void> {
  const plan = ctx.plans.resumed;
  const { id, state } = await newTask(ctx, inst, f, plan.prompt, 'act');
  if (!id || state !== 'completed') {
    f.notes.push('not resumed: the first prompt did not complete');
    f.commands = [];
    return;
  }
  const openMs = Date.now();
  f.runs.push(await cli(ctx, ['task', 'open', '--address', inst.address, id]));
  const ask = await waitForTask(ctx.home, id, openMs, ['resume_task', 'resume_completed_task'], 60_000);
  if (!ask?.startsWith('ask:')) {
    f.notes.push(`not resumed: cline task open showed no resume ask (saw ${ask ?? 'nothing in time'})`);
    f.commands = [];
    return;
  }
  f.resumed = true;
  f.notes.push(`reopened from disk with cline task open <id>, then the follow-up answered its ${ask.slice(4)} ask`);
  await send(ctx, inst, f, id, plan.followUp!, ['-y']);
}

/**
 * The denied command (issue 27): a task without -y on a fresh instance (yolo of an earlier -y task stays in the
 * instance's cache) whose own setting turns yolo off (globalState.json keeps yoloModeToggled=true from the -y
 * tasks, and a fresh instance reads it), stopped at the command's approval ask and answered with
 * `cline task send --deny`.
 */
async function denied(ctx: Ctx, inst: Instance, f: SessionFacts): Promise<void> {
  const plan = ctx.plans.denied;
  const { id, state } = await newTask(ctx, inst, f, plan.prompt, 'act', ['command'], false);
  if (!id || state !== 'ask:command') {
    f.notes.push(`no approval ask to deny (saw ${state ?? 'nothing'})`);
    return;
  }
  const sinceMs = Date.now();
  f.runs.push(await cli(ctx, ['task', 'send', '--address', inst.address, '--deny']));
  f.denied = true;
  f.notes.push('the command stopped at its approval ask; denied with cline task send --deny');
  const done = await waitForTask(ctx.home, id, sinceMs, [], WAIT_MS);
  if (done !== 'completed') f.notes.push(`the task did not complete after the denial (saw ${done ?? 'nothing in time'})`);
  await settle(ctx.home, id);
}

/** Configures `p` (auth, or config set on the instance), starts an instance and runs `sessions` on it. */
async function withInstance(ctx: Ctx, p: Provider, sessions: (inst: Instance) => Promise<void>): Promise<boolean> {
  const authed = await auth(ctx, p);
  const inst = await startInstance(ctx);
  if (!inst) return false;
  try {
    if (!authed) await configSet(ctx, inst, p);
    await sessions(inst);
  } finally {
    await stopInstance(inst);
    log(`${ctx.target.version}: instance ${inst.address} stopped`);
  }
  return true;
}

export async function driveGoCore(ctx: Ctx): Promise<void> {
  const { plans, facts } = ctx;
  const [openai, native] = providers(ctx.mock.baseUrl);
  const first = await withInstance(ctx, openai, async (inst) => {
    const pta = newSessionFacts(plans['plan-then-act'], openai.id, openai.model);
    await planThenAct(ctx, inst, pta);
    for (const name of ONE_SHOT) {
      const f = newSessionFacts(plans[name], openai.id, openai.model);
      await newTask(ctx, inst, f, plans[name].prompt, 'act');
      facts.sessions.push(f);
    }
    facts.sessions.push(pta);
    const res = newSessionFacts(plans.resumed, openai.id, openai.model);
    await resumed(ctx, inst, res);
    facts.sessions.push(res);
    for (const name of AUTO_APPROVED) {
      const f = newSessionFacts(plans[name], openai.id, openai.model);
      await newTask(ctx, inst, f, plans[name].prompt, 'act');
      facts.sessions.push(f);
    }
  });
  if (!first) facts.skipped.push({ what: 'every openai session', why: 'no cline-core instance registered (see notes)' });

  facts.skipped.push({ what: 'deleted session', why: 'the brief asks for it in 3.x only (cline history delete)' });

  const second = await withInstance(ctx, native, async (inst) => {
    // first on this fresh instance: no -y task has run on it yet
    const den = newSessionFacts(plans.denied, native.id, native.model);
    await denied(ctx, inst, den);
    facts.sessions.push(den);
    const f = newSessionFacts(plans['second-provider'], native.id, native.model);
    await newTask(ctx, inst, f, plans['second-provider'].prompt, 'act');
    facts.sessions.push(f);
  });
  if (!second) facts.skipped.push({ what: 'second-provider', why: 'no cline-core instance registered (see notes)' });

  facts.skipped.push({
    what: 'interactive session (input history)',
    why: "the Go CLI's interactive mode (a Bubble Tea prompt) is not scripted: the sessions use its instance commands",
  });
}
