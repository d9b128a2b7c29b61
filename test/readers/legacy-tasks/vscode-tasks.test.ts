import { describe, expect, it } from 'vitest';
import { ASK_TURN_TYPES, SAY_TURN_TYPES, messageTurnType } from '../../../src/readers/legacy-tasks/cline-message-kinds.js';
import type { Row } from '../../../src/core/row.js';
import { readLegacyTasks } from '../../../src/readers/legacy-tasks/reader.js';
import { collect, fixture, makeSource } from '../../helpers/source.js';

const IMAGE = fixture('vscode-tasks', 'img');
const HOME = 'C/Users/alice';
const STORE = `${HOME}/AppData/Roaming/Code/User/globalStorage/saoudrizwan.claude-dev`;
const ROOT = fixture('vscode-tasks', 'img', ...STORE.split('/'));
const UI0 = `${STORE}/tasks/1760000000000/ui_messages.json`;
const CUT = `${STORE}/tasks/1760000300000/ui_messages.json`;
const API = `${STORE}/tasks/1760000200000/api_conversation_history.json`;

async function readFixture(): Promise<Row[]> {
  const source = makeSource({ store: 'vscode-tasks', imageRoot: IMAGE, root: ROOT, home: HOME, client: 'vscode' });
  return collect(readLegacyTasks, source);
}

const iso = (row: Row): string | null => (row.timestamp_utc === null ? null : new Date(row.timestamp_utc).toISOString());
const ofFile = (rows: Row[], file: string): Row[] => rows.filter((r) => r.source_file === file);

describe('readLegacyTasks on a VS Code globalStorage store (vscode-tasks)', () => {
  it('yields every row, history first, then tasks by id', async () => {
    const rows = await readFixture();
    expect(rows).toHaveLength(37);
    expect(rows.slice(0, 3).map((r) => [r.kind, r.session_id, r.text])).toEqual([
      ['task_history', '1760000000000', 'task history: fix tests'],
      ['task_history', '1760000200000', 'task history: run the suite'],
      ['task_history', '1760000300000', 'task history: refactor the parser'],
    ]);
    const sessions = rows.slice(3).map((r) => r.session_id);
    expect(sessions).toEqual([...sessions].sort());
    expect(rows.filter((r) => r.kind === 'parser')).toHaveLength(2);
  });

  it('reads the spec taskHistory record', async () => {
    const [first] = await readFixture();
    expect(first).toMatchObject({
      source_file: `${STORE}/state/taskHistory.json`,
      source_line: 1,
      turn_type: 'system',
      project_path: '/home/u/proj',
      model: 'claude-sonnet-4-5',
      provider: 'anthropic',
      tokens_in: 1200,
      tokens_out: 80,
      cost_usd: 0.0041,
    });
    expect(iso(first)).toBe('2025-10-09T08:53:20.000Z');
  });

  it('maps each ui_messages record to a kind and turn type', async () => {
    const rows = ofFile(await readFixture(), UI0);
    expect(rows.map((r) => [r.source_line, r.kind, r.turn_type])).toEqual([
      [1, 'say:task', 'user'],
      [2, 'say:tool', 'tool_use'],
      [3, 'say:api_req_started', 'system'],
      [4, 'say:reasoning', 'thinking'],
      [5, 'say:text', 'assistant'],
      [6, 'ask:command', 'tool_use'],
      [7, 'say:command_output', 'tool_result'],
      [8, 'ask:use_mcp_server', 'tool_use'],
      [9, 'say:mcp_server_response', 'tool_result'],
      [10, 'say:browser_action_launch', 'tool_use'],
      [11, 'say:browser_action_result', 'tool_result'],
      [12, 'say:user_feedback', 'user'],
      [13, 'say:api_req_started', 'system'],
      [14, 'say:error', 'system'],
      [15, 'parser', 'system'],
      [16, 'say:checkpoint_created', 'system'],
      [17, 'say:future_kind', 'system'],
      [18, 'say:completion_result', 'assistant'],
    ]);
    expect(rows.every((r) => r.session_id === '1760000000000' && r.project_path === '/home/u/proj')).toBe(true);
    expect(rows[14].text).toBe(`parser: ${UI0} line 15: message is not a JSON object: garbage`);
  });

  it('reads one ask:command row in full, REQ_APP stripped', async () => {
    const row = ofFile(await readFixture(), UI0)[5];
    expect(row).toEqual({
      host: 'test-host',
      store: 'vscode-tasks',
      home: 'C:/Users/alice',
      user: 'alice',
      client: 'vscode',
      agent: 'cline',
      source_file: UI0,
      source_line: 6,
      source_seq: 0,
      source_role: 'primary',
      timestamp_utc: Date.parse('2025-10-09T08:53:22.000Z'),
      timestamp_source: 'recorded',
      session_id: '1760000000000',
      project_path: '/home/u/proj',
      git_branch: null,
      turn_type: 'tool_use',
      kind: 'ask:command',
      model: 'claude-sonnet-4-5',
      provider: 'anthropic',
      tool_name: 'execute_command',
      tool_use_id: '1760000002000',
      text: 'pytest -q',
      tokens_in: null,
      tokens_out: null,
      cost_usd: null,
      is_error: null,
      file_row: null,
      permission_mode: null,
      sync_target: null,
      session_origin: null,
      imported_from: null,
      setting_name: null,
      setting_value: null,
      parent_session_id: null,
    });
  });

  it('pairs tool results with the last tool use and names the tools', async () => {
    const rows = ofFile(await readFixture(), UI0);
    const pick = (line: number) => rows.find((r) => r.source_line === line)!;
    expect([pick(2).tool_name, pick(2).tool_use_id]).toEqual(['readFile', '1760000000000']);
    expect(pick(7).tool_use_id).toBe(pick(6).tool_use_id);
    expect([pick(8).tool_name, pick(9).tool_use_id]).toEqual(['list_issues', '1760000004000']);
    expect([pick(10).tool_name, pick(11).tool_use_id]).toEqual(['browser_action', '1760000006000']);
    expect(iso(pick(7))).toBe('2025-10-09T08:53:23.000Z');
  });

  it('takes tokens and cost from api_req_started and flags cancels and errors', async () => {
    const rows = ofFile(await readFixture(), UI0);
    expect(rows[2]).toMatchObject({
      text: '<task>fix tests</task>',
      tokens_in: 1200,
      tokens_out: 80,
      cost_usd: 0.0041,
      is_error: null,
    });
    expect(rows[12]).toMatchObject({ text: '[continue]', tokens_in: 10, tokens_out: 0, cost_usd: 0, is_error: true });
    expect(rows[13].is_error).toBe(true);
  });

  it('counts images and files, never copies them, and keeps reasoning out of text rows', async () => {
    const rows = await readFixture();
    const ui = ofFile(rows, UI0);
    expect(ui[0].text).toBe('fix tests | [1 image(s)]');
    expect(ui[10].text).toBe('{"logs":"Page loaded","currentUrl":"http://localhost:8000"} | [1 image(s)]');
    expect(ui[11].text).toBe('also check the docs | [2 file(s)]');
    expect(ui[3].text).toBe('The suite needs pytest.');
    expect(ui[4].text).toBe('Running the suite.');
    expect(rows.filter((r) => r.text?.includes('base64'))).toEqual([]);
  });

  it('takes the model from modelInfo, else task_metadata at that time', async () => {
    const rows = ofFile(await readFixture(), UI0);
    expect([rows[0].model, rows[1].model, rows[12].model, rows[13].model, rows[17].model]).toEqual([
      'claude-sonnet-4-5',
      'claude-sonnet-4-5',
      'claude-opus-4-1',
      'claude-opus-4-1',
      'claude-opus-4-1',
    ]);
  });

  it('reads task_metadata facts', async () => {
    const rows = ofFile(await readFixture(), `${STORE}/tasks/1760000000000/task_metadata.json`);
    expect(rows.map((r) => [r.kind, r.source_line, iso(r), r.text])).toEqual([
      [
        'model_usage',
        1,
        '2025-10-09T08:53:20.390Z',
        'model usage: model_id=claude-sonnet-4-5 model_provider_id=anthropic mode=act',
      ],
      [
        'model_usage',
        2,
        '2025-10-09T08:53:28.500Z',
        'model usage: model_id=claude-opus-4-1 model_provider_id=anthropic mode=plan',
      ],
      [
        'environment_history',
        1,
        '2025-10-09T08:53:20.380Z',
        'environment: os_name=win32 os_version=10.0.22631 os_arch=- host_name=Visual Studio Code host_version=1.104.0 cline_version=3.89.2',
      ],
      [
        'files_in_context',
        1,
        '2025-10-09T08:53:20.000Z',
        'file in context: src/app.py record_state=active record_source=read_tool',
      ],
    ]);
    expect(rows[1]).toMatchObject({ model: 'claude-opus-4-1', provider: 'anthropic', session_id: '1760000000000' });
    // each entry's mode as a column too; the other facts have none
    expect(rows.map((r) => r.permission_mode)).toEqual(['act', 'plan', null, null]);
  });

  it('ignores the api history of a task that has ui_messages.json', async () => {
    const rows = await readFixture();
    expect(ofFile(rows, `${STORE}/tasks/1760000000000/api_conversation_history.json`)).toEqual([]);
  });

  it('reads a task missing from taskHistory with a null project path', async () => {
    const rows = (await readFixture()).filter((r) => r.session_id === '1760000100000');
    expect(rows.map((r) => [r.kind, r.text, r.project_path, r.model])).toEqual([
      ['say:task', 'write docs', null, null],
      ['say:text', 'Done.', null, null],
    ]);
  });

  it('falls back to api_conversation_history.json, one row per block', async () => {
    const rows = ofFile(await readFixture(), API);
    expect(
      rows.map((r) => [r.source_line, r.source_seq, iso(r), r.turn_type, r.kind, r.tool_name, r.tool_use_id, r.text, r.is_error]),
    ).toEqual([
      [1, 0, '2025-10-09T08:56:40.400Z', 'user', 'text', null, null, '<task>\nrun the suite\n</task>', null],
      [1, 1, '2025-10-09T08:56:40.400Z', 'user', 'image', null, null, '[1 image(s)]', null],
      [2, 0, '2025-10-09T08:56:44.000Z', 'thinking', 'thinking', null, null, 'run pytest', null],
      [2, 1, '2025-10-09T08:56:44.000Z', 'thinking', 'redacted_thinking', null, null, '[redacted thinking]', null],
      [3, 0, null, 'tool_use', 'tool_use', 'execute_command', 'toolu_01A', 'pytest -q', null],
      [4, 0, null, 'tool_result', 'tool_result', null, 'toolu_01A', '3 passed', false],
      [5, 0, null, 'assistant', 'text', null, null, 'All green.', null],
    ]);
    expect(rows[2]).toMatchObject({
      model: 'claude-sonnet-4-5',
      provider: 'anthropic',
      tokens_in: 1200,
      tokens_out: 80,
      cost_usd: 0.0041,
    });
    expect(rows[3]).toMatchObject({ tokens_in: null, tokens_out: null, cost_usd: null });
    expect(rows[4]).toMatchObject({ model: 'claude-sonnet-4-5', provider: null, project_path: 'C:\\Users\\alice\\proj' });
  });

  it('keeps the records before a truncation, then one parser row', async () => {
    const rows = ofFile(await readFixture(), CUT);
    expect(rows).toHaveLength(3);
    expect(rows.slice(0, 2).map((r) => [r.source_line, r.kind, r.text])).toEqual([
      [1, 'say:task', 'refactor the parser'],
      [2, 'say:text', 'Reading the parser.'],
    ]);
    expect(rows[2]).toMatchObject({
      kind: 'parser',
      turn_type: 'system',
      is_error: true,
      session_id: '1760000300000',
      source_line: null,
    });
    expect(rows[2].text).toMatch(new RegExp(`^parser: ${CUT}: .+ \\(2 records read\\)$`));
  });
});

describe('cline-message-kinds', () => {
  it('covers the enums, removed and historic values, and defaults to system', () => {
    for (const ask of ['followup', 'resume_completed_task', 'use_subagents', 'request_limit_reached', 'consult_advisor']) {
      expect(Object.hasOwn(ASK_TURN_TYPES, ask)).toBe(true);
    }
    for (const say of ['error_retry', 'conditional_rules_applied', 'compaction', 'api_cost', 'hook_output']) {
      expect(Object.hasOwn(SAY_TURN_TYPES, say)).toBe(true);
    }
    expect(Object.keys(ASK_TURN_TYPES)).toHaveLength(24);
    expect(Object.keys(SAY_TURN_TYPES)).toHaveLength(47);
    expect(messageTurnType('say', 'user_feedback_diff')).toBe('user');
    expect(messageTurnType('ask', 'plan_mode_respond')).toBe('assistant');
    expect(messageTurnType('say', 'constructor')).toBe('system');
    expect(messageTurnType(null, 'task')).toBe('system');
  });
});
