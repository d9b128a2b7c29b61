// The sessions of the driven corpus (issue 31 point 5): what the mock asks for in sessions a person types and in
// sessions another agent hands to the CLI through an MCP bridge (shared/spec 004), so the warehouse's `driven_by`
// can be checked against who really drove each one. Every session asks for a command or a file write, so a hunt
// of agent-driven work has something to list and something to leave out.

import { join } from 'node:path';
import type { PlannedTurn } from './mock-script.js';
import type { Plan } from './scenarios.js';

const done = (result: string): PlannedTurn => ({ kind: 'tool', call: { tool: 'attempt_completion', result } });
const cmd = (command: string, text: string): PlannedTurn => ({ kind: 'tool', text, call: { tool: 'execute_command', command } });
const write = (path: string, content: string, text: string): PlannedTurn => ({
  kind: 'tool',
  text,
  call: { tool: 'write_to_file', path, content },
});

function plan(scenario: string, description: string, prompt: string, turns: PlannedTurn[], extra: Partial<Plan> = {}): Plan {
  return {
    scenario,
    description,
    prompt: `${prompt} (corpus case ${scenario})`,
    turns,
    commands: [],
    filesRead: [],
    filesWritten: [],
    maxRequests: 6,
    finalText: 'Done.',
    ...extra,
  };
}

/** The plans; `ws` is the user's checkout, `worktree` the bridge's disposable one (3.x tools take absolute paths). */
export function drivenPlans(ws: string, worktree: string): Record<string, Plan> {
  const TODO = 'TODO: handle negative numbers in add().\n';
  const CHANGELOG = '# Changelog\n\n- add() documented.\n';
  return {
    'typed-tui': plan(
      'typed-tui',
      'a person types a prompt into the TUI; it lists the files and writes todo.txt',
      'List the project files and write a short todo.txt.',
      [cmd('ls -la', 'Listing the files.'), write(join(ws, 'todo.txt'), TODO, 'Writing the todo.'), done('Wrote todo.txt.')],
      {
        commands: [{ command: 'ls -la', expectedExitCode: 0 }],
        filesWritten: [{ path: 'todo.txt', content: TODO }],
      },
    ),
    'typed-argv': plan(
      'typed-argv',
      'a person runs cline "<prompt>" in a terminal; it runs git status',
      'What is the git status of this project?',
      [cmd('git status --short', 'Checking the status.'), done('The status lists todo.txt as new.')],
      { commands: [{ command: 'git status --short', expectedExitCode: 0 }] },
    ),
    'typed-ask': plan(
      'typed-ask',
      'a person runs cline --auto-approve false "<prompt>" in a terminal while the hub daemon runs',
      'Show the last commit, asking me first.',
      [cmd('git log --oneline -1', 'Showing the last commit.'), done('The last commit is "initial".')],
      { commands: [{ command: 'git log --oneline -1', expectedExitCode: 0 }] },
    ),
    'typed-override': plan(
      'typed-override',
      'a person runs cline -m <another model> "<prompt>" in a terminal; nothing restores providers.json',
      'Count the lines of app.py.',
      [cmd('wc -l app.py', 'Counting.'), done('app.py has 2 lines.')],
      { commands: [{ command: 'wc -l app.py', expectedExitCode: 0 }] },
    ),
    'bridge-ask': plan(
      'bridge-ask',
      'ask_cline: cline --json --auto-approve false in the checkout, no terminal; the command is refused',
      'Which tests does this project have? Run git ls-files to see.',
      [cmd('git ls-files', 'Listing the tracked files.'), done('The project has no tests.')],
      { commands: [{ command: 'git ls-files', expectedExitCode: 0 }] },
    ),
    'bridge-apply': plan(
      'bridge-apply',
      'apply_cline_edits: cline --json (edits approved) in the checkout; writes CHANGELOG.md, runs git diff --stat',
      'Add a CHANGELOG.md saying add() is documented. Do not commit.',
      [
        write(join(ws, 'CHANGELOG.md'), CHANGELOG, 'Writing the changelog.'),
        cmd('git diff --stat', 'Checking the diff.'),
        done('Added CHANGELOG.md.'),
      ],
      {
        commands: [{ command: 'git diff --stat', expectedExitCode: 0 }],
        filesWritten: [{ path: 'CHANGELOG.md', content: CHANGELOG }],
      },
    ),
    'bridge-workspace': plan(
      'bridge-workspace',
      'ask_cline_workspace: cline --json --auto-approve false in a detached worktree the bridge then removes',
      'Summarise app.py; run cat app.py to read it.',
      [cmd(`cat ${join(worktree, 'app.py')}`, 'Reading app.py.'), done('app.py defines add(a, b).')],
      { commands: [{ command: `cat ${join(worktree, 'app.py')}`, expectedExitCode: 0 }] },
    ),
    'bridge-override': plan(
      'bridge-override',
      'apply_cline_edits with provider and model: cline --json -P <p> -m <m> in the checkout; the bridge restores providers.json',
      'Check that app.py compiles with python3 -m py_compile app.py. Do not commit.',
      // a command only: the mock's Responses API (openai-native) answers a file write as XML text, not a tool call
      [cmd('python3 -m py_compile app.py', 'Compiling.'), done('app.py compiles.')],
      { commands: [{ command: 'python3 -m py_compile app.py', expectedExitCode: 0 }] },
    ),
  };
}
