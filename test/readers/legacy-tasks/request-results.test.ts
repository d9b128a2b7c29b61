/**
 * Tool results of legacy tasks (issue 27): the request a task sends after a tool carries the tool's result back,
 * and that is the only record of a file the agent read or of a command the user denied. The cut of a request into
 * results (readers/legacy-tasks/request-results.ts) on texts in the engines' two shapes, then the rows the legacy reader
 * gives on the homes the released 1.0.10 and 2.18.0 CLIs wrote, checked against what the driver planted and did
 * (facts.json): each file read is a `request:tool_result` row with the id and tool name of the call it answers,
 * holding the file's text; the denied command's result says it was denied.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Row } from '../../../src/core/row.js';
import { requestResults } from '../../../src/readers/legacy-tasks/request-results.js';
import { readRealHome, REAL_1X_IMAGE, REAL_2X_IMAGE } from '../../helpers/side-store-tests.js';

const PROGRESS = '\n# task_progress RECOMMENDED\n\nWhen starting a new task, it is recommended to include a todo list.';
const ENV = '<environment_details>\n# Current Working Directory (/w) Files\napp.py\n</environment_details>';

describe('requestResults', () => {
  it('cuts an XML-era result at the blocks the engine appends', () => {
    const request = `[read_file for 'app.py'] Result:\n1 | def add(a, b):\n\n2 |     return a + b\n\n${PROGRESS}\n\n${ENV}`;
    expect(requestResults(request)).toEqual([
      { tool: 'read_file', text: "[read_file for 'app.py'] Result:\n1 | def add(a, b):\n\n2 |     return a + b", isError: false },
    ]);
  });

  it('reads several native results in order, an error one flagged, and stops at Loading...', () => {
    const request =
      "[Tool]\n[execute_command for 'ls'] Result:\nCommand executed successfully (exit code 0).\nOutput:\na\n\n" +
      "[Tool (Error)]\n[read_file for 'x.md'] Result:\nThe tool execution failed with the following error:\nENOENT\n\nLoading...";
    expect(requestResults(request)).toEqual([
      {
        tool: 'execute_command',
        text: "[execute_command for 'ls'] Result:\nCommand executed successfully (exit code 0).\nOutput:\na",
        isError: false,
      },
      {
        tool: 'read_file',
        text: "[read_file for 'x.md'] Result:\nThe tool execution failed with the following error:\nENOENT",
        isError: true,
      },
    ]);
  });

  it("gives nothing for a prompt, and no result for a final answer's tool, whose result is the user's reply", () => {
    expect(requestResults(`<task>\nRead app.py\n</task>\n\n${PROGRESS}`)).toEqual([]);
    expect(requestResults(`[attempt_completion] Result: Done\n\nThe user has provided feedback\n\n${ENV}`)).toEqual([]);
    expect(requestResults("[ask_followup_question for 'which?'] Result:\n<answer>\nthe second\n</answer>")).toEqual([]);
  });
});

interface Facts {
  sessions: Array<{
    id: string;
    observedSessionId: string | null;
    filesRead: string[];
    denied: boolean;
    commands: Array<{ command: string }>;
  }>;
  world?: { secrets: Array<{ name: string; file: string; value: string }> };
}

const facts = (image: string) => JSON.parse(fs.readFileSync(path.join(image, 'facts.json'), 'utf8')) as Facts;

describe.each([
  ['1.0.10', REAL_1X_IMAGE],
  ['2.18.0', REAL_2X_IMAGE],
])('the legacy tasks the released %s CLI wrote', (_version, image) => {
  const f = facts(image);
  const byTask = async () => {
    const { rows } = await readRealHome('cline-tasks', image);
    const tasks = new Map<string, Row[]>();
    for (const r of rows.filter((x) => x.source_file.endsWith('ui_messages.json')))
      tasks.set(r.session_id ?? '', [...(tasks.get(r.session_id ?? '') ?? []), r]);
    return tasks;
  };

  it('gives each file the agent read a request:tool_result row, with the id and tool name of its read, holding the file', async () => {
    const tasks = await byTask();
    const reads = f.sessions.filter((s) => s.filesRead.length > 0 && s.observedSessionId !== null);
    expect(reads.length).toBeGreaterThanOrEqual(3);
    for (const s of reads) {
      const rows = tasks.get(s.observedSessionId!) ?? [];
      const uses = rows.filter((r) => r.turn_type === 'tool_use' && r.tool_name === 'readFile');
      expect(uses.length, s.id).toBe(s.filesRead.length);
      for (const use of uses) {
        const results = rows.filter((r) => r.kind === 'request:tool_result' && r.tool_use_id === use.tool_use_id);
        expect(
          results.map((r) => r.tool_name),
          s.id,
        ).toEqual(['readFile']);
        expect(results[0].text, s.id).toMatch(/^\[read_file for '[^']+'\] Result:\n/);
        expect(results[0].source_file).toBe(use.source_file);
      }
    }
    // what the driver planted in the files read comes back in those rows
    const credentials = f.sessions.find((s) => s.id === 'attack-credentials');
    const env = f.world?.secrets.find((x) => x.name === 'OPENAI_API_KEY');
    if (credentials?.observedSessionId && env) {
      const results = (tasks.get(credentials.observedSessionId) ?? []).filter((r) => r.kind === 'request:tool_result');
      expect(results.some((r) => r.tool_name === 'readFile' && r.text?.includes(env.value))).toBe(true);
    }
    const injection = f.sessions.find((s) => s.id === 'attack-injection');
    if (injection?.observedSessionId) {
      const results = (tasks.get(injection.observedSessionId) ?? []).filter((r) => r.kind === 'request:tool_result');
      expect(results.filter((r) => r.text?.includes('ignore previous instructions')).map((r) => r.tool_name)).toEqual([
        'readFile',
      ]);
    }
  });

  it('gives each command a result row of the request as well as its output message: the same call id', async () => {
    const tasks = await byTask();
    for (const s of f.sessions.filter((x) => x.commands.length > 0 && x.observedSessionId !== null && !x.denied)) {
      const rows = tasks.get(s.observedSessionId!) ?? [];
      for (const use of rows.filter((r) => r.turn_type === 'tool_use' && r.tool_name === 'execute_command')) {
        const copies = rows.filter((r) => r.kind === 'request:tool_result' && r.tool_use_id === use.tool_use_id);
        expect(
          copies.map((r) => r.tool_name),
          `${s.id}: ${use.text}`,
        ).toEqual(['execute_command']);
      }
    }
  });

  it("records the denied command's result as the request carried it: denied", async (ctx) => {
    const denied = f.sessions.find((s) => s.id === 'denied');
    if (!denied?.denied) return ctx.skip(`this generation's run could not deny the command (facts.json notes: ${_version})`);
    const rows = (await byTask()).get(denied.observedSessionId!) ?? [];
    const ask = rows.filter((r) => r.kind === 'ask:command');
    expect(ask.length).toBe(1);
    const results = rows.filter((r) => r.turn_type === 'tool_result' && r.tool_use_id === ask[0].tool_use_id);
    expect(results.map((r) => [r.kind, r.text?.includes('The user denied this operation.')])).toEqual([
      ['request:tool_result', true],
    ]);
  });
});
