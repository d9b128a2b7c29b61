/**
 * `tasks/<id>/settings.json`, read by the legacy task stores (readers/legacy-tasks/task-settings.ts through
 * legacy-tasks.ts): on the cline-tasks fixture's settings (a per-task provider and model, approval
 * settings, a header whose value must not show), on broken and unusual copies, and on the six files the
 * released 1.0.10 CLI wrote.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { storeOf } from '../../../src/discover/discover.js';
import { readLegacyTasks } from '../../../src/readers/legacy-tasks/reader.js';
import { taskSettings } from '../../../src/readers/legacy-tasks/task-settings.js';
import { imageWithFile, readRealHome, REAL_1X_IMAGE, removeImages } from '../../helpers/side-store-tests.js';
import { collect, fixture, makeSource } from '../../helpers/source.js';

afterEach(removeImages);

const IMAGE = fixture('cline-tasks', 'img');
const FILE = 'home/u/.cline/data/tasks/1761000000000/settings.json';

describe('discovery', () => {
  it('files tasks/<id>/settings.json with the legacy task store of either root', () => {
    expect(storeOf('tasks/1761000000000/settings.json', 'cline-data')).toBe('cline-tasks');
    expect(storeOf('tasks/1761000000000/settings.json', 'vscode-globalstorage')).toBe('vscode-tasks');
  });
});

describe('the task_settings rows', () => {
  it('give one row per setting with its name and value, the task id, its history cwd, and the provider and model of its mode; header values stay out', async () => {
    const source = makeSource({ store: 'cline-tasks', imageRoot: IMAGE, root: path.join(IMAGE, 'home/u/.cline/data') });
    const rows = (await collect(readLegacyTasks, source)).filter((r) => r.source_file === FILE);
    const mtime = Math.trunc(fs.statSync(path.join(IMAGE, FILE)).mtimeMs);
    const settings: [string, string][] = [
      ['openAiHeaders.X-Org', '<set>'],
      ['yoloModeToggled', 'true'],
      ['mode', 'act'],
      ['actModeApiProvider', 'openai'],
      ['actModeOpenAiModelId', 'gpt-5'],
      ['autoApprovalSettings.version', '2'],
      ['autoApprovalSettings.enabled', 'true'],
      ['autoApprovalSettings.actions.readFiles', 'true'],
      ['autoApprovalSettings.actions.executeAllCommands', 'true'],
      ['autoApprovalSettings.favorites', '[]'],
    ];
    expect(rows).toEqual(
      settings.map(([name, value], seq) => ({
        host: 'test-host',
        store: 'cline-tasks',
        home: 'home/u',
        user: 'u',
        client: 'cline',
        agent: 'cline',
        source_file: FILE,
        source_line: null,
        source_seq: seq,
        source_role: 'primary',
        timestamp_utc: mtime,
        timestamp_source: 'file_mtime',
        session_id: '1761000000000',
        project_path: '/home/u/tool',
        git_branch: null,
        turn_type: 'system',
        kind: 'task_settings',
        model: 'gpt-5',
        provider: 'openai',
        tool_name: null,
        tool_use_id: null,
        text: `task setting: ${name}=${value} (from .cline/data/tasks/1761000000000/settings.json, file mtime)`,
        tokens_in: null,
        tokens_out: null,
        cost_usd: null,
        is_error: null,
        file_row: null,
        permission_mode: null,
        sync_target: null,
        session_origin: null,
        imported_from: null,
        setting_name: name,
        setting_value: value,
        parent_session_id: null,
      })),
    );
    expect(JSON.stringify(rows)).not.toContain('acme-org-7');
  });

  it('takes the plan provider and model in plan mode, hides strings under credential-like keys, bounds deep values', () => {
    const deep = JSON.parse(`${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`);
    expect(
      taskSettings({
        mode: 'plan',
        planModeApiProvider: 'anthropic',
        openAiApiKey: 'sk-live-x',
        awsProfile: 'dev',
        headers: deep,
      }),
    ).toEqual({
      items: [
        { key: 'mode', value: 'plan' },
        { key: 'planModeApiProvider', value: 'anthropic' },
        { key: 'openAiApiKey', value: '<set>' },
        { key: 'awsProfile', value: 'dev' },
        { key: `headers${'.a'.repeat(31)}`, value: '<nested>' },
      ],
      more: false,
    });
  });

  it('gives a file of no setting one row, and stops a file of thousands of settings at 500 with a last row saying so', async () => {
    const empty = imageWithFile('tasks/1796144349811/settings.json', '{}');
    const none = await collect(
      readLegacyTasks,
      makeSource({ store: 'cline-tasks', imageRoot: empty.imageRoot, root: empty.dataRoot }),
    );
    expect(none.map((r) => [r.text?.replace(/ \(from .*$/, ''), r.setting_name])).toEqual([['task settings: (none)', null]]);
    const many = Object.fromEntries(Array.from({ length: 700 }, (_, i) => [`k${i}`, i]));
    const big = imageWithFile('tasks/1796144349812/settings.json', JSON.stringify(many));
    const rows = await collect(
      readLegacyTasks,
      makeSource({ store: 'cline-tasks', imageRoot: big.imageRoot, root: big.dataRoot }),
    );
    expect(rows.length).toBe(501);
    expect(rows[499].setting_name).toBe('k499');
    expect(rows[500].text?.replace(/ \(from .*$/, '')).toBe('task settings: more not printed');
  });

  it.each([
    ['{"yoloModeToggled": tru', /^parser: .*settings\.json: .*JSON/],
    ['"act"', /^parser: .*settings\.json: task settings are not a JSON object$/],
  ])('%j is one parser row with the task id', async (bytes, text) => {
    const img = imageWithFile('tasks/1796144349811/settings.json', bytes);
    const rows = await collect(
      readLegacyTasks,
      makeSource({ store: 'cline-tasks', imageRoot: img.imageRoot, root: img.dataRoot }),
    );
    expect(rows.map((r) => [r.kind, r.session_id])).toEqual([['parser', '1796144349811']]);
    expect(rows[0].text).toMatch(text);
  });
});

describe('the real 1.0.10 home', () => {
  it('gives each task its settings as rows, yoloModeToggled=true in each the driver ran with -y, without changing a byte of the home', async () => {
    const { rows } = await readRealHome('cline-tasks', REAL_1X_IMAGE);
    const settings = rows.filter((r) => r.kind === 'task_settings');
    // the tasks the CLI wrote a settings.json for (the driver's -y runs), by their folders
    const tasks = path.join(REAL_1X_IMAGE, 'home/.cline/data/tasks');
    const withSettings = fs
      .readdirSync(tasks)
      .filter((id) => fs.existsSync(path.join(tasks, id, 'settings.json')))
      .sort();
    expect(withSettings.length).toBeGreaterThan(3);
    // the denied command's task turned yolo off with its own setting (corpus/gen-go-core.ts)
    const facts = JSON.parse(fs.readFileSync(path.join(REAL_1X_IMAGE, 'facts.json'), 'utf8')) as {
      sessions: Array<{ id: string; observedSessionId: string | null }>;
    };
    const denied = facts.sessions.find((s) => s.id === 'denied')?.observedSessionId;
    expect(withSettings).toContain(denied);
    expect(settings.map((r) => [r.session_id, r.model, r.provider, r.setting_name, r.setting_value])).toEqual(
      withSettings.flatMap((id) => [
        [id, null, null, 'openAiHeaders', '{}'],
        [id, null, null, 'yoloModeToggled', id === denied ? 'false' : 'true'],
      ]),
    );
    expect(rows.filter((r) => r.kind === 'parser')).toEqual([]);
  });
});
