/**
 * Issue 31 leftover: one task's history item read twice, or three times, for one agent. Roo Code 3.49+ keeps each
 * task's item in tasks/<id>/history_item.json (tasks/_index.json for a task whose folder is gone) and still writes
 * it through to its globalState taskHistory in the editor's state database; VS Code keeps a state.vscdb.backup of
 * that database; Cline 3.28 moved its globalState taskHistory to state/taskHistory.json, and what the older version
 * left in the database stays. Before, each copy was a `task_history` row of events: a task showed two or three
 * times in the timeline and its totals were summed as often. Now the duplicate rule keeps the history file's row
 * and lists the state database's copies in `duplicates` (rule task_history); where no history file holds the item,
 * the state database's row is kept over its .backup's. Rows of another agent or another host are never paired.
 *
 * Hosts: `roo` (fixtures/roo-tasks in Code, and Code's state database and its .backup holding Roo Code's
 * write-through of the same items, beside a Kilo Code item that reuses one of their ids), `cline` (fixtures/
 * vscode-tasks, and Code's state database a pre-3.28 Cline left with the first items of its taskHistory.json), and
 * `other` (that state database alone: its items stay).
 */
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/source.js';
import { writeStateDb } from '../helpers/vscode-state-fixtures.js';
import { assertBuilt, describeRun, lit, load, query, type CliRun, workDir } from './harness.js';

const work = workDir('task-history-pairs');
afterAll(() => rmSync(work, { recursive: true, force: true }));
const fleet = path.join(work, 'fleet');
const out = path.join(work, 'out');

const ROO_USER = 'Users/carol/Library/Application Support/Code/User';
const ROO_INDEX = `${ROO_USER}/globalStorage/rooveterinaryinc.roo-cline/tasks/_index.json`;
const CLINE_USER = 'C/Users/alice/AppData/Roaming/Code/User';
const CLINE_HISTORY = `${CLINE_USER}/globalStorage/saoudrizwan.claude-dev/state/taskHistory.json`;

type Item = { id: string; tokensIn: number };
const rooItems = (JSON.parse(readFileSync(fixture('roo-tasks', 'img', ...ROO_INDEX.split('/')), 'utf8')) as { entries: Item[] })
  .entries;
const clineFileItems = JSON.parse(readFileSync(fixture('vscode-tasks', 'img', ...CLINE_HISTORY.split('/')), 'utf8')) as Item[];
// what Cline 3.27 left in globalState: the items of before the move, which 3.28 copied to taskHistory.json
const clineItems = clineFileItems.slice(0, 2);
const kiloItem = { ...rooItems[0], task: 'a Kilo Code task under a Roo Code id' };

let run: CliRun;

beforeAll(async () => {
  assertBuilt();
  mkdirSync(fleet);
  const roo = path.join(fleet, 'roo');
  cpSync(fixture('roo-tasks', 'img'), roo, { recursive: true });
  const rooState: Array<[string, string]> = [
    ['RooVeterinaryInc.roo-cline', JSON.stringify({ taskHistory: rooItems, mode: 'code' })],
    ['kilocode.kilo-code', JSON.stringify({ taskHistory: [kiloItem] })],
  ];
  for (const name of ['state.vscdb', 'state.vscdb.backup'])
    writeStateDb(path.join(roo, ...`${ROO_USER}/globalStorage/${name}`.split('/')), rooState);
  const cline = path.join(fleet, 'cline');
  cpSync(fixture('vscode-tasks', 'img'), cline, { recursive: true });
  const clineState: Array<[string, string]> = [['saoudrizwan.claude-dev', JSON.stringify({ taskHistory: clineItems })]];
  writeStateDb(path.join(cline, ...`${CLINE_USER}/globalStorage/state.vscdb`.split('/')), clineState);
  writeStateDb(path.join(fleet, 'other', ...`${CLINE_USER}/globalStorage/state.vscdb`.split('/')), clineState);
  run = await load(fleet, out);
}, 300_000);

describe('task history items kept in several places', () => {
  it('loads the hosts', () => {
    expect(run.code, describeRun(run)).toBe(0);
  });

  it("keeps one task_history row per task and agent, the history file's", async () => {
    const rows = await query(
      out,
      `select host, agent, session_id, count(*)::INTEGER, string_agg(distinct store, ',') from events
       where kind = 'task_history' group by all order by all`,
    );
    const expected = [
      ...clineFileItems.map((i) => ['cline', 'cline', i.id, 1, 'vscode-tasks']),
      ...clineItems.map((i) => ['other', 'cline', i.id, 1, 'vscode-state']),
      ['roo', 'kilo-code', kiloItem.id, 1, 'vscode-state'],
      ...rooItems.map((i) => ['roo', 'roo-code', i.id, 1, 'roo-tasks']),
    ];
    expect(rows).toEqual(expected.sort());
  });

  it('lists every other copy in duplicates with the row that kept it', async () => {
    const rows = await query(
      out,
      `select host, rule, rule_pass, dropped_store, regexp_extract(dropped_source_file, '[^/]+$'), dropped_session_id, kept_store
       from duplicates where rule = 'task_history' order by all`,
    );
    const expected = [
      ...clineItems.map((i) => ['cline', 'task_history', 'same task', 'vscode-state', 'state.vscdb', i.id, 'vscode-tasks']),
      ...rooItems.flatMap((i) =>
        ['state.vscdb', 'state.vscdb.backup'].map((f) => [
          'roo',
          'task_history',
          'same task',
          'vscode-state',
          f,
          i.id,
          'roo-tasks',
        ]),
      ),
      // Kilo Code's item has no history file: the database's copy is kept over its .backup's, never Roo Code's
      ['roo', 'task_history', 'same task', 'vscode-state', 'state.vscdb.backup', kiloItem.id, 'vscode-state'],
    ];
    expect(rows).toEqual(expected.sort());
  });

  it('counts the totals of a task whose folder is gone once', async () => {
    const gone = rooItems[2];
    expect(
      await query(
        out,
        `select sum(tokens_in)::INTEGER from events where host = 'roo' and agent = 'roo-code' and session_id = ${lit(gone.id)}`,
      ),
    ).toEqual([[gone.tokensIn]]);
  });
});
