/**
 * `make query Q=...` and `make export` pass the SQL to the CLI byte for byte (issue 13.3): make would
 * expand the `$` of a JSON path (`'$.a'`) and the shell would read quotes, backquotes and `$HOME`. Each
 * case runs make with a stand-in CLI that prints the arguments it got (`-o build` skips the build), and
 * one runs the real CLI to show DuckDB gets the JSON path. Skipped where make is not installed.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/source.js';

const HAS_MAKE = spawnSync('make', ['--version']).status === 0;
const CLI = path.join(REPO, 'dist', 'src', 'cli', 'main.js');
let tmp = '';
let echo = '';

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'clinetrail-make-'));
  echo = path.join(tmp, 'argv.cjs');
  fs.writeFileSync(echo, 'process.stdout.write(JSON.stringify(process.argv.slice(2)));\n');
});

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** Runs make in the repository with `vars` (NAME=value, passed as given, no shell) and no build. */
function make(target: string, vars: Record<string, string>, cli = `node ${echo}`) {
  const args = ['-s', '-o', 'build', '-o', 'install', target, `CLI=${cli}`, ...Object.entries(vars).map(([k, v]) => `${k}=${v}`)];
  return spawnSync('make', args, { cwd: REPO, encoding: 'utf8', timeout: 240_000 });
}

const TEXTS = ["select '$.a'", "select json_extract(x, ''$.a'')", `select "a", \`ls\`, $HOME, $(x), $$, \\n, 'it''s' -- $.b`];

describe.skipIf(!HAS_MAKE)('make passes the SQL unchanged (make not installed: skipped)', () => {
  for (const text of TEXTS) {
    it(`query Q=${text}`, () => {
      const r = make('query', { Q: text, OUT: '/cases/wh' });
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(['query', '--out', '/cases/wh', '--format', 'table', text]);
    });
  }

  it('export passes WHERE as --where and Q as --sql, unchanged', () => {
    const where = make('export', { FORMAT: 'csv', TO: '/x.csv', WHERE: TEXTS[2] });
    expect(JSON.parse(where.stdout)).toEqual([
      'export',
      '--out',
      'warehouse',
      '--format',
      'csv',
      '--to',
      '/x.csv',
      '--where',
      TEXTS[2],
    ]);
    const sql = make('export', { FORMAT: 'jsonl', TO: '/x.jsonl', Q: TEXTS[0], FORCE: '1' });
    expect(JSON.parse(sql.stdout)).toEqual([
      'export',
      '--out',
      'warehouse',
      '--format',
      'jsonl',
      '--to',
      '/x.jsonl',
      '--force',
      '--sql',
      TEXTS[0],
    ]);
    const all = make('export', { FORMAT: 'parquet', TO: '/x.parquet' });
    expect(JSON.parse(all.stdout)).toEqual(['export', '--out', 'warehouse', '--format', 'parquet', '--to', '/x.parquet']);
  });

  it.skipIf(!fs.existsSync(CLI))('the real CLI gets the JSON path: DuckDB answers with it (dist/ not built: skipped)', () => {
    const out = path.join(tmp, 'out');
    const load = spawnSync(process.execPath, [CLI, 'load', '--fleet', 'fixtures/fleet', '--out', out, '--quiet'], {
      cwd: REPO,
      encoding: 'utf8',
    });
    expect(load.status, load.stderr).toBe(0);
    const r = make(
      'query',
      { OUT: out, FORMAT: 'json', Q: `select '$.a' as path, json_extract_string('{"a": "$HOME"}', '$.a') as v` },
      `node ${CLI}`,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ path: '$.a', v: '$HOME' });
  });
});
