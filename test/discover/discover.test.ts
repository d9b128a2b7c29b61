/** Discovery: home and client from every layout of the VS Code family, store of each file, and a walk. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverImage, homeAndClient, storeOf } from '../../src/discover/discover.js';

const GS = 'User/globalStorage/saoudrizwan.claude-dev';

describe('homeAndClient', () => {
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
    expect(homeAndClient(rel, 'globalStorage')).toEqual({ home, client });
  });

  it('takes the parent of .cline as the home of ~/.cline/data, at any depth', () => {
    expect(homeAndClient('home/u/.cline/data', 'cline')).toEqual({ home: 'home/u', client: 'cline' });
    expect(homeAndClient('mnt/disk1/C/Users/alice/.cline/data', 'cline')).toEqual({ home: 'mnt/disk1/C/Users/alice', client: 'cline' });
    expect(homeAndClient('root/.cline/data', 'cline')).toEqual({ home: 'root', client: 'cline' });
  });
});

describe('storeOf', () => {
  it.each([
    ['tasks/1760000000000/ui_messages.json', 'globalStorage', 'vscode-tasks'],
    ['state/taskHistory.json', 'cline', 'cline-tasks'],
    ['tasks/1760000000000/context_history.json', 'globalStorage', null],
    ['sessions/s1/s1.messages.json', 'cline', 'sdk-sessions'],
    ['sessions/s1/s1.compaction.json', 'cline', null],
    ['db/sessions.db-wal', 'cline', 'sessions-db'],
    ['db/session-search.db', 'cline', 'search-index'],
    ['cache/user_input_history.jsonl', 'cline', 'input-history'],
    ['logs/hooks.jsonl', 'cline', 'hooks-log'],
    ['cache/sync-queue.json', 'globalStorage', 'sync-queue'],
    ['settings/cline_mcp_settings.json', 'globalStorage', 'settings'],
    ['cloud-pending-starts/4242-0f.json', 'cline', 'settings'],
    ['secrets.json', 'cline', 'credentials'],
  ] as const)('%s under a %s root is %s', (rel, kind, store) => {
    expect(storeOf(rel, kind)).toBe(store);
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
      ['vscode-tasks', 'deep/1/2/3/4/5/6/7/8/home/b', 'cursor-server', [`deep/1/2/3/4/5/6/7/8/home/b/.cursor-server/data/${GS}/state/taskHistory.json`]],
      ['hooks-log', 'home/a', 'cline', ['home/a/.cline/data/logs/hooks.jsonl']],
      ['vscode-tasks', 'home/a', 'vscode', [`home/a/.config/Code/${GS}/tasks/1/ui_messages.json`]],
    ]);
    expect(found.problems.map((p) => [p.store, path.relative(image, p.file), p.message.split(' (')[0]])).toEqual([
      [null, 'home/a/outside', 'symbolic link leads out of the image'],
    ]);
  });
});
