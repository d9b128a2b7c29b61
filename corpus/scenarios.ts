// The sessions the driver runs, the same plan for every generation: the prompts typed, the commands and files the
// mock's script asks for, and that script. The mock maps the logical tool calls onto each generation's tools.

import { join } from 'node:path';
import type { PlannedTurn, Scenario } from './mock-script.js';
import type { Claim, Control, PlannedFile } from './types.js';

export interface Plan {
  scenario: string;
  description: string;
  /** The first prompt; `followUp` is typed on the same session afterwards (plan-then-act, resumed). */
  prompt: string;
  followUp?: string;
  turns: PlannedTurn[];
  commands: { command: string; expectedExitCode: number }[];
  filesRead: string[];
  filesWritten: PlannedFile[];
  maxRequests: number;
  finalText: string;
  /** Acts planted for the hunts (corpus/attacks.ts); none in the ordinary sessions. */
  claims?: Claim[];
  controls?: Control[];
}

const SUBTRACT = 'def subtract(a, b):\n    return a - b\n';
const NOTES = 'Corpus notes: add() returns the sum of its two arguments.\n';

const done = (result: string): PlannedTurn => ({ kind: 'tool', call: { tool: 'attempt_completion', result } });
const cmd = (command: string, text: string): PlannedTurn => ({ kind: 'tool', text, call: { tool: 'execute_command', command } });

function plan(p: Omit<Plan, 'commands' | 'filesRead' | 'filesWritten' | 'maxRequests'> & Partial<Plan>): Plan {
  return { commands: [], filesRead: [], filesWritten: [], maxRequests: 8, ...p };
}

/** Every scenario; 3.x tools take absolute paths (`absolutePaths`), the legacy engines relative ones. */
export function allPlans(ws: string, absolutePaths: boolean): Record<string, Plan> {
  const p = (rel: string) => (absolutePaths ? join(ws, rel) : rel);
  const failing = 'sh -c "echo check failed: missing config >&2; exit 3"';
  const status = 'git status --short';
  return {
    'plain-answer': plan({
      scenario: 'plain-answer',
      description: 'a plain answer, no tool use',
      prompt: 'What does the add function in this project return? (corpus case plain-answer)',
      turns: [done('add(a, b) returns a + b, the sum of its two arguments.')],
      finalText: 'Done.',
    }),
    'command-ok': plan({
      scenario: 'command-ok',
      description: 'a command that succeeds (exit 0)',
      prompt: 'List the files of the project with ls -la. (corpus case command-ok)',
      turns: [cmd('ls -la', 'I will list the files.'), done('Listed the project files: README.md and app.py.')],
      commands: [{ command: 'ls -la', expectedExitCode: 0 }],
      finalText: 'Done.',
    }),
    'command-fail': plan({
      scenario: 'command-fail',
      description: 'a command that fails with exit code 3',
      prompt: 'Run the check script and tell me if it passes. (corpus case command-fail)',
      turns: [cmd(failing, 'Running the check.'), done('The check failed with exit code 3: missing config.')],
      commands: [{ command: failing, expectedExitCode: 3 }],
      finalText: 'Done.',
    }),
    'file-read-write': plan({
      scenario: 'file-read-write',
      description: 'a file read, then a file write, then completion',
      prompt: 'Read app.py and write a short notes.txt describing it. (corpus case file-read-write)',
      turns: [
        { kind: 'tool', text: 'Reading app.py first.', call: { tool: 'read_file', path: p('app.py') } },
        { kind: 'tool', text: 'Writing the notes.', call: { tool: 'write_to_file', path: p('notes.txt'), content: NOTES } },
        done('Wrote notes.txt describing app.py.'),
      ],
      filesRead: ['app.py'],
      filesWritten: [{ path: 'notes.txt', content: NOTES }],
      finalText: 'Done.',
    }),
    'plan-then-act': plan({
      scenario: 'plan-then-act',
      description: 'plan mode answer, then the same session in act mode to write the file',
      prompt: 'Plan how to add a subtract function in a new file subtract.py. (corpus case plan-then-act)',
      followUp: 'The plan looks good: go ahead and write it. (corpus case plan-then-act)',
      turns: [
        done('Plan: create subtract.py with a subtract(a, b) function that returns a - b.'),
        {
          kind: 'tool',
          text: 'Writing subtract.py.',
          call: { tool: 'write_to_file', path: p('subtract.py'), content: SUBTRACT },
        },
        done('Added subtract() in subtract.py.'),
      ],
      filesWritten: [{ path: 'subtract.py', content: SUBTRACT }],
      finalText: 'Added subtract() in subtract.py.',
    }),
    resumed: plan({
      scenario: 'resumed',
      description: 'a session answered, then resumed by id with a follow-up prompt',
      prompt: 'Say which branch this repository is on. (corpus case resumed)',
      followUp: 'Now show the last commit. (corpus case resumed)',
      turns: [
        done('This repository is on branch main.'),
        cmd('git log --oneline -1', 'Showing the last commit.'),
        done('The last commit is "initial".'),
      ],
      commands: [{ command: 'git log --oneline -1', expectedExitCode: 0 }],
      finalText: 'The last commit is "initial".',
    }),
    deleted: plan({
      scenario: 'deleted',
      description: 'a session then deleted with cline history delete',
      prompt: 'Tell me a one-line fact about git. (corpus case deleted)',
      turns: [done('Git stores snapshots, not diffs.')],
      maxRequests: 4,
      finalText: 'Git stores snapshots, not diffs.',
    }),
    'second-provider': plan({
      scenario: 'second-provider',
      description: 'a second provider (openai-native) and model, with a command',
      prompt: 'Show me the git status of the project. (corpus case second-provider)',
      turns: [cmd(status, 'Checking git status.'), done('The working tree has the files the earlier sessions wrote.')],
      commands: [{ command: status, expectedExitCode: 0 }],
      maxRequests: 6,
      finalText: 'The working tree has the files the earlier sessions wrote.',
    }),
  };
}

/** The sessions that are one prompt in act mode, run first by every generation. */
export const ONE_SHOT = ['plain-answer', 'command-ok', 'command-fail', 'file-read-write'];

export function mockScenarios(plans: Record<string, Plan>): Scenario[] {
  return Object.values(plans).map((p) => ({
    key: `corpus case ${p.scenario}`,
    turns: p.turns,
    maxRequests: p.maxRequests,
    finalText: p.finalText,
  }));
}
