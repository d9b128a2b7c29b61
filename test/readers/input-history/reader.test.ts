/** readers/input-history/reader.ts on fixtures/input-history/ (invented; Linux and Windows layouts). */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_HISTORY_LINES, readInputHistory } from '../../../src/readers/input-history/reader.js';
import type { Row } from '../../../src/core/row.js';
import { collect, fixture, makeSource } from '../../helpers/source.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const FILE = '.cline/data/cache/user_input_history.jsonl';

const tmpDirs: string[] = [];
afterAll(() => {
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});

function sourceFor(imageRoot: string, home: string) {
  return makeSource({
    store: 'input-history',
    role: 'secondary',
    imageRoot,
    home,
    root: path.join(imageRoot, home, '.cline/data'),
  });
}

describe('readInputHistory on a good file (Linux layout)', async () => {
  const rows = await collect(readInputHistory, sourceFor(fixture('input-history', 'img'), 'home/u'));

  it('yields one input_history user row per line, only the last one dated', () => {
    expect(rows.map((r) => [r.source_line, r.turn_type, r.kind, iso(r.timestamp_utc), r.text])).toEqual([
      [1, 'user', 'input_history', null, 'fix tests'],
      [2, 'user', 'input_history', null, 'add a regression test'],
      [3, 'user', 'input_history', '2025-10-09T08:53:25.000Z', 'run the linter'],
    ]);
  });

  it('writes the whole last row', () => {
    expect(rows[2]).toEqual<Row>({
      host: 'test-host',
      store: 'input-history',
      home: 'home/u',
      user: 'u',
      client: 'cline',
      agent: 'cline',
      source_file: `home/u/${FILE}`,
      source_line: 3,
      source_seq: 0,
      source_role: 'secondary',
      timestamp_utc: 1760000005000,
      timestamp_source: 'recorded',
      session_id: null,
      project_path: null,
      git_branch: null,
      turn_type: 'user',
      kind: 'input_history',
      model: null,
      provider: null,
      tool_name: null,
      tool_use_id: null,
      text: 'run the linter',
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

describe('readInputHistory on a file with bad lines (Windows layout)', async () => {
  const rows = await collect(readInputHistory, sourceFor(fixture('input-history', 'img-bad'), 'C/Users/u'));

  it('leaves every line undated and writes one parser row per bad line, in line order', () => {
    expect(rows.map((r) => [r.source_line, r.kind, iso(r.timestamp_utc)])).toEqual([
      [1, 'input_history', null],
      [2, 'parser', null],
      [3, 'parser', null],
      [4, 'input_history', null],
    ]);
    expect(rows[3].text).toBe('run the linter');
    expect(rows.every((r) => r.source_file === `C/Users/u/${FILE}`)).toBe(true);
  });

  it('names the file and line of each bad line and quotes at most its first 77 characters, ending at a token boundary', () => {
    expect(rows[1].text).toBe(
      `parser: C/Users/u/${FILE} line 2: not JSON: ` +
        '"{"prompt":"add a regression test for the parser that reads the hook audit log..." (88 characters)',
    );
    expect(rows[2].text).toBe(`parser: C/Users/u/${FILE} line 3: no prompt string: "{"ts":1760000005000}"`);
    expect(rows[1].turn_type).toBe('system');
    expect(rows[1].is_error).toBe(true);
  });
});

describe('readInputHistory on an oversized file', () => {
  it(`stops after ${MAX_HISTORY_LINES} lines with one parser row and dates nothing`, async () => {
    const img = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-input-history-'));
    tmpDirs.push(img);
    const dir = path.join(img, 'home/u/.cline/data/cache');
    mkdirSync(dir, { recursive: true });
    const lines = Array.from({ length: MAX_HISTORY_LINES + 5 }, (_, i) =>
      JSON.stringify({ prompt: `p${i + 1}`, ts: 1760000005000 }),
    );
    writeFileSync(path.join(dir, 'user_input_history.jsonl'), `${lines.join('\n')}\n`);
    const rows = await collect(readInputHistory, sourceFor(img, 'home/u'));
    expect(rows.length).toBe(MAX_HISTORY_LINES + 1);
    expect(rows.filter((r) => r.kind === 'input_history').length).toBe(MAX_HISTORY_LINES);
    expect(rows.every((r) => r.timestamp_utc === null)).toBe(true);
    expect(rows[MAX_HISTORY_LINES].text).toBe(
      `parser: home/u/${FILE} line ${MAX_HISTORY_LINES + 1}: more than ${MAX_HISTORY_LINES} lines, the rest not read`,
    );
  });
});
