// cline 2.x (Node CLI on the legacy task engine): one-shot runs with `-y --json`, resumes with `-T <taskId>`.

import { now } from './child.js';
import { newSessionFacts } from './facts.js';
import { ONE_SHOT } from './scenarios.js';
import { type Ctx, cli, oneSession, runFlags } from './session.js';

const PROVIDER = 'openai';
const MODEL = 'mock-coder-1';

export async function driveLegacyNode(ctx: Ctx): Promise<void> {
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
    if (id && plan.followUp) {
      f.resumed = true;
      f.prompts.push({ text: plan.followUp, mode: 'act', typedAt: now(), via: 'argv -T' });
      f.runs.push(await cli(ctx, [...runFlags('legacy-node', 'act'), '-T', id, plan.followUp]));
    } else {
      f.notes.push('not resumed: the first run left no task id to resume');
      f.filesWritten = [];
      f.commands = [];
    }
    facts.sessions.push(f);
  }

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
    what: 'interactive session (input history)',
    why: 'not scripted for this generation in this first part (its TUI needs a pty and key-by-key input)',
  });
}
