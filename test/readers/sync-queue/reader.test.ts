/** readers/sync-queue/reader.ts on fixtures/sync-queue/ (invented, Linux layout) and a Windows copy built at test time. */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Row } from '../../../src/core/row.js';
import { readSyncQueue } from '../../../src/readers/sync-queue/reader.js';
import { collect, fixture, makeSource } from '../../helpers/source.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const IMG = fixture('sync-queue', 'img');
const ROOT_REL = 'home/u/.config/Code/User/globalStorage/saoudrizwan.claude-dev';
const FILE = `${ROOT_REL}/cache/sync-queue.json`;
const FROM = '(from saoudrizwan.claude-dev/cache/sync-queue.json, item timestamp)';

const tmpDirs: string[] = [];
afterAll(() => {
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});

/** A globalStorage root in a fresh image under os.tmpdir(), holding cache/sync-queue.json with `content`. */
function tmpStore(home: string, rootRel: string, content: string | null): { img: string; root: string } {
  const img = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-sync-queue-'));
  tmpDirs.push(img);
  const root = path.join(img, home, rootRel);
  mkdirSync(path.join(root, 'cache'), { recursive: true });
  const file = path.join(root, 'cache/sync-queue.json');
  if (content === null) copyFileSync(path.join(IMG, FILE), file);
  else writeFileSync(file, content);
  return { img, root };
}

describe('readSyncQueue on fixtures/sync-queue', async () => {
  const rows = await collect(
    readSyncQueue,
    makeSource({ store: 'sync-queue', client: 'vscode', imageRoot: IMG, root: path.join(IMG, ROOT_REL) }),
  );

  it('yields one sync row per item in key order, at the item timestamp', () => {
    expect(rows.map((r) => [r.source_line, r.turn_type, r.kind, iso(r.timestamp_utc), r.session_id, r.is_error])).toEqual([
      [1, 'system', 'sync', '2025-10-09T08:53:30.000Z', '1760000000000', false],
      [2, 'system', 'sync', '2025-10-09T08:53:31.000Z', '1760000000000', false],
      [3, 'system', 'sync', '2025-10-09T08:53:41.000Z', '1760000020000', true],
      [4, 'system', 'sync', '2025-10-09T08:53:51.000Z', '1760000030000', false],
    ]);
    expect(rows.every((r) => r.project_path === null && r.source_file === FILE)).toBe(true);
  });

  it('prefixes only synced items with session synced: and writes - for absent or empty values', () => {
    expect(rows.map((r) => r.text)).toEqual([
      `session synced: enterprise prompt upload synced key api_conversation_history.json retries 0 ${FROM}`,
      `enterprise prompt upload pending key ui_messages.json retries 1 ${FROM}`,
      `enterprise prompt upload failed key api_conversation_history.json retries 3 ${FROM}`,
      `enterprise prompt upload - key - retries - ${FROM}`,
    ]);
  });

  it('names the sync target of synced items only, as a column too', () => {
    expect(rows.map((r) => r.sync_target)).toEqual(['enterprise upload queue: api_conversation_history.json', null, null, null]);
  });

  it('never prints data or lastError', () => {
    const raw = readFileSync(path.join(IMG, FILE), 'utf8');
    expect(raw).toContain('SECRET-DATA');
    expect(raw).toContain('SECRET-ERROR');
    expect(rows.some((r) => /SECRET|ECONNRESET|Forbidden/.test(JSON.stringify(r)))).toBe(false);
  });

  it('writes the whole synced row', () => {
    expect(rows[0]).toEqual<Row>({
      host: 'test-host',
      store: 'sync-queue',
      home: 'home/u',
      user: 'u',
      client: 'vscode',
      agent: 'cline',
      source_file: FILE,
      source_line: 1,
      source_seq: 0,
      source_role: 'primary',
      timestamp_utc: 1760000010000,
      timestamp_source: 'recorded',
      session_id: '1760000000000',
      project_path: null,
      git_branch: null,
      turn_type: 'system',
      kind: 'sync',
      model: null,
      provider: null,
      tool_name: null,
      tool_use_id: null,
      text: `session synced: enterprise prompt upload synced key api_conversation_history.json retries 0 ${FROM}`,
      tokens_in: null,
      tokens_out: null,
      cost_usd: null,
      is_error: false,
      file_row: null,
      permission_mode: null,
      sync_target: 'enterprise upload queue: api_conversation_history.json',
      session_origin: null,
      imported_from: null,
      setting_name: null,
      setting_value: null,
      parent_session_id: null,
    });
  });
});

describe('readSyncQueue on a Windows layout', () => {
  it('reads the same items with a Windows source_file and the same texts', async () => {
    const home = 'C/Users/u';
    const rootRel = 'AppData/Roaming/Code/User/globalStorage/saoudrizwan.claude-dev';
    const { img, root } = tmpStore(home, rootRel, null);
    const rows = await collect(readSyncQueue, makeSource({ store: 'sync-queue', imageRoot: img, home, root }));
    expect(rows.length).toBe(4);
    expect(rows.every((r) => r.source_file === `${home}/${rootRel}/cache/sync-queue.json`)).toBe(true);
    expect(rows[2].text).toBe(`enterprise prompt upload failed key api_conversation_history.json retries 3 ${FROM}`);
  });
});

describe('readSyncQueue on bad files', () => {
  const bad = async (content: string): Promise<Row[]> => {
    const { img, root } = tmpStore('home/u', 'globalStorage/saoudrizwan.claude-dev', content);
    return collect(readSyncQueue, makeSource({ store: 'sync-queue', imageRoot: img, root }));
  };
  const where = 'parser: home/u/globalStorage/saoudrizwan.claude-dev/cache/sync-queue.json';

  it('writes one parser row for a file without an items object', async () => {
    for (const content of ['[]', '{"items":[]}', '{"queue":{}}']) {
      const rows = await bad(content);
      expect(rows.map((r) => [r.kind, r.source_line, r.text])).toEqual([
        ['parser', null, `${where}: not a JSON object with an items object`],
      ]);
    }
  });

  it('writes one parser row for a file that is not JSON', async () => {
    const rows = await bad('{"items": {"a/b": {"status": "synced"');
    expect(rows.length).toBe(1);
    expect(rows[0].kind).toBe('parser');
    expect(rows[0].text?.startsWith(`${where}: `)).toBe(true);
  });

  it('writes one parser row for an item that is not an object and reads the next', async () => {
    const rows = await bad(
      '{"items":{"t1/a.json":"oops","t2/b.json":{"taskId":"t2","key":"b.json","status":"synced","retryCount":0,"timestamp":1760000000000}}}',
    );
    expect(rows.map((r) => [r.kind, r.source_line, r.session_id, r.text])).toEqual([
      ['parser', 1, null, `${where}: item t1/a.json is not an object`],
      ['sync', 2, 't2', `session synced: enterprise prompt upload synced key b.json retries 0 ${FROM}`],
    ]);
  });
});
