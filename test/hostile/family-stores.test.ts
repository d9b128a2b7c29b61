/**
 * Issue 31 points 1-2: a machine where Cline's forks Roo Code and Kilo Code sit beside Cline, and where
 * each agent left state in the editor's state databases. Before, their folders were no root kind and the
 * databases no store: a hunter saw nothing of them, not even a `files` row. Now every file is in `files`,
 * every row says whose it is (`agent`), a task history entry whose folder is gone still gives its prompt,
 * and a Roo Code subtask keeps its parent.
 *
 * One host holds the fixture images of roo-tasks (Roo Code 3.52.1, macOS), kilo-tasks (Kilo Code 5.8.0 in
 * a remote server's home), vscode-state (a state.vscdb per agent: Cline 3.27.2 in Code, Roo Code in
 * Cursor, Kilo Code in VSCodium) and vscode-tasks (Cline), loaded through the built CLI.
 */
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/source.js';
import { CLINE_327_STATE, KILO_STATE, ROO_STATE } from '../helpers/vscode-state-fixtures.js';
import { assertBuilt, describeRun, filesUnder, lit, load, query, type CliRun, workDir } from './harness.js';

const work = workDir('family');
afterAll(() => rmSync(work, { recursive: true, force: true }));
const fleet = path.join(work, 'fleet');
const out = path.join(work, 'out');
const IMAGES = ['roo-tasks', 'kilo-tasks', 'vscode-state', 'vscode-tasks'];
const ROO = 'Users/carol/Library/Application Support/Code/User/globalStorage/rooveterinaryinc.roo-cline';

let run: CliRun;

beforeAll(async () => {
  assertBuilt();
  mkdirSync(fleet);
  for (const name of IMAGES) cpSync(fixture(name, 'img'), path.join(fleet, 'dev-mac'), { recursive: true });
  run = await load(fleet, out);
}, 300_000);

describe('Roo Code, Kilo Code and the editor state databases beside Cline', () => {
  it('loads the host', () => {
    expect(run.code, describeRun(run)).toBe(0);
  });

  it('lists every file of the forks and of the state databases in files', async () => {
    const listed = new Set(
      ((await query(out, `select source_file from files where host = 'dev-mac'`)) as string[][]).map((r) => r[0]),
    );
    const planted = IMAGES.filter((i) => i !== 'vscode-tasks').flatMap((i) => filesUnder(fixture(i, 'img')));
    expect(planted.filter((f) => !listed.has(f))).toEqual([]);
  });

  it('gives every row of each store the agent whose record it is', async () => {
    const agents = await query(
      out,
      `select store, agent, count(*) > 0 from events where host = 'dev-mac' and store in ('roo-tasks', 'kilo-tasks', 'vscode-state', 'vscode-tasks', 'settings')
       group by all order by store, agent`,
    );
    expect(agents).toEqual([
      ['kilo-tasks', 'kilo-code', true],
      ['roo-tasks', 'roo-code', true],
      ['settings', 'kilo-code', true],
      ['settings', 'roo-code', true],
      ['vscode-state', 'cline', true],
      ['vscode-state', 'kilo-code', true],
      ['vscode-state', 'roo-code', true],
      ['vscode-tasks', 'cline', true],
    ]);
  });

  it("keeps the prompt of a task whose folder is gone, from Roo Code's index and from a pre-v3.28 Cline state database", async () => {
    const index = JSON.parse(readFileSync(fixture('roo-tasks', 'img', ...ROO.split('/'), 'tasks', '_index.json'), 'utf8')) as {
      entries: Array<{ id: string; task: string }>;
    };
    const gone = index.entries[2];
    const cline = CLINE_327_STATE.taskHistory[0];
    const rows = await query(
      out,
      `select session_id, agent, text from events where kind = 'task_history' and session_id in (${lit(gone.id)}, ${lit(cline.id)}) order by agent`,
    );
    expect(rows).toEqual([
      [cline.id, 'cline', `task history: ${cline.task}`],
      [gone.id, 'roo-code', expect.stringContaining(`task history: ${gone.task}`)],
    ]);
  });

  it('keeps the orchestrator link of a Roo Code subtask', async () => {
    const index = JSON.parse(readFileSync(fixture('roo-tasks', 'img', ...ROO.split('/'), 'tasks', '_index.json'), 'utf8')) as {
      entries: Array<{ id: string; parentTaskId?: string }>;
    };
    const child = index.entries[1];
    const rows = await query(
      out,
      `select distinct parent_session_id from events where session_id = ${lit(child.id)} and kind = 'task_history'`,
    );
    expect(rows).toEqual([[child.parentTaskId]]);
  });

  it("takes each agent's auto-approval in a state database to settings, safety_off and the safety-turned-off hunt, as its own", async () => {
    // what the fixtures plant: every command approved under each agent's master switch (Kilo Code's is on unless set)
    expect(CLINE_327_STATE.autoApprovalSettings.enabled && CLINE_327_STATE.autoApprovalSettings.actions.executeAllCommands).toBe(
      true,
    );
    expect(ROO_STATE.autoApprovalEnabled && ROO_STATE.alwaysAllowExecute && ROO_STATE.allowedCommands.includes('*')).toBe(true);
    expect('autoApprovalEnabled' in KILO_STATE).toBe(false);
    expect(KILO_STATE.alwaysAllowExecute && KILO_STATE.allowedCommands.includes('*')).toBe(true);
    const fromState = `host = 'dev-mac' and source_file like '%/state.vscdb'`;
    expect(
      await query(
        out,
        `select agent, setting_value from settings where ${fromState} and setting_name = 'allowedCommands' order by all`,
      ),
    ).toEqual(
      [
        ...KILO_STATE.allowedCommands.map((c) => ['kilo-code', c]),
        ...ROO_STATE.allowedCommands.map((c) => ['roo-code', c]),
      ].sort(),
    );
    expect(
      await query(
        out,
        `select agent, scope, setting_name, setting_value, what from safety_off where ${fromState} order by agent`,
      ),
    ).toEqual([
      ['cline', 'home', 'autoApprovalSettings.actions.executeAllCommands', 'true', 'every command'],
      ['kilo-code', 'home', 'alwaysAllowExecute', 'true', 'every command'],
      ['roo-code', 'home', 'alwaysAllowExecute', 'true', 'every command'],
    ]);
    const findings = await query(
      out,
      `select agent, summary like 'every command: %' from findings where hunt_id = 'safety-turned-off' and ${fromState} order by agent`,
    );
    expect(findings).toEqual([
      ['cline', true],
      ['kilo-code', true],
      ['roo-code', true],
    ]);
  });

  it('says whose each session, file and host is', async () => {
    const [gone] = CLINE_327_STATE.taskHistory;
    const sessions = await query(
      out,
      `select session_id, agent from sessions where session_id in (${lit(gone.id)}, ${lit(ROO_STATE.taskHistory[0].id)}, ${lit(KILO_STATE.taskHistory[0].id)}) order by agent`,
    );
    expect(sessions).toEqual([
      [gone.id, 'cline'],
      [KILO_STATE.taskHistory[0].id, 'kilo-code'],
      [ROO_STATE.taskHistory[0].id, 'roo-code'],
    ]);
    expect(await query(out, `select agents from hosts where host = 'dev-mac'`)).toEqual([[['cline', 'kilo-code', 'roo-code']]]);
    // one file of each store: a fork's task file is its agent's, a state database holds the agents of its keys
    const files = await query(
      out,
      `select store, agents from files where host = 'dev-mac' and (source_file like '%/tasks/_index.json' or source_file like '%Cursor/User/globalStorage/state.vscdb') order by store`,
    );
    expect(files).toEqual([
      ['roo-tasks', ['roo-code']],
      ['vscode-state', ['roo-code']],
    ]);
  });
});
