/**
 * The editor state databases of fixtures/vscode-state (its README says what each holds and where each
 * value comes from): VS Code's `ItemTable`, each agent's globalState as the extension writes it, and its
 * secrets under VS Code's `secret://` keys. Built here, not by hand, so the fixture can be built again
 * the same way and the tests read the same values they plant.
 *
 * Regenerate the committed fixtures with:
 *   npx tsc -p tsconfig.json --outDir node_modules/.cache/clinetrail-fixtures && node node_modules/.cache/clinetrail-fixtures/test/helpers/vscode-state-fixtures.js
 */
import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** VS Code's state table (src/vs/base/parts/storage/node/storage.ts, SQLiteStorageDatabase). */
export const ITEM_TABLE_DDL = 'CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)';

/** VS Code's key of one extension secret (mainThreadSecretState.ts getKey, secrets.ts `secret://`). */
export function secretKey(extensionId: string, key: string): string {
  return `secret://${JSON.stringify({ extensionId, key })}`;
}

/** Writes a state database of `items` (key, value) in order, over any database there. */
export function writeStateDb(file: string, items: ReadonlyArray<readonly [string, string]>): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.rmSync(file, { force: true });
  const db = new Database(file);
  try {
    db.exec(ITEM_TABLE_DDL);
    const insert = db.prepare('INSERT INTO ItemTable (key, value) VALUES (?, ?)');
    for (const [key, value] of items) insert.run(key, value);
  } finally {
    db.close();
  }
}

/** An encrypted secret as VS Code stores it: the OS keychain's ciphertext (`v10` + bytes), never read by clinetrail. */
const CIPHERTEXT = JSON.stringify({ type: 'Buffer', data: [118, 49, 48, 1, 2, 3, 4, 5, 6, 7, 8] });

/** Cline v3.27.2 (cline/cline ce001ae): globalState before v3.28 moved it to files; a task whose folder is gone. */
export const CLINE_327_STATE = {
  taskHistory: [
    {
      id: '1755000000000',
      ulid: '01K2GZ0000CL1NE327000000AA',
      ts: 1755000000000,
      task: 'delete the audit log before the review',
      tokensIn: 3100,
      tokensOut: 210,
      cacheWrites: 0,
      cacheReads: 1800,
      totalCost: 0.0123,
      size: 4096,
      cwdOnTaskInitialization: 'c:\\Users\\alice\\ops',
      isFavorited: false,
    },
  ],
  autoApprovalSettings: {
    version: 3,
    enabled: true,
    actions: {
      readFiles: true,
      readFilesExternally: false,
      editFiles: true,
      editFilesExternally: false,
      executeSafeCommands: true,
      executeAllCommands: true,
      useBrowser: false,
      useMcp: false,
    },
    maxRequests: 20,
    enableNotifications: false,
    favorites: ['enableAutoApprove', 'readFiles', 'editFiles'],
  },
  mode: 'act',
  actModeApiProvider: 'openrouter',
  actModeOpenRouterModelId: 'anthropic/claude-sonnet-4',
};

/** Roo Code v3.52.1 (RooCodeInc/Roo-Code cb83656): globalState kept through the move of history to files. */
export const ROO_STATE = {
  taskHistory: [
    {
      id: '0199a1b2-0000-7000-8000-00000000000e',
      number: 4,
      ts: 1760800000000,
      task: 'export the customer table to /tmp/dump.csv',
      tokensIn: 1500,
      tokensOut: 90,
      totalCost: 0.004,
      workspace: '/Users/carol/shop',
      mode: 'code',
      apiConfigName: 'default',
    },
  ],
  autoApprovalEnabled: true,
  alwaysAllowExecute: true,
  allowedCommands: ['npm test', 'git log', '*'],
  deniedCommands: [],
  mode: 'orchestrator',
  // CustomModesManager.getCustomModes: a workspace's .roomodes modes (source project) first, then the settings file's
  customModes: [
    {
      slug: 'translate',
      name: '🌐 Translate',
      roleDefinition: 'You translate the localization files.',
      groups: [
        'read',
        'command',
        ['edit', { fileRegex: '(.*\\.(md|ts)$|.*\\.json$)', description: 'Source and translation files' }],
      ],
      source: 'project',
    },
    { slug: 'shipper', name: 'Shipper', roleDefinition: 'You ship releases.', groups: ['read', 'command'], source: 'global' },
  ],
  currentApiConfigName: 'default',
};

/** Kilo Code v5.8.0 (Kilo-Org/kilocode 98a4c9f): taskHistory in globalState, with its own isFavorited. */
export const KILO_STATE = {
  taskHistory: [
    {
      id: '0199b3c4-0000-7000-8000-00000000000d',
      number: 1,
      ts: 1762000000000,
      task: 'clean the build cache',
      tokensIn: 2100,
      tokensOut: 150,
      totalCost: 0.0071,
      workspace: '/home/dave/app',
      isFavorited: true,
      mode: 'code',
    },
  ],
  alwaysAllowExecute: true,
  allowedCommands: ['*'],
  mode: 'code',
};

/** The databases of fixtures/vscode-state, image-relative path → items in ItemTable order. */
export const STATE_FIXTURES: Record<string, ReadonlyArray<readonly [string, string]>> = {
  'C/Users/alice/AppData/Roaming/Code/User/globalStorage/state.vscdb': [
    ['workbench.view.extensions.state.hidden', '[]'],
    ['saoudrizwan.claude-dev', JSON.stringify(CLINE_327_STATE)],
    [secretKey('saoudrizwan.claude-dev', 'openRouterApiKey'), CIPHERTEXT],
    [secretKey('saoudrizwan.claude-dev', 'clineAccountId'), CIPHERTEXT],
    [secretKey('github.copilot-chat', 'token'), CIPHERTEXT],
  ],
  'C/Users/alice/AppData/Roaming/Code/User/workspaceStorage/5d2e8a1f9c/state.vscdb': [
    [
      'saoudrizwan.claude-dev',
      JSON.stringify({ localClineRulesToggles: { 'c:\\Users\\alice\\ops\\.clinerules\\deploy.md': true } }),
    ],
  ],
  'Users/carol/Library/Application Support/Cursor/User/globalStorage/state.vscdb': [
    ['RooVeterinaryInc.roo-cline', JSON.stringify(ROO_STATE)],
    [secretKey('RooVeterinaryInc.roo-cline', 'roo_cline_config_api_config'), CIPHERTEXT],
    [secretKey('RooVeterinaryInc.roo-cline', 'openRouterApiKey'), CIPHERTEXT],
    ['RooVeterinaryInc.roo-cline-broken', '{'],
  ],
  'home/dave/.config/VSCodium/User/globalStorage/state.vscdb': [
    ['kilocode.kilo-code', JSON.stringify(KILO_STATE)],
    [secretKey('kilocode.kilo-code', 'kilocodeToken'), CIPHERTEXT],
  ],
  'home/dave/.config/VSCodium/User/profiles/-4c1a2b/globalStorage/state.vscdb': [['kilocode.kilo-code', 'not json']],
};

/** `workspace.json` of the workspace folders, image-relative path → content. */
export const WORKSPACE_FILES: Record<string, string> = {
  'C/Users/alice/AppData/Roaming/Code/User/workspaceStorage/5d2e8a1f9c/workspace.json': JSON.stringify({
    folder: 'file:///c%3A/Users/alice/ops',
  }),
};

/** Writes fixtures/vscode-state/img under `repo`. */
export function writeStateFixtures(repo: string): void {
  const img = path.join(repo, 'fixtures', 'vscode-state', 'img');
  for (const [rel, items] of Object.entries(STATE_FIXTURES)) writeStateDb(path.join(img, ...rel.split('/')), items);
  for (const [rel, text] of Object.entries(WORKSPACE_FILES)) fs.writeFileSync(path.join(img, ...rel.split('/')), text);
}

const self = fileURLToPath(import.meta.url);
if (process.argv[1] && path.resolve(process.argv[1]) === self) {
  // Run from the compiled copy: <outDir>/test/helpers/vscode-state-fixtures.js; the repo is the cwd.
  writeStateFixtures(process.cwd());
  console.log('wrote fixtures/vscode-state');
}
