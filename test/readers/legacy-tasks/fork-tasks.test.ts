/**
 * Roo Code's and Kilo Code's task stores (roo-tasks, kilo-tasks) on fixtures built from each project's
 * source (fixtures/roo-tasks/README.md, fixtures/kilo-tasks/README.md): every row with its agent, the
 * history items of Roo Code 3.49+ (per task, and the index for a task whose folder is gone), an
 * orchestrator's subtask linked to its parent, and the fork's own fields.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Row } from '../../../src/core/row.js';
import { readLegacyTasks } from '../../../src/readers/legacy-tasks/reader.js';
import { collect, fixture, makeSource } from '../../helpers/source.js';

const ROO_STORE = 'Users/carol/Library/Application Support/Code/User/globalStorage/rooveterinaryinc.roo-cline';
const KILO_STORE = 'home/dave/.vscode-server/data/User/globalStorage/kilocode.kilo-code';
const json = (image: string, rel: string): unknown => JSON.parse(readFileSync(fixture(image, 'img', ...rel.split('/')), 'utf8'));

async function rooRows(): Promise<Row[]> {
  const imageRoot = fixture('roo-tasks', 'img');
  const source = makeSource({
    store: 'roo-tasks',
    imageRoot,
    root: fixture('roo-tasks', 'img', ...ROO_STORE.split('/')),
    home: 'Users/carol',
    client: 'vscode',
    agent: 'roo-code',
  });
  return collect(readLegacyTasks, source);
}

describe('readLegacyTasks on a Roo Code 3.52 orchestrator task with a subtask', async () => {
  const rows = await rooRows();
  const index = json('roo-tasks', `${ROO_STORE}/tasks/_index.json`) as { entries: Array<Record<string, unknown>> };
  const [parent, child, gone] = index.entries;

  it('gives every row the agent roo-code and reads no file as broken', () => {
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.agent))).toEqual(new Set(['roo-code']));
    expect(rows.filter((r) => r.kind === 'parser')).toEqual([]);
  });

  it('reads each history item once: from its task folder, and from the index only for a task whose folder is gone', () => {
    const history = rows.filter((r) => r.kind === 'task_history');
    expect(history.map((r) => [r.session_id, r.source_file.split('/').slice(-2).join('/')])).toEqual([
      [gone.id, 'tasks/_index.json'],
      [parent.id, `${parent.id}/history_item.json`],
      [child.id, `${child.id}/history_item.json`],
    ]);
    const fromIndex = history[0];
    expect(fromIndex.text).toContain(`task history: ${gone.task}`);
    expect(fromIndex).toMatchObject({
      source_line: 3,
      timestamp_utc: gone.ts,
      project_path: gone.workspace,
      permission_mode: gone.mode,
    });
  });

  it('links the subtask to the orchestrator task that started it', () => {
    const byId = new Map(rows.filter((r) => r.kind === 'task_history').map((r) => [r.session_id, r]));
    expect(byId.get(child.id as string)?.parent_session_id).toBe(parent.id);
    expect(byId.get(parent.id as string)?.parent_session_id).toBe(null);
    expect(byId.get(parent.id as string)?.permission_mode).toBe('orchestrator');
    expect(byId.get(parent.id as string)?.text).toContain(`children=1`);
    // the parent's transcript holds the newTask ask and the subtask's result
    const parentKinds = rows.filter((r) => r.session_id === parent.id).map((r) => r.kind);
    expect(parentKinds).toEqual(expect.arrayContaining(['ask:tool', 'say:subtask_result']));
  });

  it("dates a file in context by Roo Code's roo_*_date and keeps the workspace as the task's folder", () => {
    const meta = json('roo-tasks', `${ROO_STORE}/tasks/${child.id}/task_metadata.json`) as {
      files_in_context: Array<Record<string, unknown>>;
    };
    const file = rows.find((r) => r.kind === 'files_in_context');
    expect(file).toMatchObject({ session_id: child.id, timestamp_utc: meta.files_in_context[0].roo_edit_date });
    expect(rows.filter((r) => r.session_id === child.id).every((r) => r.project_path === child.workspace)).toBe(true);
    expect(rows.find((r) => r.kind === 'ask:command')).toMatchObject({ session_id: child.id, text: 'npm test' });
  });
});

describe('readLegacyTasks on a Kilo Code 5.8 task of a remote server', async () => {
  const imageRoot = fixture('kilo-tasks', 'img');
  const source = makeSource({
    store: 'kilo-tasks',
    imageRoot,
    root: fixture('kilo-tasks', 'img', ...KILO_STORE.split('/')),
    home: 'home/dave',
    client: 'vscode-server',
    agent: 'kilo-code',
  });
  const rows = await collect(readLegacyTasks, source);
  const ui = json('kilo-tasks', `${KILO_STORE}/tasks/0199b3c4-0000-7000-8000-00000000000d/ui_messages.json`) as Array<
    Record<string, unknown>
  >;

  it('reads each ui message as one row of the agent kilo-code, and its metadata', () => {
    const messages = rows.filter((r) => r.source_file.endsWith('/ui_messages.json'));
    expect(messages.map((r) => r.timestamp_utc)).toEqual(ui.map((m) => m.ts));
    expect(new Set(rows.map((r) => r.agent))).toEqual(new Set(['kilo-code']));
    expect(rows.find((r) => r.kind === 'ask:command')?.text).toBe(ui[2].text);
    expect(rows.filter((r) => r.kind === 'files_in_context')).toHaveLength(1);
  });
});
