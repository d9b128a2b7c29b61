/**
 * The editor state databases (store vscode-state) on fixtures/vscode-state, built by
 * test/helpers/vscode-state-fixtures.ts from each agent's source at the version its README names:
 * task history rows (a task whose folder is gone still gives its prompt), setting rows, secrets by key
 * name only, the agent of each row from its key, a workspace's folder, and a value that is no JSON.
 */
import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Row } from '../../../src/core/row.js';
import { readVscodeState } from '../../../src/readers/vscode-state/reader.js';
import { agentSecret, workspaceFolder } from '../../../src/readers/vscode-state/state-keys.js';
import { collect, fixture, makeSource } from '../../helpers/source.js';
import { CLINE_327_STATE, KILO_STATE, ROO_STATE, secretKey } from '../../helpers/vscode-state-fixtures.js';

async function readUser(home: string, user: string): Promise<Row[]> {
  const imageRoot = fixture('vscode-state', 'img');
  const source = makeSource({
    store: 'vscode-state',
    imageRoot,
    root: fixture('vscode-state', 'img', ...user.split('/')),
    home,
    client: 'vscode',
    agent: null,
  });
  return collect(readVscodeState, source);
}

const ALICE = 'C/Users/alice/AppData/Roaming/Code/User';
const CAROL = 'Users/carol/Library/Application Support/Cursor/User';
const DAVE = 'home/dave/.config/VSCodium/User';
const mtime = (rel: string): number => Math.trunc(statSync(fixture('vscode-state', 'img', ...rel.split('/'))).mtimeMs);

describe('readVscodeState', () => {
  it("reads a pre-v3.28 Cline's task history, settings and secret names, and its workspace's state", async () => {
    const rows = await readUser('C/Users/alice', ALICE);
    expect(rows.every((r) => r.agent === 'cline')).toBe(true);
    const [item] = CLINE_327_STATE.taskHistory;
    // no task folder of this id exists anywhere: the history row alone keeps the prompt
    expect(rows.find((r) => r.kind === 'task_history')).toMatchObject({
      session_id: item.id,
      timestamp_utc: item.ts,
      text: `task history: ${item.task}`,
      project_path: item.cwdOnTaskInitialization,
      tokens_in: item.tokensIn,
      cost_usd: item.totalCost,
    });
    const global = `${ALICE}/globalStorage/state.vscdb`;
    const settings = rows.filter((r) => r.kind === 'state_setting' && r.source_file === global);
    // autoApprovalSettings one row per leaf, named as the settings files' rows are; every other key as it stands
    const { autoApprovalSettings: auto, taskHistory: _history, ...rest } = CLINE_327_STATE;
    const expected = [
      ...Object.entries(auto).flatMap(([k, v]) =>
        k === 'actions'
          ? Object.entries(v).map(([a, on]) => [`autoApprovalSettings.actions.${a}`, String(on)])
          : [[`autoApprovalSettings.${k}`, typeof v === 'object' ? JSON.stringify(v) : String(v)]],
      ),
      ...Object.entries(rest).map(([k, v]) => [k, String(v)]),
    ];
    expect(settings.map((r) => [r.setting_name, r.setting_value])).toEqual(expected);
    expect(settings.map((r) => r.text)).toEqual(expected.map(([k, v]) => `state setting: saoudrizwan.claude-dev ${k}=${v}`));
    expect(settings.every((r) => r.timestamp_utc === mtime(global))).toBe(true);
    // secrets by key name only; another extension's secret gives no row
    expect(rows.filter((r) => r.kind === 'secret_key').map((r) => r.text)).toEqual([
      'secret key: openRouterApiKey (value not read)',
      'secret key: clineAccountId (value not read)',
    ]);
    const workspace = rows.filter((r) => r.source_file.includes('/workspaceStorage/'));
    expect(workspace.map((r) => [r.kind, r.project_path])).toEqual([['state_setting', 'c:/Users/alice/ops']]);
  });

  it("reads Roo Code's globalState under its publisher-cased id, and no key of another extension", async () => {
    const rows = await readUser('Users/carol', CAROL);
    expect(rows.every((r) => r.agent === 'roo-code')).toBe(true);
    const [item] = ROO_STATE.taskHistory;
    expect(rows.filter((r) => r.kind === 'task_history')).toEqual([
      expect.objectContaining({ session_id: item.id, permission_mode: item.mode, project_path: item.workspace }),
    ]);
    // the command lists one row per entry (an empty one none), every other key one row
    const settings = rows.filter((r) => r.kind === 'state_setting').map((r) => [r.setting_name, r.setting_value]);
    expect(settings).toEqual([
      ['autoApprovalEnabled', 'true'],
      ['alwaysAllowExecute', 'true'],
      ...ROO_STATE.allowedCommands.map((c) => ['allowedCommands', c]),
      ['mode', ROO_STATE.mode],
      // the custom modes as the settings file's are split (shapes/custom-modes.ts): each group, then the other keys
      ['customModes.translate.name', '🌐 Translate'],
      ['customModes.translate.groups.read', '*'],
      ['customModes.translate.groups.command', '*'],
      ['customModes.translate.groups.edit', '(.*\\.(md|ts)$|.*\\.json$)'],
      ['customModes.translate.groups.edit.description', 'Source and translation files'],
      ['customModes.translate.roleDefinition', ROO_STATE.customModes[0].roleDefinition],
      ['customModes.translate.source', 'project'],
      ['customModes.shipper.name', 'Shipper'],
      ['customModes.shipper.groups.read', '*'],
      ['customModes.shipper.groups.command', '*'],
      ['customModes.shipper.roleDefinition', ROO_STATE.customModes[1].roleDefinition],
      ['customModes.shipper.source', 'global'],
      ['currentApiConfigName', ROO_STATE.currentApiConfigName],
    ]);
    expect(rows.filter((r) => r.kind === 'secret_key').map((r) => r.text)).toEqual([
      'secret key: roo_cline_config_api_config (value not read)',
      'secret key: openRouterApiKey (value not read)',
    ]);
    expect(rows.some((r) => r.text?.includes('roo-cline-broken'))).toBe(false);
  });

  it("reads Kilo Code's state, and a value that is not JSON as one parser row of its agent", async () => {
    const rows = await readUser('home/dave', DAVE);
    expect(rows.every((r) => r.agent === 'kilo-code')).toBe(true);
    expect(rows.find((r) => r.kind === 'task_history')?.session_id).toBe(KILO_STATE.taskHistory[0].id);
    const parser = rows.filter((r) => r.kind === 'parser');
    expect(parser.map((r) => [r.source_file, r.source_line])).toEqual([
      [`${DAVE}/profiles/-4c1a2b/globalStorage/state.vscdb`, 1],
    ]);
    expect(parser[0].text).toContain('kilocode.kilo-code: ');
  });

  it('never puts a secret value in a row', async () => {
    const rows = [...(await readUser('C/Users/alice', ALICE)), ...(await readUser('Users/carol', CAROL))];
    expect(rows.some((r) => r.text?.includes('"type":"Buffer"') || r.text?.includes('118,49,48'))).toBe(false);
  });

  it('tells an agent secret key and a workspace folder from what VS Code writes', () => {
    expect(agentSecret(secretKey('RooVeterinaryInc.roo-cline', 'apiKey'))).toEqual({ agent: 'roo-code', key: 'apiKey' });
    expect(agentSecret(secretKey('github.copilot-chat', 'token'))).toBe(null);
    expect(agentSecret('secret://not json')).toBe(null);
    expect(workspaceFolder({ folder: 'file:///home/u/my%20proj' })).toBe('/home/u/my proj');
    expect(workspaceFolder({ workspace: 'file:///c%3A/Users/a/x.code-workspace' })).toBe('c:/Users/a/x.code-workspace');
    expect(workspaceFolder({})).toBe(null);
  });
});
