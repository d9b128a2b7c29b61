/** readers/hooks-log/reader.ts on fixtures/hooks-log/ (invented, real line shapes of cline-formats §4.2, one cut line). */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readHooksLog } from '../../../src/readers/hooks-log/reader.js';
import type { Row } from '../../../src/core/row.js';
import { collect, fixture, makeSource } from '../../helpers/source.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const FILE = 'home/u/.cline/data/logs/hooks.jsonl';
const K3 = '1760000000000_k3x9q';

const tmpDirs: string[] = [];
afterAll(() => {
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});

function sourceFor(imageRoot: string) {
  return makeSource({ store: 'hooks-log', role: 'secondary', imageRoot, root: path.join(imageRoot, 'home/u/.cline/data') });
}

/** Rows of a hooks.jsonl written at test time from the given lines. */
async function rowsOf(lines: string[]): Promise<Row[]> {
  const img = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-hooks-log-'));
  tmpDirs.push(img);
  const dir = path.join(img, 'home/u/.cline/data/logs');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'hooks.jsonl'), `${lines.join('\n')}\n`);
  return collect(readHooksLog, sourceFor(img));
}

describe('readHooksLog on fixtures/hooks-log', async () => {
  const rows = await collect(readHooksLog, sourceFor(fixture('hooks-log', 'img')));

  it('yields one row per line, the cut line as the only parser row', () => {
    expect(rows.map((r) => [r.source_line, r.turn_type, r.kind, iso(r.timestamp_utc)])).toEqual([
      [1, 'system', 'hook:agent_start', '2026-10-03T09:00:00.100Z'],
      [2, 'user', 'hook:prompt_submit', '2026-10-03T09:00:00.200Z'],
      [3, 'tool_use', 'hook:tool_call', '2026-10-03T09:00:02.500Z'],
      [4, 'system', 'parser', null],
      [5, 'tool_result', 'hook:tool_result', '2026-10-03T09:00:03.000Z'],
      [6, 'tool_use', 'hook:tool_call', '2026-10-03T09:00:03.500Z'],
      [7, 'tool_result', 'hook:tool_result', '2026-10-03T09:00:04.000Z'],
      [8, 'assistant', 'hook:agent_end', '2026-10-03T09:00:05.000Z'],
      [9, 'system', 'hook:agent_error', '2026-10-03T09:00:06.000Z'],
      [10, 'system', 'hook:agent_abort', '2026-10-03T09:00:07.000Z'],
      [11, 'system', 'hook:session_shutdown', '2026-10-03T09:10:00.000Z'],
    ]);
    expect(rows.filter((r) => r.kind === 'parser').length).toBe(1);
    expect(rows[3].text).toBe(
      // cut back from 77 characters to the last one that cannot be part of a token (readers/parse/quote.ts)
      `parser: ${FILE} line 4: not JSON: "{"ts":"2026-10-03T09:00:02.900Z","clineVersion":"4.1.25","timestamp":"..." (161 characters)`,
    );
    expect(rows.every((r) => r.source_file === FILE && r.source_role === 'secondary')).toBe(true);
  });

  it('takes the session from rootSessionId (not the conversation taskId) and the branch from workspaceInfo', () => {
    const hooks = rows.filter((r) => r.kind !== 'parser');
    expect(hooks.every((r) => r.session_id === K3)).toBe(true);
    expect(hooks.slice(0, 9).every((r) => r.project_path === '/home/u/proj' && r.git_branch === 'main')).toBe(true);
    expect([rows[10].project_path, rows[10].git_branch]).toEqual([null, null]);
  });

  it('writes the prompt, the tool calls and results and the reply', () => {
    expect(rows.map((r) => [r.tool_name, r.tool_use_id, r.is_error, r.text]).slice(1, 8)).toEqual([
      [null, null, null, 'fix tests'],
      ['bash', 'call_1', null, 'pytest -q'],
      [null, null, true, rows[3].text],
      ['bash', 'call_1', false, '3 passed'],
      ['web_fetch', 'call_2', null, '{"url":"https://example.com/docs"}'],
      ['web_fetch', 'call_2', true, '[error] Tool "web_fetch" is disabled by policy'],
      [null, null, null, 'All 3 tests pass; web_fetch is disabled.'],
    ]);
  });

  it('writes hook audit texts with only the present pairs and never the stack', () => {
    expect(rows[0].text).toBe('hook audit: agent_start cline_version=4.1.25 user=u agent=agent_1760000000040_x8k2pq');
    expect(rows[8].text).toBe(
      'hook audit: agent_error user=u agent=agent_1760000006000_sub01 parent_agent=agent_1760000000040_x8k2pq error=ProviderError: 429 rate limited',
    );
    expect(rows[9].text).toBe(
      'hook audit: agent_abort cline_version=4.1.25 user=u agent=agent_1760000000040_x8k2pq reason=user_cancelled',
    );
    expect(rows[10].text).toBe(
      'hook audit: session_shutdown reason=failed_external_process_exit pid=4100 source=stale_session_reconciler',
    );
    expect(rows.some((r) => r.text?.includes('STACK-FRAME-SECRET'))).toBe(false);
  });

  it('writes the whole tool_call row', () => {
    expect(rows[2]).toEqual<Row>({
      host: 'test-host',
      store: 'hooks-log',
      home: 'home/u',
      user: 'u',
      client: 'cline',
      agent: 'cline',
      source_file: FILE,
      source_line: 3,
      source_seq: 0,
      source_role: 'secondary',
      timestamp_utc: Date.parse('2026-10-03T09:00:02.500Z'),
      timestamp_source: 'recorded',
      session_id: K3,
      project_path: '/home/u/proj',
      git_branch: 'main',
      turn_type: 'tool_use',
      kind: 'hook:tool_call',
      model: null,
      provider: null,
      tool_name: 'bash',
      tool_use_id: 'call_1',
      text: 'pytest -q',
      tokens_in: null,
      tokens_out: null,
      cost_usd: null,
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
});

describe('readHooksLog on odd lines', () => {
  it('turns a line without hookName or not an object into a parser row and reads on', async () => {
    const rows = await rowsOf([
      '{"ts":"2026-10-03T09:00:00.000Z","taskId":"conv_1"}',
      '[1,2]',
      '{"ts":"2026-10-03T09:00:01.000Z","hookName":"agent_start","taskId":"conv_1"}',
    ]);
    expect(rows.map((r) => r.text)).toEqual([
      `parser: ${FILE} line 1: no hookName: "{"ts":"2026-10-03T09:00:00.000Z","taskId":"conv_1"}"`,
      `parser: ${FILE} line 2: no hookName: "[1,2]"`,
      'hook audit: agent_start',
    ]);
    expect(rows[2].session_id).toBe('conv_1');
  });

  it('falls back to timestamp, taskId, workspaceInfo.rootPath, preToolUse and the output record', async () => {
    const rows = await rowsOf([
      JSON.stringify({
        timestamp: '2026-10-03T09:00:01.000Z',
        taskId: 'conv_2',
        workspaceInfo: { rootPath: '/home/u/other' },
        hookName: 'tool_call',
        preToolUse: { toolName: 'run_commands', parameters: { commands: '["ls"]' } },
      }),
      JSON.stringify({
        ts: '2026-10-03T09:00:02.000Z',
        sessionContext: { rootSessionId: 'ses_2' },
        hookName: 'tool_result',
        tool_result: { id: 'toolu_9', name: 'read_files', output: [{ type: 'text', text: 'a' }, { type: 'image' }] },
      }),
      JSON.stringify({ ts: '2026-10-03T09:00:03.000Z', hookName: 'agent_error', error: { message: 'boom', stack: 'x' } }),
    ]);
    expect(rows.map((r) => [iso(r.timestamp_utc), r.session_id, r.project_path, r.tool_name, r.tool_use_id, r.text])).toEqual([
      ['2026-10-03T09:00:01.000Z', 'conv_2', '/home/u/other', 'run_commands', null, '{"commands":"[\\"ls\\"]"}'],
      ['2026-10-03T09:00:02.000Z', 'ses_2', null, 'read_files', 'toolu_9', 'a\n[1 image(s)]'],
      ['2026-10-03T09:00:03.000Z', null, null, null, null, 'hook audit: agent_error error=boom'],
    ]);
  });

  it("reads the CLI's own run reminders, copied into the hook log as prompts, as system rows (issue 27)", async () => {
    const prompt = (text: string) =>
      JSON.stringify({
        ts: '2026-10-03T09:00:04.000Z',
        sessionContext: { rootSessionId: 'ses_3' },
        hookName: 'prompt_submit',
        userPromptSubmit: { prompt: text },
      });
    const reminder = '[SYSTEM] This run is not complete until you call submit_and_exit.';
    const rows = await rowsOf([prompt('fix the tests'), prompt(reminder)]);
    expect(rows.map((r) => [r.turn_type, r.kind, r.text])).toEqual([
      ['user', 'hook:prompt_submit', 'fix the tests'],
      ['system', 'hook:prompt_submit', reminder],
    ]);
  });
});
