import { describe, expect, it } from 'vitest';
import { readLegacyTasks } from '../../../src/readers/legacy-tasks/reader.js';
import type { Row } from '../../../src/core/row.js';
import { collect, fixture, makeSource } from '../../helpers/source.js';

const IMAGE = fixture('cline-tasks', 'img');
const STORE = 'home/u/.cline/data';
const ROOT = fixture('cline-tasks', 'img', ...STORE.split('/'));
const TASK = `${STORE}/tasks/1761000000000`;
const BAD = `${STORE}/tasks/1761000100000`;

async function readFixture(): Promise<Row[]> {
  const source = makeSource({ store: 'cline-tasks', imageRoot: IMAGE, root: ROOT, home: 'home/u', client: 'cline' });
  return collect(readLegacyTasks, source);
}

const iso = (row: Row): string | null => (row.timestamp_utc === null ? null : new Date(row.timestamp_utc).toISOString());

describe('readLegacyTasks on a ~/.cline/data store (cline-tasks)', () => {
  it('yields every row in file order', async () => {
    const rows = await readFixture();
    expect(rows.map((r) => [r.source_file.slice(STORE.length + 1), r.source_line, r.kind])).toEqual([
      ['state/taskHistory.json', 1, 'task_history'],
      ['state/taskHistory.json', 2, 'parser'],
      ['tasks/1761000000000/task_metadata.json', null, 'parser'],
      // one row per setting of the task's settings.json (test/readers/legacy-tasks/task-settings.test.ts)
      ...Array.from({ length: 10 }, () => ['tasks/1761000000000/settings.json', null, 'task_settings']),
      ['tasks/1761000000000/ui_messages.json', 1, 'say:task'],
      ['tasks/1761000000000/ui_messages.json', 2, 'say:api_req_started'],
      ['tasks/1761000000000/ui_messages.json', 3, 'ask:tool'],
      ['tasks/1761000000000/ui_messages.json', 4, 'say:command'],
      ['tasks/1761000000000/ui_messages.json', 5, 'ask:command_output'],
      ['tasks/1761000000000/ui_messages.json', 6, 'say:completion_result'],
      ['tasks/1761000100000/task_metadata.json', null, 'parser'],
      ['tasks/1761000100000/task_metadata.json', 1, 'environment_history'],
      ['tasks/1761000100000/ui_messages.json', null, 'parser'],
    ]);
  });

  it('reads the task rows with the history cwd and model', async () => {
    const rows = (await readFixture()).filter((r) => r.source_file === `${TASK}/ui_messages.json`);
    expect(rows.map((r) => [r.turn_type, r.tool_name, r.tool_use_id, r.text])).toEqual([
      ['user', null, null, 'add a CLI flag'],
      ['system', null, null, '<task>\nadd a CLI flag\n</task>'],
      ['tool_use', 'editedExistingFile', '1761000002000', '{"tool":"editedExistingFile","path":"cli.py","diff":"+--verbose"}'],
      ['tool_use', 'execute_command', '1761000003000', 'python cli.py --help'],
      ['tool_result', 'execute_command', '1761000003000', 'usage: cli.py [--verbose]'],
      ['assistant', null, null, 'Added --verbose.'],
    ]);
    expect(rows.every((r) => r.project_path === '/home/u/tool' && r.model === 'gpt-5' && r.provider === 'openai')).toBe(true);
    expect(rows[1]).toMatchObject({ tokens_in: 800, tokens_out: 120, cost_usd: 0.003 });
    expect(iso(rows[5])).toBe('2025-10-20T22:40:05.000Z');
  });

  it('reads the history row in full', async () => {
    const [row] = await readFixture();
    expect(row).toEqual({
      host: 'test-host',
      store: 'cline-tasks',
      home: 'home/u',
      user: 'u',
      client: 'cline',
      agent: 'cline',
      source_file: `${STORE}/state/taskHistory.json`,
      source_line: 1,
      source_seq: 0,
      source_role: 'primary',
      timestamp_utc: Date.parse('2025-10-20T22:40:05.000Z'),
      timestamp_source: 'recorded',
      session_id: '1761000000000',
      project_path: '/home/u/tool',
      git_branch: null,
      turn_type: 'system',
      kind: 'task_history',
      model: 'gpt-5',
      provider: 'openai',
      tool_name: null,
      tool_use_id: null,
      text: 'task history: add a CLI flag',
      tokens_in: 800,
      tokens_out: 120,
      cost_usd: 0.003,
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

  it('turns bad files and records into parser rows and goes on', async () => {
    const texts = (await readFixture()).filter((r) => r.kind === 'parser').map((r) => [r.session_id, r.text, r.is_error]);
    expect(texts).toEqual([
      [null, `parser: ${STORE}/state/taskHistory.json line 2: history item is not a JSON object: 17`, true],
      ['1761000000000', `parser: ${TASK}/task_metadata.json: task metadata is not a JSON object`, true],
      ['1761000100000', `parser: ${BAD}/task_metadata.json: model_usage is not an array`, true],
      ['1761000100000', `parser: ${BAD}/ui_messages.json: expected a JSON array, found '{' (0 records read)`, true],
    ]);
  });

  it('reads only the files discovery passed', async () => {
    const source = makeSource({
      store: 'cline-tasks',
      imageRoot: IMAGE,
      root: ROOT,
      files: [fixture('cline-tasks', 'img', ...`${TASK}/ui_messages.json`.split('/'))],
    });
    const rows = await collect(readLegacyTasks, source);
    expect(rows).toHaveLength(6);
    expect(rows.every((r) => r.project_path === null && r.model === null)).toBe(true);
  });
});
