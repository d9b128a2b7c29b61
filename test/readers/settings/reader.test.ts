/** readers/settings/reader.ts on fixtures/settings/ (invented; Linux ~/.cline/data and a macOS Cursor globalStorage). */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Row } from '../../../src/core/row.js';
import { readSettings } from '../../../src/readers/settings/reader.js';
import { collect, fixture, makeSource } from '../../helpers/source.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const IMG = fixture('settings', 'img');
const DATA = 'home/u/.cline/data';
const PENDING = 'cloud-pending-starts/4242-0b7c2a51-6a1e-4f36-9d1e-2c8b9f0e1a77.json';
const MAC_ROOT = 'Users/u/Library/Application Support/Cursor/User/globalStorage/saoudrizwan.claude-dev';

/** The file's mtime as the reader stamps it (fixture mtimes change on checkout). */
const mtime = (rel: string): string => new Date(Math.trunc(statSync(path.join(IMG, rel)).mtimeMs)).toISOString();
const fromFile = (rows: Row[], rel: string): Row[] => rows.filter((r) => r.source_file === rel);

const tmpDirs: string[] = [];
afterAll(() => {
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});

describe('readSettings on fixtures/settings ~/.cline/data (Linux)', async () => {
  const rows = await collect(readSettings, makeSource({ store: 'settings', imageRoot: IMG, root: path.join(IMG, DATA) }));

  it('reads the files in path order: pending start, globalState, MCP settings, global settings', () => {
    expect(rows.length).toBe(3 + 17 + 4 + 6);
    expect([...new Set(rows.map((r) => r.source_file))]).toEqual([
      `${DATA}/${PENDING}`,
      `${DATA}/globalState.json`,
      `${DATA}/settings/cline_mcp_settings.json`,
      `${DATA}/settings/global-settings.json`,
    ]);
    expect(rows.every((r) => r.turn_type === 'system')).toBe(true);
  });

  it('writes a permission row per autoApprovalSettings leaf and mode, at the file mtime', () => {
    const state = fromFile(rows, `${DATA}/globalState.json`);
    const from = '(from .cline/data/globalState.json, file mtime)';
    const permissions = state.filter((r) => r.kind === 'permission');
    expect(permissions.map((r) => r.text)).toEqual(
      [
        'autoApprovalSettings.version=1',
        'autoApprovalSettings.enabled=true',
        'autoApprovalSettings.favorites=[]',
        'autoApprovalSettings.maxRequests=20',
        'autoApprovalSettings.actions.readFiles=true',
        'autoApprovalSettings.actions.editFiles=true',
        'autoApprovalSettings.actions.executeSafeCommands=false',
        'autoApprovalSettings.actions.executeAllCommands=true',
        'autoApprovalSettings.actions.useBrowser=true',
        'autoApprovalSettings.actions.useMcp=true',
        'autoApprovalSettings.enableNotifications=false',
        'mode=act',
      ].map((pair) => `permission setting: ${pair} ${from}`),
    );
    expect(permissions.map((r) => r.source_seq)).toEqual([...Array(12).keys()]);
    for (const r of permissions) {
      expect([iso(r.timestamp_utc), r.session_id, r.project_path, r.source_line]).toEqual([
        mtime(`${DATA}/globalState.json`),
        null,
        null,
        null,
      ]);
    }
  });

  it('writes the cloud task target at the file mtime and an origin and sync row per cloud session at observedAt', () => {
    const state = fromFile(rows, `${DATA}/globalState.json`).filter((r) => r.kind !== 'permission');
    const from = '(from .cline/data/globalState.json cloudSessionStatuses, observedAt)';
    expect(state.map((r) => [r.kind, r.source_line, r.source_seq, iso(r.timestamp_utc), r.session_id, r.text])).toEqual([
      [
        'cloud_task_target',
        null,
        12,
        mtime(`${DATA}/globalState.json`),
        null,
        'cloud task target: target=cloud repository_id=812345678 branch=main (from .cline/data/globalState.json, file mtime)',
      ],
      [
        'origin',
        1,
        0,
        '2025-10-09T08:55:00.000Z',
        'ses-01JCLOUDDONE',
        `session origin: remote cline-cloud session ses-01JCLOUDDONE status completed ${from}`,
      ],
      [
        'sync',
        1,
        1,
        '2025-10-09T08:55:00.000Z',
        'ses-01JCLOUDDONE',
        `session synced: cline-cloud holds session ses-01JCLOUDDONE, no local transcript ${from}`,
      ],
      [
        'origin',
        2,
        0,
        '2025-10-09T08:56:40.000Z',
        'ses-01JCLOUDFAIL',
        `session origin: remote cline-cloud session ses-01JCLOUDFAIL status failed ${from}`,
      ],
      [
        'sync',
        2,
        1,
        '2025-10-09T08:56:40.000Z',
        'ses-01JCLOUDFAIL',
        `session synced: cline-cloud holds session ses-01JCLOUDFAIL, no local transcript ${from}`,
      ],
    ]);
    // the facts as columns too: origin rows say remote, sync rows where to
    expect(state.map((r) => [r.kind, r.session_origin, r.sync_target])).toEqual([
      ['cloud_task_target', null, null],
      ['origin', 'remote', null],
      ['sync', null, 'cline-cloud'],
      ['origin', 'remote', null],
      ['sync', null, 'cline-cloud'],
    ]);
  });

  it('writes the permission keys of global-settings.json, skipping telemetry, updates, theme and compaction', () => {
    const rel = `${DATA}/settings/global-settings.json`;
    const settings = fromFile(rows, rel);
    const from = '(from .cline/data/settings/global-settings.json, file mtime)';
    expect(settings.map((r) => r.text)).toEqual(
      [
        'planActMode=plan',
        'toolAutoApprove=false',
        'disabledTools=browser_action',
        'disabledTools=web_search',
        'tools.web_fetch.enabled=false',
        'disabledPlugins=team-tools',
      ].map((pair) => `permission setting: ${pair} ${from}`),
    );
    expect(settings.every((r) => r.kind === 'permission' && iso(r.timestamp_utc) === mtime(rel))).toBe(true);
  });

  it('writes autoApprove and disabled per MCP server and never the env, headers or oauth values', () => {
    const rel = `${DATA}/settings/cline_mcp_settings.json`;
    const mcp = fromFile(rows, rel);
    const from = '(from .cline/data/settings/cline_mcp_settings.json, file mtime)';
    expect(mcp.map((r) => r.text)).toEqual(
      [
        'mcpServers.github.autoApprove=list_issues',
        'mcpServers.github.disabled=false',
        'mcpServers.docs.autoApprove=search',
        'mcpServers.docs.autoApprove=fetch',
      ].map((pair) => `permission setting: ${pair} ${from}`),
    );
    expect(mcp.every((r) => iso(r.timestamp_utc) === mtime(rel))).toBe(true);
    const raw = readFileSync(path.join(IMG, rel), 'utf8');
    for (const secret of ['ghp_SECRETENVTOKEN', 'SECRET-HEADER', 'SECRET-OAUTH']) expect(raw).toContain(secret);
    expect(rows.some((r) => /SECRET|ghp_|mcp\.example\.com/.test(JSON.stringify(r)))).toBe(false);
  });

  it('writes an origin and sync row per pending start and one parser row for the record without a sessionId', () => {
    const rel = `${DATA}/${PENDING}`;
    const from = `(from .cline/data/${PENDING}, file mtime)`;
    expect(
      fromFile(rows, rel).map((r) => [r.kind, r.source_line, r.source_seq, iso(r.timestamp_utc), r.session_id, r.text]),
    ).toEqual([
      [
        'origin',
        1,
        0,
        mtime(rel),
        'ses-01JCLOUDWAIT',
        `session origin: remote cline-cloud session ses-01JCLOUDWAIT sandbox start pending account=user:usr_0f9e8d7c endpoint=https://api.cline.bot ${from}`,
      ],
      [
        'sync',
        1,
        1,
        mtime(rel),
        'ses-01JCLOUDWAIT',
        `session synced: cline-cloud holds session ses-01JCLOUDWAIT, no local transcript ${from}`,
      ],
      ['parser', 2, 0, null, null, `parser: ${rel}: record 2 has no sessionId`],
    ]);
  });

  it('writes the whole origin row of the pending start', () => {
    const rel = `${DATA}/${PENDING}`;
    expect(rows[0]).toEqual<Row>({
      host: 'test-host',
      store: 'settings',
      home: 'home/u',
      user: 'u',
      client: 'cline',
      agent: 'cline',
      source_file: rel,
      source_line: 1,
      source_seq: 0,
      source_role: 'primary',
      timestamp_utc: Math.trunc(statSync(path.join(IMG, rel)).mtimeMs),
      timestamp_source: 'file_mtime',
      session_id: 'ses-01JCLOUDWAIT',
      project_path: null,
      git_branch: null,
      turn_type: 'system',
      kind: 'origin',
      model: null,
      provider: null,
      tool_name: null,
      tool_use_id: null,
      text: `session origin: remote cline-cloud session ses-01JCLOUDWAIT sandbox start pending account=user:usr_0f9e8d7c endpoint=https://api.cline.bot (from .cline/data/${PENDING}, file mtime)`,
      tokens_in: null,
      tokens_out: null,
      cost_usd: null,
      is_error: null,
      file_row: null,
      permission_mode: null,
      sync_target: null,
      session_origin: 'remote',
      imported_from: null,
      setting_name: null,
      setting_value: null,
      parent_session_id: null,
    });
  });
});

describe('readSettings on a macOS Cursor globalStorage', () => {
  it('reads settings/cline_mcp_settings.json with its home-relative path', async () => {
    const rows = await collect(
      readSettings,
      makeSource({ store: 'settings', imageRoot: IMG, home: 'Users/u', client: 'cursor', root: path.join(IMG, MAC_ROOT) }),
    );
    const rel = `${MAC_ROOT}/settings/cline_mcp_settings.json`;
    const from =
      '(from Library/Application Support/Cursor/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json, file mtime)';
    expect(rows.map((r) => [r.source_file, r.kind, iso(r.timestamp_utc), r.text])).toEqual([
      [rel, 'permission', mtime(rel), `permission setting: mcpServers.filesystem.autoApprove=read_file ${from}`],
      [rel, 'permission', mtime(rel), `permission setting: mcpServers.filesystem.disabled=true ${from}`],
    ]);
    expect(rows.some((r) => r.text?.includes('SECRET-ENV-MAC'))).toBe(false);
  });
});

describe('readSettings on malformed files', () => {
  it('writes one parser row per file that is not the JSON type expected and reads the others', async () => {
    const img = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-settings-'));
    tmpDirs.push(img);
    const data = path.join(img, 'home/u/.cline/data');
    const files: Record<string, string> = {
      'globalState.json': '[1, 2]',
      'settings/global-settings.json': '{"planActMode": "act",',
      'settings/cline_mcp_settings.json': '{"servers": {}}',
      'settings/providers.json': '{}',
      'cloud-pending-starts/7-abc.json': '{"sessionId": "ses-X"}',
      'cloud-pending-starts/8-def.json': '[{"sessionId": "ses-OK"}]',
    };
    for (const [rel, content] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(data, rel)), { recursive: true });
      writeFileSync(path.join(data, rel), content);
    }
    const rows = await collect(readSettings, makeSource({ store: 'settings', imageRoot: img, root: data }));
    const where = (rel: string): string => `parser: home/u/.cline/data/${rel}`;
    expect(rows.map((r) => [r.kind, r.source_file.slice(DATA.length + 1), r.session_id])).toEqual([
      ['parser', 'cloud-pending-starts/7-abc.json', null],
      ['origin', 'cloud-pending-starts/8-def.json', 'ses-OK'],
      ['sync', 'cloud-pending-starts/8-def.json', 'ses-OK'],
      ['parser', 'globalState.json', null],
      ['parser', 'settings/cline_mcp_settings.json', null],
      ['parser', 'settings/global-settings.json', null],
      ['parser', 'settings/providers.json', null],
    ]);
    expect(rows[0].text).toBe(`${where('cloud-pending-starts/7-abc.json')}: not a JSON array`);
    expect(rows[1].text).toBe(
      'session origin: remote cline-cloud session ses-OK sandbox start pending account=- endpoint=- (from .cline/data/cloud-pending-starts/8-def.json, file mtime)',
    );
    expect(rows[3].text).toBe(`${where('globalState.json')}: not a JSON object`);
    expect(rows[4].text).toBe(`${where('settings/cline_mcp_settings.json')}: no mcpServers object`);
    expect(rows[5].text?.startsWith(`${where('settings/global-settings.json')}: `)).toBe(true);
    expect(rows[6].text).toBe(`${where('settings/providers.json')}: not a settings file this reader knows`);
    expect(rows.filter((r) => r.kind === 'parser').every((r) => r.is_error === true && r.timestamp_utc === null)).toBe(true);
  });
});

describe('readSettings on a globalState.json nested 100,000 levels deep', () => {
  it('gives one parser row for the part too deep to read and every other row of the file and the store', async () => {
    const img = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-settings-'));
    tmpDirs.push(img);
    cpSync(IMG, img, { recursive: true });
    const rel = `${DATA}/globalState.json`;
    const state = JSON.parse(readFileSync(path.join(IMG, rel), 'utf8')) as Record<string, Record<string, unknown>>;
    // readFiles becomes an object nested 100,000 levels deep: {"a":{"a":...1...}}
    state.autoApprovalSettings.actions = { ...(state.autoApprovalSettings.actions as object), readFiles: '@DEEP@' };
    const depth = 100_000;
    writeFileSync(
      path.join(img, rel),
      JSON.stringify(state).replace('"@DEEP@"', `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
    );
    const source = (root: string) => makeSource({ store: 'settings', imageRoot: root, root: path.join(root, DATA) });
    const plain = await collect(readSettings, source(IMG));
    const rows = await collect(readSettings, source(img));
    // Every other file gives exactly its rows.
    const others = (list: Row[]) => list.filter((r) => r.source_file !== rel).map((r) => ({ ...r, timestamp_utc: null }));
    expect(others(rows)).toEqual(others(plain));
    // The deep file: one parser row naming the file, where the value is and why, and all its other rows.
    const deep = fromFile(rows, rel);
    const problems = deep.filter((r) => r.kind === 'parser');
    expect(problems.map((r) => r.text)).toEqual([
      expect.stringMatching(
        /^parser: home\/u\/\.cline\/data\/globalState\.json: autoApprovalSettings\.actions\.readFiles(\.a)*(\.\.\.)? nested deeper than 1000 levels, not read$/,
      ),
    ]);
    const texts = (list: Row[]) => list.filter((r) => r.kind !== 'parser').map((r) => r.text);
    expect(texts(deep)).toEqual(
      texts(fromFile(plain, rel)).filter((t) => !t?.includes('autoApprovalSettings.actions.readFiles=')),
    );
  });
});

describe('readSettings on yolo mode and MCP alwaysAllow', () => {
  it('writes yoloModeToggled of globalState.json and each alwaysAllow tool as permission rows', async () => {
    const img = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-settings-'));
    tmpDirs.push(img);
    const data = path.join(img, DATA);
    mkdirSync(path.join(data, 'settings'), { recursive: true });
    // what the 1.x CLI leaves after `-y` (fixtures/real-producer/cline-1.0.10), and Roo Code's name for autoApprove
    writeFileSync(path.join(data, 'globalState.json'), JSON.stringify({ mode: 'act', yoloModeToggled: true }));
    writeFileSync(
      path.join(data, 'settings', 'cline_mcp_settings.json'),
      JSON.stringify({
        mcpServers: { db: { command: 'uvx', alwaysAllow: ['run_query', 'list_tables'], autoApprove: ['ping'] } },
      }),
    );
    const rows = await collect(readSettings, makeSource({ store: 'settings', imageRoot: img, root: data }));
    expect(rows.filter((r) => r.kind === 'permission').map((r) => r.text)).toEqual([
      'permission setting: mode=act (from .cline/data/globalState.json, file mtime)',
      'permission setting: yoloModeToggled=true (from .cline/data/globalState.json, file mtime)',
      'permission setting: mcpServers.db.autoApprove=ping (from .cline/data/settings/cline_mcp_settings.json, file mtime)',
      'permission setting: mcpServers.db.alwaysAllow=run_query (from .cline/data/settings/cline_mcp_settings.json, file mtime)',
      'permission setting: mcpServers.db.alwaysAllow=list_tables (from .cline/data/settings/cline_mcp_settings.json, file mtime)',
    ]);
  });
});
