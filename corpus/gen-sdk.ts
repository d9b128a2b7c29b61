// cline 3.x (@cline/sdk): one-shot runs with `--json`, resumes typed into the TUI opened with `--id` (through a
// pty), a session deleted with `cline history delete`, and openai-native with a base URL.

import { AUTO_APPROVED } from './attacks.js';
import { killStrays, now, sleep, until } from './child.js';
import { newSessionFacts } from './facts.js';
import { type Ctx, cli, leaveTui, observeNewSession, oneSession, oneShotSessions, startTui, typeIntoTui } from './session.js';
import { ONE_SHOT } from './scenarios.js';
import type { SessionFacts } from './types.js';

const PROVIDER = 'openai-compatible';
/** Terminal escape sequences, which split the approval prompt's text on the screen. */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, 'g');
const MODEL = 'mock-coder-1';

/**
 * Resumes a session by typing a prompt into the 3.x TUI opened with --id (3.x one-shot runs cannot resume): the
 * prompt is typed once the TUI shows its input box (on a loaded machine it drew after the fixed 8 s the driver first
 * waited, and the prompt went nowhere), then the driver waits for the follow-up's requests to end before Ctrl+C twice.
 */
async function tuiFollowUp(ctx: Ctx, f: SessionFacts, id: string, prompt: string): Promise<void> {
  const running = startTui(ctx, ['--id', id], 180_000);
  const ready = await until(() => running.output().replace(ANSI, '').includes('Ask anything'), 120_000);
  if (!ready) f.notes.push('the TUI showed no input box within 2 minutes; the prompt was typed anyway');
  await sleep(1500);
  const sentMs = await typeIntoTui(running, f, prompt, 'tui --id (typed into a pty)');
  const mine = () => ctx.mock.log.filter((e) => e.scenario === f.scenario && Date.parse(e.at) >= sentMs);
  if (!(await until(() => mine().length > 0, 90_000))) f.notes.push('the typed prompt drew no request');
  // the follow-up is done when no request of it came for 5 s
  let seen = -1;
  let quietSince = Date.now();
  const end = Date.now() + 120_000;
  while (Date.now() < end && Date.now() - quietSince < 5000) {
    await sleep(500);
    if (mine().length !== seen) {
      seen = mine().length;
      quietSince = Date.now();
    }
  }
  await leaveTui(running);
  f.runs.push(await running.done);
  f.resumed = true;
  f.notes.push('resumed in the TUI (cline --id <id> needs a terminal); the prompt was typed, then Ctrl+C twice to leave');
}

/**
 * The denied command (issue 27): an interactive run (a pty, no --json) with `--auto-approve false`; the CLI asks
 * `Approve "run_commands" {...} [y/N]` and the driver answers n. (With --json the CLI refuses the call itself,
 * "requires approval in a TTY session": no user denies it.)
 */
async function denied(ctx: Ctx, f: SessionFacts): Promise<void> {
  const plan = ctx.plans.denied;
  // A session the running hub daemon hosts is non-interactive ("Tool approval requires an interactive session"):
  // with the daemon stopped, the CLI runs this one in-process and asks at the terminal.
  const stopped = killStrays(ctx.installDir);
  if (stopped.length > 0) f.notes.push(`the hub daemon (pid ${stopped.join(', ')}) was stopped first`);
  await sleep(3000);
  await observeNewSession(ctx, f, async () => {
    const running = startTui(ctx, ['--auto-approve', 'false', plan.prompt], 150_000);
    f.prompts.push({ text: plan.prompt, mode: 'act', typedAt: now(), via: 'argv, --auto-approve false, in a pty' });
    const asked = await until(() => running.output().replace(ANSI, '').includes('[y/N]'), 120_000);
    if (asked) {
      await sleep(1000);
      running.type('n\r');
      f.denied = true;
      f.notes.push('the CLI asked "Approve run_commands ... [y/N]"; the driver answered n');
    } else f.notes.push('no approval prompt appeared');
    f.runs.push(await running.done);
  });
}

export async function driveSdk(ctx: Ctx): Promise<void> {
  const { plans, facts } = ctx;
  facts.auth.push(await cli(ctx, ['auth', '-p', PROVIDER, '-k', 'sk-corpus-mock', '-m', MODEL, '-b', ctx.mock.baseUrl]));

  await oneShotSessions(ctx, ONE_SHOT, PROVIDER, MODEL);

  for (const [name, mode] of [
    ['plan-then-act', 'plan'],
    ['resumed', 'act'],
  ] as const) {
    const plan = plans[name];
    const f = newSessionFacts(plan, PROVIDER, MODEL);
    const id = await oneSession(ctx, f, plan.prompt, mode);
    if (id && plan.followUp) await tuiFollowUp(ctx, f, id, plan.followUp);
    else {
      f.notes.push('not resumed: the first run left no session id to resume');
      f.filesWritten = [];
      f.commands = [];
    }
    facts.sessions.push(f);
  }

  {
    const f = newSessionFacts(plans.deleted, PROVIDER, MODEL);
    const id = await oneSession(ctx, f, plans.deleted.prompt, 'act');
    if (id) {
      f.runs.push(await cli(ctx, ['history', 'delete', '--session-id', id]));
      f.deleted = true;
    }
    facts.sessions.push(f);
  }

  await oneShotSessions(ctx, AUTO_APPROVED, PROVIDER, MODEL);

  const den = newSessionFacts(plans.denied, PROVIDER, MODEL);
  await denied(ctx, den);
  facts.sessions.push(den);

  {
    const model = 'gpt-5-mini';
    facts.auth.push(await cli(ctx, ['auth', '-p', 'openai-native', '-k', 'sk-corpus-mock', '-m', model, '-b', ctx.mock.baseUrl]));
    const f = newSessionFacts(plans['second-provider'], 'openai-native', model);
    await oneSession(ctx, f, plans['second-provider'].prompt, 'act');
    facts.sessions.push(f);
  }

  facts.skipped.push({
    what: 'a separate interactive session',
    why: 'the resumes above are interactive already: prompts typed into the TUI through a pty (cache/user_input_history.jsonl)',
  });
}
