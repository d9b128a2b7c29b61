/**
 * `clinetrail query` output (issue 13.3): times print in UTC as ISO 8601 whatever TZ is, in every format;
 * JSON numbers and booleans are JSON types (integers beyond 2^53 and wide DECIMALs as strings of their
 * digits); NULL differs from an empty string in every format; table cells align by display width (CJK,
 * emoji) and are cut at grapheme boundaries, never into U+FFFD; a result larger than memory streams.
 * Loads the demo fleet with the real CLI (`dist/`, built by make test) and runs each query through the
 * CLI process, under TZ=America/New_York (UTC-5, UTC-4 in summer).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import stringWidth from 'string-width';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/source.js';
import { queryWarehouse } from '../../src/warehouse/build.js';

const CLI = path.join(REPO, 'dist', 'src', 'cli', 'main.js');

function query(sql: string, format: 'table' | 'csv' | 'json'): string {
  const r = spawnSync(process.execPath, [CLI, 'query', '--out', out, '--format', format, sql], {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, TZ: 'America/New_York' },
    timeout: 240_000,
  });
  if (r.status !== 0) throw new Error(`query failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

let tmp = '';
let out = '';

beforeAll(() => {
  if (!fs.existsSync(CLI))
    throw new Error(`${path.relative(REPO, CLI)} not found: build first (npx tsc -p tsconfig.json, or make test)`);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'clinetrail-qout-'));
  out = path.join(tmp, 'out');
  const load = spawnSync(process.execPath, [CLI, 'load', '--fleet', 'fixtures/fleet', '--out', out, '--quiet'], {
    cwd: REPO,
    encoding: 'utf8',
  });
  if (load.status !== 0) throw new Error(`load failed (${load.status}): ${load.stderr}`);
});

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** Epoch microseconds of an ISO text `YYYY-MM-DDTHH:MM:SS.ffffffZ`. */
function micros(iso: string): bigint {
  expect(iso).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  return BigInt(Date.parse(`${iso.slice(0, 23)}Z`)) * 1000n + BigInt(iso.slice(23, 26));
}

describe('times are UTC whatever TZ is', () => {
  // the instant of the issue: DuckDB prints it 04:53:20-04 in New York; an offset taken once from the
  // local zone (the node API's) gave 03:53:20-05
  const sql = `select timestamptz '2026-03-08 08:53:20+00' as t union all
    select timestamp_utc from (select timestamp_utc from events where timestamp_utc is not null order by row_id limit 5)`;

  it("json, csv and table print each instant as ISO 8601 UTC, the warehouse's own epoch", async () => {
    const expected = (await queryWarehouse(out, `select epoch_us(t)::varchar from (${sql}) q(t)`)).rows.map((r) =>
      BigInt(r[0] as string),
    );
    const json = query(sql, 'json')
      .trimEnd()
      .split('\n')
      .map((l) => (JSON.parse(l) as { t: string }).t);
    expect(json[0]).toBe('2026-03-08T08:53:20.000000Z');
    expect(json.map(micros)).toEqual(expected);
    expect(query(sql, 'csv').trimEnd().split('\n')).toEqual(['t', ...json]);
    const table = query(sql, 'table').trimEnd().split('\n');
    expect(table.slice(2, -1).map((l) => l.trim())).toEqual(json);
  });
});

describe('JSON types', () => {
  it('numbers and booleans are JSON numbers and booleans; what a double cannot hold is a string of its digits', () => {
    const [row] = query(
      `select 42::integer as i, 7::bigint as b, 9007199254740993::bigint as big, -3.25::double as d, 1.5::decimal(4, 2) as dec,
        12345678901234567.89::decimal(20, 2) as wide, true as yes, 'nan'::double as nan, [1, 2] as list,
        (select row_id from events order by row_id limit 1) as row_id, (select tokens_in from events where tokens_in is not null limit 1) as tokens`,
      'json',
    )
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(row).toMatchObject({
      i: 42,
      b: 7,
      big: '9007199254740993',
      d: -3.25,
      dec: 1.5,
      wide: '12345678901234567.89',
      yes: true,
      nan: 'NaN',
      list: [1, 2],
    });
    expect(typeof row.tokens).toBe('number');
    // row_id is a UUID: its text, which no JSON reader takes for a number
    expect(row.row_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});

describe('NULL is not an empty string', () => {
  const sql = `select null::varchar as n, '' as e, 'a"b,c' as q`;
  it('json: null and ""; csv: empty field and ""; table: ∅ and blank', () => {
    expect(JSON.parse(query(sql, 'json'))).toEqual({ n: null, e: '', q: 'a"b,c' });
    expect(query(sql, 'csv')).toBe('n,e,q\n,"","a""b,c"\n');
    const [, , row] = query(sql, 'table').split('\n');
    expect(row.split(/ {2,}/)[0]).toBe('∅');
    expect(row.startsWith('∅')).toBe(true);
    expect(row).toContain('a"b,c');
  });
});

describe('table cells by display width', () => {
  const family = '👨‍👩‍👧‍👦';
  const sql = `select * from (values ('漢字テスト', 'x', 1), ('ab', '${family}', 22), ('😀😀', repeat('界', 300), 333),
    ('e\u0301', repeat('${family}', 80), 4)) t(a, b, c) order by c`;

  it('aligns columns by display width and cuts long cells at grapheme boundaries, never into U+FFFD', () => {
    const lines = query(sql, 'table').trimEnd().split('\n');
    expect(lines.at(-1)).toBe('(4 rows)');
    const body = lines.slice(0, -1);
    // every column starts at the same display column on every line: the header's
    const starts = (line: string, cell: string, from: number) => stringWidth(line.slice(0, line.indexOf(cell, from)));
    const header = body[0];
    const bStart = stringWidth(header.slice(0, header.indexOf('b')));
    const cStart = stringWidth(header.slice(0, header.lastIndexOf('c')));
    const cells = [
      ['漢字テスト', 'x', '1'],
      ['e\u0301', family, '4'],
      ['ab', family, '22'],
      ['😀😀', '界', '333'],
    ];
    cells.forEach(([a, b, c], i) => {
      const line = body[i + 2];
      expect(line.startsWith(a)).toBe(true);
      expect(starts(line, b, a.length)).toBe(bStart);
      expect(stringWidth(line.slice(0, line.lastIndexOf(` ${c}`) + 1))).toBe(cStart);
    });
    for (const line of body) expect(line).not.toContain('\uFFFD');
    // the cut cells: at most 100 columns, whole graphemes, ending with …
    const cut = [body[3], body[5]].map((l) =>
      l
        .slice(l.indexOf(l.includes('界') ? '界' : family))
        .replace(/ +\d+$/, '')
        .trimEnd(),
    );
    for (const cell of cut) {
      expect(cell.endsWith('…')).toBe(true);
      expect(stringWidth(cell)).toBeLessThanOrEqual(100);
      expect([...new Intl.Segmenter().segment(cell.slice(0, -1))].every((g) => g.segment === '界' || g.segment === family)).toBe(
        true,
      );
    }
  });

  it('a table of a query that ends with semicolons and comments (run wrapped, to cut cells in DuckDB)', () => {
    expect(query(`select '; --' as s, repeat('x', 5000) as long; ; -- done ;`, 'table').split('\n')).toEqual([
      's     long',
      `----  ${'-'.repeat(100)}`,
      `; --  ${'x'.repeat(99)}…`,
      '(1 row)',
      '',
    ]);
  });

  it('prints control characters of evidence as visible pictures, not as terminal codes', () => {
    const [, , row] = query(`select 'a' || chr(27) || '[2Jb' || chr(10) || 'c' as t`, 'table').split('\n');
    expect(row).toBe('a␛[2Jb c');
  });
});

describe('a result larger than memory streams', () => {
  it('prints 300 MB of CSV with a bounded peak RSS (reported)', () => {
    const sql = "select i, repeat('x', 1000) as t from range(300000) r(i)";
    const timed = fs.existsSync('/usr/bin/time');
    const args = [CLI, 'query', '--out', out, '--format', 'csv', sql];
    const r = spawnSync(
      timed ? 'bash' : process.execPath,
      timed ? ['-c', `/usr/bin/time -v "$@" | wc -c`, 'run', process.execPath, ...args] : args,
      {
        cwd: REPO,
        encoding: 'utf8',
        maxBuffer: timed ? 1024 * 1024 : 400 * 1024 * 1024,
        timeout: 300_000,
      },
    );
    expect(r.status, r.stderr).toBe(0);
    if (!timed) return;
    expect(Number(r.stdout.trim())).toBe(
      4 + 300000 * (1001 + 1) + [...Array(300000).keys()].reduce((n, i) => n + String(i).length, 0),
    );
    const rss = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1]);
    console.log(`query of ${(Number(r.stdout.trim()) / 1e6).toFixed(0)} MB as CSV: peak RSS ${(rss / 1024).toFixed(0)} MB`);
    expect(rss / 1024).toBeLessThan(300); // the whole result would be ~600 MB as JS strings
  }, 300_000);
});
