// cline 3.x (@cline/sdk): one-shot runs with `--json`, resumes typed into the TUI opened with `--id` (through a
// pty), a session deleted with `cline history delete`, and openai-native with a base URL.

import { AUTO_APPROVED } from './attacks.js';
import { now, sleep, until } from './child.js';
import { newSessionFacts } from './facts.js';
import { type Ctx, cli, observeNewSession, oneSession, startTui, tui } from './session.js';
import { ONE_SHOT } from './scenarios.js';
import type { SessionFacts } from './types.js';

const PROVIDER = 'openai-compatible';
const MODEL = 'mock-coder-1';

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

/**
 * The denied command (issue 27): an interactive run (a pty, no --json) with `--auto-approve false`; the CLI asks
 * `Approve "run_commands" {...} [y/N]` and the driver answers n. (With --json the CLI refuses the call itself,
 * "requires approval in a TTY session": no user denies it.)
 */
async function denied(ctx: Ctx, f: SessionFacts): Promise<void> {
  const plan = ctx.plans.denied;
  await observeNewSession(ctx, f, async () => {
    const running = startTui(ctx, ['--auto-approve', 'false', plan.prompt], 150_000);
    f.prompts.push({ text: plan.prompt, mode: 'act', typedAt: now(), via: 'argv, --auto-approve false, in a pty' });
    const asked = await until(() => running.output().includes('[y/N]'), 120_000);
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

  for (const name of ONE_SHOT) {
    const f = newSessionFacts(plans[name], PROVIDER, MODEL);
    await oneSession(ctx, f, plans[name].prompt, 'act');
    facts.sessions.push(f);
  }

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

  for (const name of AUTO_APPROVED) {
    const f = newSessionFacts(plans[name], PROVIDER, MODEL);
    await oneSession(ctx, f, plans[name].prompt, 'act');
    facts.sessions.push(f);
  }

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
