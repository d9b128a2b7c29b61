/**
 * `tasks/<id>/settings.json`, read by the legacy task stores (readers/shapes/task-settings.ts through
 * legacy-tasks.ts): on the cline-tasks fixture's settings (a per-task provider and model, approval
 * settings, a header whose value must not show), on broken and unusual copies, and on the six files the
 * released 1.0.10 CLI wrote.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { storeOf } from '../../src/discover/discover.js';
import { readClineTasks } from '../../src/readers/cline-tasks.js';
import { taskSettingsText } from '../../src/readers/shapes/task-settings.js';
import { imageWithFile, readRealHome, REAL_1X_IMAGE, removeImages } from '../helpers/side-store-tests.js';
import { collect, fixture, makeSource } from '../helpers/source.js';

afterEach(removeImages);

const IMAGE = fixture('cline-tasks', 'img');
const FILE = 'home/u/.cline/data/tasks/1761000000000/settings.json';

describe('discovery', () => {
  it('files tasks/<id>/settings.json with the legacy task store of either root', () => {
    expect(storeOf('tasks/1761000000000/settings.json', 'cline-data')).toBe('cline-tasks');
    expect(storeOf('tasks/1761000000000/settings.json', 'vscode-globalstorage')).toBe('vscode-tasks');
  });
});

describe('the task_settings row', () => {
  it('carries the task id, its history cwd, and the provider and model of its mode; header values stay out', async () => {
    const source = makeSource({ store: 'cline-tasks', imageRoot: IMAGE, root: path.join(IMAGE, 'home/u/.cline/data') });
    const rows = (await collect(readClineTasks, source)).filter((r) => r.source_file === FILE);
    const mtime = Math.trunc(fs.statSync(path.join(IMAGE, FILE)).mtimeMs);
    expect(rows).toEqual([
      {
        host: 'test-host',
        store: 'cline-tasks',
        home: 'home/u',
        user: 'u',
        client: 'cline',
        agent: 'cline',
        source_file: FILE,
        source_line: null,
        source_seq: 0,
        source_role: 'primary',
        timestamp_utc: mtime,
        session_id: '1761000000000',
        project_path: '/home/u/tool',
        git_branch: null,
        turn_type: 'system',
        kind: 'task_settings',
        model: 'gpt-5',
        provider: 'openai',
        tool_name: null,
        tool_use_id: null,
        text:
          'task settings: openAiHeaders.X-Org=<set> yoloModeToggled=true mode=act actModeApiProvider=openai actModeOpenAiModelId=gpt-5' +
          ' autoApprovalSettings.version=2 autoApprovalSettings.enabled=true autoApprovalSettings.actions.readFiles=true' +
          ' autoApprovalSettings.actions.executeAllCommands=true autoApprovalSettings.favorites=[]' +
          ' (from .cline/data/tasks/1761000000000/settings.json, file mtime)',
        tokens_in: null,
        tokens_out: null,
        cost_usd: null,
        is_error: null,
        file_row: null,
        permission_mode: null,
        sync_target: null,
        session_origin: null,
        imported_from: null,
        parent_session_id: null,
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain('acme-org-7');
  });

  it('takes the plan provider and model in plan mode, hides strings under credential-like keys, bounds deep values', () => {
    const deep = JSON.parse(`${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`);
    expect(
      taskSettingsText(
        { mode: 'plan', planModeApiProvider: 'anthropic', openAiApiKey: 'sk-live-x', awsProfile: 'dev', headers: deep },
        'f',
      ),
    ).toBe(
      `task settings: mode=plan planModeApiProvider=anthropic openAiApiKey=<set> awsProfile=dev headers${'.a'.repeat(31)}=<nested> (from f, file mtime)`,
    );
  });

  it.each([
    ['{"yoloModeToggled": tru', /^parser: .*settings\.json: .*JSON/],
    ['"act"', /^parser: .*settings\.json: task settings are not a JSON object$/],
  ])('%j is one parser row with the task id', async (bytes, text) => {
    const img = imageWithFile('tasks/1796144349811/settings.json', bytes);
    const rows = await collect(
      readClineTasks,
      makeSource({ store: 'cline-tasks', imageRoot: img.imageRoot, root: img.dataRoot }),
    );
    expect(rows.map((r) => [r.kind, r.session_id])).toEqual([['parser', '1796144349811']]);
    expect(rows[0].text).toMatch(text);
  });
});

describe('the real 1.0.10 home', () => {
  it('gives one task_settings row per task, yoloModeToggled=true in each, without changing a byte of the home', async () => {
    const { rows } = await readRealHome('cline-tasks', REAL_1X_IMAGE);
    const settings = rows.filter((r) => r.kind === 'task_settings');
    // the tasks the CLI wrote a settings.json for (the driver's -y runs), by their folders
    const tasks = path.join(REAL_1X_IMAGE, 'home/.cline/data/tasks');
    const withSettings = fs
      .readdirSync(tasks)
      .filter((id) => fs.existsSync(path.join(tasks, id, 'settings.json')))
      .sort();
    expect(withSettings.length).toBeGreaterThan(3);
    expect(settings.map((r) => [r.session_id, r.model, r.provider, r.text?.replace(/ \(from .*$/, '')])).toEqual(
      withSettings.map((id) => [id, null, null, 'task settings: openAiHeaders={} yoloModeToggled=true']),
    );
    expect(rows.filter((r) => r.kind === 'parser')).toEqual([]);
  });
});
