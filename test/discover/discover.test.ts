/** Discovery: home and client from every layout of the VS Code family, store of each file, and a walk. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverImage, folderStore, homeAndClient, storeOf } from '../../src/discover/discover.js';
import type { RootKindId } from '../../src/core/root-kinds.js';
import { STORES, type StoreId, type StoreSpec } from '../../src/core/stores.js';
import { folderDepth } from '../../src/discover/store-files.js';

const GS = 'User/globalStorage/saoudrizwan.claude-dev';

/** Every layout of the VS Code family's user data: the editor `User` folder, its home and its client. */
const EDITOR_LAYOUTS = [
  ['C/Users/alice/AppData/Roaming/Code/User', 'C/Users/alice', 'vscode'],
  ['C/Users/alice/AppData/Roaming/Code - Insiders/User', 'C/Users/alice', 'vscode-insiders'],
  ['C/Users/alice/AppData/Roaming/Windsurf/User', 'C/Users/alice', 'windsurf'],
  ['Users/bob/Library/Application Support/Cursor/User', 'Users/bob', 'cursor'],
  ['Users/bob/Library/Application Support/Code/User', 'Users/bob', 'vscode'],
  ['home/dev/.config/VSCodium/User', 'home/dev', 'vscodium'],
  ['home/dev/.config/Windsurf/User', 'home/dev', 'windsurf'],
  ['home/dev/.config/Trae/User', 'home/dev', 'trae'],
  ['home/dev/.config/Kiro/User', 'home/dev', 'kiro'],
  ['home/dev/.config/Positron/User', 'home/dev', 'positron'],
  ['home/dev/.vscode-server/data/User', 'home/dev', 'vscode-server'],
  ['home/dev/.cursor-server/data/User', 'home/dev', 'cursor-server'],
  ['home/dev/.vscode-server-insiders/data/User', 'home/dev', 'vscode-server-insiders'],
  ['home/dev/.windsurf-server/data/User', 'home/dev', 'windsurf-server'],
  ['home/dev/.var/app/com.visualstudio.code/config/Code/User', 'home/dev', 'vscode'],
  ['home/dev/.local/share/code-server/User', 'home/dev', 'code-server'],
  ['root/.config/Code/User', 'root', 'vscode'],
] as const;

/** Each agent's extension folder under globalStorage, with its root kind and task store. */
const AGENT_FOLDERS = [
  ['saoudrizwan.claude-dev', 'vscode-globalstorage', 'vscode-tasks', 'cline'],
  ['rooveterinaryinc.roo-cline', 'roo-globalstorage', 'roo-tasks', 'roo-code'],
  ['kilocode.kilo-code', 'kilo-globalstorage', 'kilo-tasks', 'kilo-code'],
] as const;

describe('every editor of the VS Code family, for every agent', () => {
  const image = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-editors-'));
  afterAll(() => rmSync(image, { recursive: true, force: true }));
  for (const [user] of EDITOR_LAYOUTS) {
    for (const [folder] of AGENT_FOLDERS) {
      const task = path.join(image, user, 'globalStorage', folder, 'tasks', '1760000000000');
      mkdirSync(task, { recursive: true });
      writeFileSync(path.join(task, 'ui_messages.json'), '[]');
    }
    writeFileSync(path.join(image, user, 'globalStorage', 'state.vscdb'), '');
  }

  it("finds each agent's tasks and each editor's state database, with the editor's home and client", async () => {
    const found = await discoverImage({ host: 'h', root: image });
    expect(found.problems).toEqual([]);
    const seen = found.sources
      .map((s) => [path.relative(image, s.root), s.store, s.agent, s.homeFolder, s.client].join(' | '))
      .sort();
    const expected = EDITOR_LAYOUTS.flatMap(([user, home, client]) => [
      ...AGENT_FOLDERS.map(([folder, , store, agent]) =>
        [`${user}/globalStorage/${folder}`, store, agent, home, client].join(' | '),
      ),
      [user, 'vscode-state', null, home, client].join(' | '),
    ]).sort();
    expect(seen).toEqual(expected);
  });
});

describe('homeAndClient', () => {
  it.each(
    EDITOR_LAYOUTS.flatMap(([user, home, client]) =>
      AGENT_FOLDERS.map(([folder, kind]) => [`${user}/globalStorage/${folder}`, kind, home, client] as const),
    ),
  )('%s (%s) is home %s, client %s', (rel, kind, home, client) => {
    expect(homeAndClient(rel, kind)).toEqual({ home, client });
  });

  it.each([
    [`C/Users/alice/AppData/Roaming/Code/${GS}`, 'C/Users/alice', 'vscode'],
    [`C/Users/alice/AppData/Roaming/Code - Insiders/${GS}`, 'C/Users/alice', 'vscode-insiders'],
    [`Users/bob/Library/Application Support/Cursor/${GS}`, 'Users/bob', 'cursor'],
    [`home/dev/.config/VSCodium/${GS}`, 'home/dev', 'vscodium'],
    [`home/dev/.config/Windsurf/${GS}`, 'home/dev', 'windsurf'],
    [`home/dev/.config/Trae/${GS}`, 'home/dev', 'trae'],
    [`home/dev/.config/Kiro/${GS}`, 'home/dev', 'kiro'],
    [`home/dev/.config/Positron/${GS}`, 'home/dev', 'positron'],
    [`home/dev/.vscode-server/data/${GS}`, 'home/dev', 'vscode-server'],
    [`home/dev/.cursor-server/data/${GS}`, 'home/dev', 'cursor-server'],
    [`home/dev/.vscode-server-insiders/data/${GS}`, 'home/dev', 'vscode-server-insiders'],
    [`home/dev/.var/app/com.visualstudio.code/config/Code/${GS}`, 'home/dev', 'vscode'],
    [`home/dev/.local/share/code-server/${GS}`, 'home/dev', 'code-server'],
    [`root/.config/Code/${GS}`, 'root', 'vscode'],
  ])('%s is home %s, client %s', (rel, home, client) => {
    expect(homeAndClient(rel, 'vscode-globalstorage')).toEqual({ home, client });
  });

  it('takes the parent of .cline as the home of ~/.cline/data, at any depth', () => {
    expect(homeAndClient('home/u/.cline/data', 'cline-data')).toEqual({ home: 'home/u', client: 'cline' });
    expect(homeAndClient('mnt/disk1/C/Users/alice/.cline/data', 'cline-data')).toEqual({
      home: 'mnt/disk1/C/Users/alice',
      client: 'cline',
    });
    expect(homeAndClient('root/.cline/data', 'cline-data')).toEqual({ home: 'root', client: 'cline' });
  });

  it('takes the parent of .cline as the home of ~/.cline itself (cline-home)', () => {
    expect(homeAndClient('home/u/.cline', 'cline-home')).toEqual({ home: 'home/u', client: 'cline' });
    expect(homeAndClient('C/Users/alice/.cline', 'cline-home')).toEqual({ home: 'C/Users/alice', client: 'cline' });
    expect(homeAndClient('.cline', 'cline-home')).toEqual({ home: '', client: 'cline' });
  });
});

describe('storeOf', () => {
  it.each([
    ['tasks/1760000000000/ui_messages.json', 'vscode-globalstorage', 'vscode-tasks'],
    ['state/taskHistory.json', 'cline-data', 'cline-tasks'],
    ['tasks/1760000000000/context_history.json', 'vscode-globalstorage', null],
    ['sessions/s1/s1.messages.json', 'cline-data', 'sdk-sessions'],
    ['sessions/s1/s1.compaction.json', 'cline-data', 'unread'],
    ['db/sessions.db-wal', 'cline-data', 'sessions-db'],
    ['db/session-search.db', 'cline-data', 'search-index'],
    ['cache/user_input_history.jsonl', 'cline-data', 'input-history'],
    ['logs/hooks.jsonl', 'cline-data', 'hooks-log'],
    ['logs/cline.log', 'cline-data', 'cline-logs'],
    ['logs/cline-core-2025-10-03-09-00-00-localhost-40001.log', 'cline-home', 'cline-logs'],
    ['cache/sync-queue.json', 'vscode-globalstorage', 'sync-queue'],
    ['settings/cline_mcp_settings.json', 'vscode-globalstorage', 'settings'],
    ['cloud-pending-starts/4242-0f.json', 'cline-data', 'settings'],
    ['secrets.json', 'cline-data', 'credentials'],
  ] as const)('%s under a %s root is %s', (rel, kind, store) => {
    expect(storeOf(rel, kind)).toBe(store);
  });

  /** A path a glob matches: `*` is `x1`, `{a,b}` each alternative. */
  const examples = (glob: string): string[] => {
    const brace = /\{([^}]*)\}/.exec(glob);
    if (!brace) return [glob.replace(/\*/g, 'x1')];
    return brace[1]
      .split(',')
      .flatMap((alt) => examples(glob.slice(0, brace.index) + alt + glob.slice(brace.index + brace[0].length)));
  };
  const globs = (STORES as readonly StoreSpec[]).flatMap((spec) =>
    Object.entries(spec.files).flatMap(([kind, list]) =>
      (list ?? []).flatMap((glob) => examples(glob).map((rel) => [rel, kind as RootKindId, spec.id as StoreId] as const)),
    ),
  );

  it.each(globs)('the specification files %s under a %s root as %s (no other store shadows it)', (rel, kind, store) => {
    expect(storeOf(rel, kind)).toBe(store);
  });

  it("files a store's excepted files and files of no glob nowhere", () => {
    // under ~/.cline, a file no reader parses is the `unread` store's: listed, never read
    expect(storeOf('sessions/x1/x1.compaction.json', 'cline-data')).toBe('unread');
    expect(storeOf('tasks/x1/sub/ui_messages.json', 'vscode-globalstorage')).toBe(null);
    expect(storeOf('ui_messages.json', 'vscode-globalstorage')).toBe(null);
    expect(storeOf('Rules/webhook_config.json', 'documents-cline')).toBe(null);
  });
});

describe('folderStore', () => {
  it.each([
    ['tasks/1760000000000', 'vscode-globalstorage', 'vscode-tasks'],
    ['state', 'cline-data', 'cline-tasks'],
    ['sessions/s1', 'cline-data', 'sdk-sessions'],
    ['logs', 'cline-home', 'cline-logs'],
    ['connectors', 'cline-data', 'credentials'],
    ['cloud-pending-starts', 'cline-data', 'settings'],
    ['settings', 'vscode-globalstorage', 'settings'],
    ['cache', 'cline-data', 'input-history'],
    ['workspaces', 'cline-data', 'workspace-state'],
    ['locks/hub', 'cline-data', 'locks'],
    // shared by several stores: a problem there goes to the host's discovery partition
    ['settings', 'cline-data', null],
    ['db', 'cline-data', null],
    // hooks.jsonl (hooks-log) beside cline.log and hub-daemon.log (cline-logs)
    ['logs', 'cline-data', null],
    ['cache', 'vscode-globalstorage', null],
    ['checkpoint-scratch', 'cline-data', null],
  ] as const)("a problem in %s under a %s root is the %s store's", (rel, kind, store) => {
    expect(folderStore(rel, kind)).toBe(store);
  });
});

describe('folderDepth', () => {
  it.each([
    ['tasks', 'vscode-globalstorage', 2],
    ['settings', 'vscode-globalstorage', 1],
    ['checkpoints', 'vscode-globalstorage', 10],
    // every folder of ~/.cline/data is listed 16 segments deep: the `unread` store's `**`
    ['tasks', 'cline-data', 15],
    ['workspaces', 'cline-data', 15],
  ] as const)('lists %s under a %s root %i folder levels deep, as deep as its own deepest glob', (first, kind, depth) => {
    expect(folderDepth(kind, first)).toBe(depth);
  });
});

describe('discoverImage', () => {
  const image = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-discover-'));
  afterAll(() => rmSync(image, { recursive: true, force: true }));
  const put = (rel: string) => {
    mkdirSync(path.dirname(path.join(image, rel)), { recursive: true });
    writeFileSync(path.join(image, rel), '[]');
  };

  it('finds every store root of an image, skips node_modules, and does not follow a link out of it', async () => {
    put(`home/a/.config/Code/${GS}/tasks/1/ui_messages.json`);
    put('home/a/.cline/data/logs/hooks.jsonl');
    put(`home/a/proj/node_modules/x/.config/Code/${GS}/tasks/2/ui_messages.json`);
    put(`deep/1/2/3/4/5/6/7/8/home/b/.cursor-server/data/${GS}/state/taskHistory.json`);
    symlinkSync(os.tmpdir(), path.join(image, 'home', 'a', 'outside'));
    const found = await discoverImage({ host: 'h', root: image });
    expect(found.sources.map((s) => [s.store, s.home, s.client, s.files.map((f) => path.relative(image, f))])).toEqual([
      [
        'vscode-tasks',
        'deep/1/2/3/4/5/6/7/8/home/b',
        'cursor-server',
        [`deep/1/2/3/4/5/6/7/8/home/b/.cursor-server/data/${GS}/state/taskHistory.json`],
      ],
      ['hooks-log', 'home/a', 'cline', ['home/a/.cline/data/logs/hooks.jsonl']],
      ['vscode-tasks', 'home/a', 'vscode', [`home/a/.config/Code/${GS}/tasks/1/ui_messages.json`]],
    ]);
    expect(found.problems.map((p) => [p.store, path.relative(image, p.file), p.message.split(' (')[0]])).toEqual([
      [null, 'home/a/outside', 'symbolic link leads out of the image'],
    ]);
  });

  it('finds the Roo Code and Kilo Code folders as roots of their own, each with its agent, and the editor state databases', async () => {
    const other = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-discover-'));
    try {
      const user = 'home/r/.config/Code/User';
      const gs = `${user}/globalStorage`;
      const plant = (rel: string) => {
        mkdirSync(path.dirname(path.join(other, rel)), { recursive: true });
        writeFileSync(path.join(other, rel), '[]');
      };
      for (const ext of ['rooveterinaryinc.roo-cline', 'kilocode.kilo-code']) {
        for (const rel of [
          'tasks/1760000000000/ui_messages.json',
          'tasks/1760000000000/history_item.json',
          'tasks/_index.json',
          'settings/mcp_settings.json',
          'settings/custom_modes.yaml',
        ])
          plant(`${gs}/${ext}/${rel}`);
      }
      plant(`${gs}/saoudrizwan.claude-dev/tasks/1/ui_messages.json`);
      plant(`${gs}/state.vscdb`);
      plant(`${user}/workspaceStorage/0a1b/state.vscdb`);
      plant(`${user}/workspaceStorage/0a1b/workspace.json`);
      const found = await discoverImage({ host: 'h', root: other });
      expect(found.problems).toEqual([]);
      const rel = (f: string) => path.relative(other, f);
      expect(found.sources.map((s) => [s.store, s.agent, s.client, rel(s.root), s.files.map(rel)])).toEqual([
        [
          'kilo-tasks',
          'kilo-code',
          'vscode',
          `${gs}/kilocode.kilo-code`,
          [
            `${gs}/kilocode.kilo-code/tasks/1760000000000/history_item.json`,
            `${gs}/kilocode.kilo-code/tasks/1760000000000/ui_messages.json`,
            `${gs}/kilocode.kilo-code/tasks/_index.json`,
          ],
        ],
        [
          'settings',
          'kilo-code',
          'vscode',
          `${gs}/kilocode.kilo-code`,
          [`${gs}/kilocode.kilo-code/settings/custom_modes.yaml`, `${gs}/kilocode.kilo-code/settings/mcp_settings.json`],
        ],
        [
          'roo-tasks',
          'roo-code',
          'vscode',
          `${gs}/rooveterinaryinc.roo-cline`,
          [
            `${gs}/rooveterinaryinc.roo-cline/tasks/1760000000000/history_item.json`,
            `${gs}/rooveterinaryinc.roo-cline/tasks/1760000000000/ui_messages.json`,
            `${gs}/rooveterinaryinc.roo-cline/tasks/_index.json`,
          ],
        ],
        [
          'settings',
          'roo-code',
          'vscode',
          `${gs}/rooveterinaryinc.roo-cline`,
          [
            `${gs}/rooveterinaryinc.roo-cline/settings/custom_modes.yaml`,
            `${gs}/rooveterinaryinc.roo-cline/settings/mcp_settings.json`,
          ],
        ],
        [
          'vscode-tasks',
          'cline',
          'vscode',
          `${gs}/saoudrizwan.claude-dev`,
          [`${gs}/saoudrizwan.claude-dev/tasks/1/ui_messages.json`],
        ],
        [
          'vscode-state',
          null,
          'vscode',
          user,
          [`${gs}/state.vscdb`, `${user}/workspaceStorage/0a1b/state.vscdb`, `${user}/workspaceStorage/0a1b/workspace.json`],
        ],
      ]);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('finds Documents/Cline, also under OneDrive, with client -', async () => {
    const docs = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-discover-'));
    try {
      for (const rel of [
        'C/Users/bob/OneDrive - Acme/Documents/Cline/webhook_config.json',
        'home/u/Documents/Cline/webhook_config.json',
        'home/u/Documents/Cline/Rules/rules.md',
      ]) {
        mkdirSync(path.dirname(path.join(docs, rel)), { recursive: true });
        writeFileSync(path.join(docs, rel), '{}');
      }
      const found = await discoverImage({ host: 'h', root: docs });
      const seen = found.sources.map((s) => [
        s.store,
        s.home,
        s.homeFolder,
        s.user,
        s.client,
        s.files.map((f) => path.relative(docs, f)),
      ]);
      expect(seen).toEqual([
        [
          'credentials',
          'C:/Users/bob',
          'C/Users/bob',
          'bob',
          '-',
          ['C/Users/bob/OneDrive - Acme/Documents/Cline/webhook_config.json'],
        ],
        ['credentials', 'home/u', 'home/u', 'u', '-', ['home/u/Documents/Cline/webhook_config.json']],
      ]);
    } finally {
      rmSync(docs, { recursive: true, force: true });
    }
  });
});
