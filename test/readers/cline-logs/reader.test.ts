/**
 * The `cline-logs` store (readers/cline-logs/reader.ts) on fixtures/cline-logs/ (invented lines in the shapes
 * every generation writes, see its README) and odd files written here: discovery finds the 1.x logs beside
 * `~/.cline/data` and the 2.x/3.x ones in it, the reader gives one row per record, and a load keeps the
 * planted keys out of OUT. The real CLIs' logs: cline-logs-real.test.ts.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Row } from '../../../src/core/row.js';
import { discoverImage, storeOf } from '../../../src/discover/discover.js';
import { runLoad } from '../../../src/load/run.js';
import { MAX_BINARY_LINES, MAX_RECORD_CHARS, readClineLogs } from '../../../src/readers/cline-logs/reader.js';
import { queryWarehouse } from '../../../src/warehouse/build.js';
import { FAKE } from '../../helpers/fake-secrets.js';
import { collect, fixture, listFiles, makeSource } from '../../helpers/source.js';
import { whereFound } from '../../helpers/warehouse-search.js';

const IMG = fixture('cline-logs', 'img');
const HOME = 'home/u';
const CORE = `${HOME}/.cline/logs/cline-core-2025-10-03-09-00-00-localhost-40001.log`;
const HOST = `${HOME}/.cline/logs/cline-host-2025-10-03-09-00-00-localhost-40002.log`;
const CLI2 = `${HOME}/.cline/data/logs/cline-cli.1.log`;
const CLI3 = `${HOME}/.cline/data/logs/cline.log`;
const HUB = `${HOME}/.cline/data/logs/hub-daemon.log`;
const TASK = '1759482002100';
const SESSION = '1759482600000_ab12c';
const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

const tmpDirs: string[] = [];
afterAll(() => {
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});

/** Rows of every cline-logs file of an image, as discovery gives them (both roots). */
async function rowsOfImage(img: string): Promise<Row[]> {
  const found = await discoverImage({ host: 'test-host', root: img });
  const rows: Row[] = [];
  for (const source of found.sources.filter((s) => s.store === 'cline-logs'))
    rows.push(...(await collect(readClineLogs, source)));
  return rows;
}

/** Rows of one log file holding `content`, written at test time. */
async function rowsOf(content: string | Buffer, name = 'cline.log'): Promise<Row[]> {
  const img = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-cline-logs-'));
  tmpDirs.push(img);
  const root = path.join(img, 'home/u/.cline/data');
  mkdirSync(path.join(root, 'logs'), { recursive: true });
  writeFileSync(path.join(root, 'logs', name), content);
  return collect(readClineLogs, makeSource({ store: 'cline-logs', imageRoot: img, root }));
}

describe('discovery', () => {
  it.each([
    ['logs/cline-core-2025-10-03-09-00-00-localhost-40001.log', 'cline-home', 'cline-logs'],
    ['logs/cline-host-2025-10-03-09-00-00-localhost-40002.log', 'cline-home', 'cline-logs'],
    ['logs/cline.log', 'cline-data', 'cline-logs'],
    ['logs/cline-cli.1.log', 'cline-data', 'cline-logs'],
    ['logs/hub-daemon.log', 'cline-data', 'cline-logs'],
    ['logs/hooks.jsonl', 'cline-data', 'hooks-log'],
    ['logs/other.log', 'cline-data', 'unread'],
    ['data/logs/cline.log', 'cline-home', null],
  ] as const)('%s under a %s root is %s', (rel, kind, store) => {
    expect(storeOf(rel, kind)).toBe(store);
  });

  it('finds the 1.x logs beside ~/.cline/data and the later ones in it, each file once, home the parent of .cline', async () => {
    const found = await discoverImage({ host: 'h', root: IMG });
    expect(found.problems).toEqual([]);
    const rel = (f: string) => path.relative(IMG, f);
    expect(found.sources.map((s) => [s.store, rel(s.root), s.home, s.client, s.files.map(rel)])).toEqual([
      ['cline-logs', `${HOME}/.cline/data`, HOME, 'cline', [CLI2, CLI3, HUB]],
      ['hooks-log', `${HOME}/.cline/data`, HOME, 'cline', [`${HOME}/.cline/data/logs/hooks.jsonl`]],
      ['cline-logs', `${HOME}/.cline`, HOME, 'cline', [CORE, HOST]],
    ]);
    const files = found.sources.flatMap((s) => s.files.map(rel));
    expect(new Set(files).size).toBe(files.length);
    expect(files.sort()).toEqual(
      listFiles(path.join(IMG, HOME, '.cline'))
        .map(rel)
        .sort(),
    );
  });

  it('gives a .cline folder without data/ (a project folder) no source', async () => {
    const img = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-cline-logs-'));
    tmpDirs.push(img);
    mkdirSync(path.join(img, 'home/u/proj/.cline/rules'), { recursive: true });
    writeFileSync(path.join(img, 'home/u/proj/.cline/rules/a.md'), '# rules');
    expect(await discoverImage({ host: 'h', root: img })).toEqual({ sources: [], problems: [] });
  });
});

describe('readClineLogs on fixtures/cline-logs', async () => {
  const rows = await rowsOfImage(IMG);
  const table = rows.map((r) => [r.source_file, r.source_line, r.kind, iso(r.timestamp_utc), r.session_id, r.is_error]);

  it('gives one row per record of the 1.x core log, its wall clock read as UTC', () => {
    expect(table.filter(([f]) => f === CORE)).toEqual([
      [CORE, 1, 'log:unparsed', null, null, null],
      [CORE, 2, 'log:plain', '2025-10-03T09:00:01.100Z', null, null],
      [CORE, 3, 'log:plain', '2025-10-03T09:00:01.101Z', null, null],
      [CORE, 11, 'log:plain', '2025-10-03T09:00:01.102Z', null, null],
      [CORE, 12, 'log:plain', '2025-10-03T09:00:02.000Z', null, null],
      [CORE, 13, 'log:unparsed', null, TASK, null],
      [CORE, 14, 'log:info', '2025-10-03T09:00:02.200Z', TASK, false],
      [CORE, 15, 'log:info', '2025-10-03T09:00:03.000Z', null, false],
      [CORE, 16, 'log:error', '2025-10-03T09:00:03.500Z', null, true],
      [CORE, 17, 'log:unparsed', null, TASK, null],
      [CORE, 18, 'log:unparsed', null, TASK, null],
      [CORE, 21, 'log:warn', '2025-10-03T09:00:04.000Z', null, false],
      [CORE, 22, 'log:debug', '2025-10-03T09:00:04.100Z', null, false],
      [CORE, 23, 'log:info', '2025-10-03T09:00:04.200Z', null, false],
      [CORE, 24, 'log:plain', '2025-10-03T09:00:05.000Z', null, null],
    ]);
    const text = (line: number) => rows.find((r) => r.source_file === CORE && r.source_line === line)?.text;
    expect(text(3)).toBe('Starting cline-core service...');
    expect(text(15)).toBe('Executing command in VSCode terminal: sh -c "echo check failed >&2; exit 3"');
    expect(text(18)).toBe(
      '[Task 1759482002100] Error updating api_req_started with retryStatus: Error: boom\n' +
        '    at Task.say (/opt/cline/dist/extension.js:100:20)\n    at async Task.run (/opt/cline/dist/extension.js:200:5)',
    );
    expect(text(23)).toBe('Legacy level line');
  });

  it('reads the Go host log at its wall clock, microseconds cut to milliseconds', () => {
    expect(rows.filter((r) => r.source_file === HOST).map((r) => [r.source_line, r.kind, iso(r.timestamp_utc), r.text])).toEqual([
      [1, 'log:plain', '2025-10-03T09:00:00.000Z', 'Starting Cline Host Bridge on port 40002'],
      [2, 'log:plain', '2025-10-03T09:00:02.000Z', 'GetWorkspacePaths called'],
      [3, 'log:unparsed', null, '[Cline] Would open document: /home/u/proj/notes.txt'],
      [4, 'log:plain', '2025-10-03T09:00:03.000Z', 'Exec env: GITHUB_TOKEN=__FAKE_GITHUB_TOKEN__'],
      [5, 'log:plain', '2025-10-03T09:00:05.123Z', 'Shutdown requested via RPC'],
    ]);
  });

  it("takes the 2.x record's level from Cline's Logger word and the task from its message", () => {
    expect(rows.filter((r) => r.source_file === CLI2).map((r) => [r.kind, r.session_id, r.text])).toEqual([
      ['log:info', '1759478400000', '[Task 1759478400000] Task lock acquired pid=50 hostname=box channel=Cline'],
      ['log:error', null, 'Error while asking for command output pid=50 hostname=box channel=Cline'],
      ['log:info', null, 'Cline CLI initialized. Data dir: /home/u/.cline/data pid=50 hostname=box channel=Cline'],
    ]);
  });

  it('reads 3.x pino records with their session, model, provider, tool and project, and a cut line as unparsed', () => {
    const cli = rows.filter((r) => r.source_file === CLI3);
    expect(
      cli.map((r) => [
        r.source_line,
        r.kind,
        iso(r.timestamp_utc),
        r.session_id,
        r.model,
        r.provider,
        r.tool_name,
        r.project_path,
      ]),
    ).toEqual([
      [1, 'log:info', '2025-10-03T09:10:00.000Z', null, null, null, null, '/home/u/proj'],
      [2, 'log:warn', '2025-10-03T09:10:00.300Z', null, null, null, null, null],
      [3, 'log:info', '2025-10-03T09:10:00.500Z', SESSION, 'claude-sonnet-4-5', 'anthropic', null, null],
      [4, 'log:info', '2025-10-03T09:10:02.000Z', SESSION, 'claude-sonnet-4-5', 'anthropic', 'run_commands', null],
      [5, 'log:error', '2025-10-03T09:10:03.000Z', null, null, 'anthropic', null, null],
      [6, 'log:fatal', '2025-10-03T09:11:00.000Z', null, null, null, null, null],
      [7, 'log:unparsed', null, null, null, null, null, null],
    ]);
    expect(cli[4].text).toBe(
      'Provider request failed pid=100 hostname=box name=cline.cli component=main provider=anthropic apiKey=[not kept] ' +
        'err={"type":"Error","message":"401 Unauthorized","stack":"Error: 401 Unauthorized\\n    at request (cli.js:1:1)"}',
    );
    expect(cli[6].text).toBe(
      '{"level":30,"time":"2025-10-03T09:12:00.000Z","pid":100,"hostname":"box","name":"cline.cli","msg":"CLI run sta',
    );
    expect(rows.some((r) => r.text?.includes('__FAKE_ANTHROPIC_KEY__'))).toBe(false);
  });

  it('reads the hub records behind [hub], a warning with its stack frames as one row, and a tagged text line as unparsed', () => {
    expect(
      rows
        .filter((r) => r.source_file === HUB)
        .map((r) => [r.source_line, r.kind, iso(r.timestamp_utc), r.session_id, r.is_error, r.text]),
    ).toEqual([
      [
        1,
        'log:info',
        '2025-10-03T09:10:01.000Z',
        null,
        false,
        'command.start component=hub command=session.create requestId=hubreq_1 clientId=core-1',
      ],
      [
        2,
        'log:info',
        '2025-10-03T09:10:01.100Z',
        SESSION,
        false,
        'session.create.start_session.begin component=hub command=session.create sessionId=1759482600000_ab12c provider=anthropic model=claude-sonnet-4-5 workspaceRoot=/home/u/proj',
      ],
      [
        3,
        'log:unparsed',
        null,
        null,
        null,
        'DeprecationWarning: AI SDK Warning (anthropic.messages / claude-sonnet-4-5): Deprecated option\n' +
          '      at iX (/$bunfs/root/chunk-1.js:26:46952)\n      at J0 (/$bunfs/root/chunk-1.js:26:47251)',
      ],
      [
        7,
        'log:warn',
        '2025-10-03T09:10:05.000Z',
        SESSION,
        false,
        'command.slow component=hub command=run.start sessionId=1759482600000_ab12c durationMs=30000',
      ],
      [
        8,
        'log:error',
        '2025-10-03T09:10:06.000Z',
        null,
        true,
        'session search indexing failed component=hub error=RangeError: Cannot use a closed database\n    at prepare (unknown)',
      ],
      [9, 'log:unparsed', null, null, null, '[hub-daemon] connector reconnect failed: Authorization: Bearer __FAKE_BEARER__'],
    ]);
  });

  it('gives the same rows whatever the zone of the process reading them', async () => {
    const zone = process.env.TZ;
    try {
      for (const tz of ['America/New_York', 'Asia/Kolkata']) {
        process.env.TZ = tz;
        expect(new Date(0).getTimezoneOffset(), tz).not.toBe(0);
        expect(await rowsOfImage(IMG), tz).toEqual(rows);
      }
    } finally {
      process.env.TZ = zone;
    }
  });

  it('writes the whole row of an error record, and no parser row for the fixture', () => {
    expect(rows.filter((r) => r.kind === 'parser')).toEqual([]);
    expect(rows.find((r) => r.source_file === HUB && r.source_line === 2)).toEqual<Row>({
      host: 'test-host',
      store: 'cline-logs',
      home: HOME,
      user: 'u',
      client: 'cline',
      agent: 'cline',
      source_file: HUB,
      source_line: 2,
      source_seq: 0,
      source_role: 'primary',
      timestamp_utc: Date.parse('2025-10-03T09:10:01.100Z'),
      timestamp_source: 'recorded',
      session_id: SESSION,
      project_path: '/home/u/proj',
      git_branch: null,
      turn_type: 'system',
      kind: 'log:info',
      model: 'claude-sonnet-4-5',
      provider: 'anthropic',
      tool_name: null,
      tool_use_id: null,
      text: 'session.create.start_session.begin component=hub command=session.create sessionId=1759482600000_ab12c provider=anthropic model=claude-sonnet-4-5 workspaceRoot=/home/u/proj',
      tokens_in: null,
      tokens_out: null,
      cost_usd: null,
      is_error: false,
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

describe('readClineLogs on odd files', () => {
  it('reads CRLF lines and a BOM, and times written with a zone exactly', async () => {
    const rows = await rowsOf(
      '\ufeff[2025-10-03T09:00:00.5+02:00] #x INFO a\r\n[2025-10-03 09:00:00,250Z] b\r\n2025/10/03 09:00:00 c\r\n',
    );
    expect(rows.map((r) => [r.kind, iso(r.timestamp_utc), r.text])).toEqual([
      ['log:info', '2025-10-03T07:00:00.500Z', 'a'],
      ['log:plain', '2025-10-03T09:00:00.250Z', 'b'],
      ['log:plain', '2025-10-03T09:00:00.000Z', 'c'],
    ]);
  });

  it('keeps a record of an impossible date without a time, and an indented first line as its own record', async () => {
    const rows = await rowsOf(
      '  at nowhere\n[2025-02-30T09:00:00.000] #x ERROR no such day\n2025/13/01 10:00:00 no such month\n',
    );
    expect(rows.map((r) => [r.source_line, r.kind, r.timestamp_utc, r.is_error, r.text])).toEqual([
      [1, 'log:unparsed', null, null, '  at nowhere'],
      [2, 'log:error', null, true, 'no such day'],
      [3, 'log:plain', null, null, 'no such month'],
    ]);
  });

  it('turns a file whose first line holds NUL bytes into one parser row', async () => {
    const rows = await rowsOf(Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00]), Buffer.from('\nmore\n')]));
    expect(rows.map((r) => [r.kind, r.source_line, r.text])).toEqual([
      [
        'parser',
        1,
        'parser: home/u/.cline/data/logs/cline.log line 1: NUL bytes in the first line: a binary file, not read as a log',
      ],
    ]);
  });

  it('makes a later line of NUL bytes a parser row, and stops after MAX_BINARY_LINES of them', async () => {
    const nul = '\u0000'.repeat(8);
    const rows = await rowsOf(`ok\n${nul}\nstill ok\n${`${nul}\n`.repeat(MAX_BINARY_LINES + 5)}never read\n`);
    expect(rows.slice(0, 4).map((r) => [r.source_line, r.kind, r.text?.replace(/^parser: \S+ /, '')])).toEqual([
      [1, 'log:unparsed', 'ok'],
      [2, 'parser', 'line 2: NUL bytes in a line of 8 characters: binary data, not read'],
      [3, 'log:unparsed', 'still ok'],
      [4, 'parser', 'line 4: NUL bytes in a line of 8 characters: binary data, not read'],
    ]);
    expect(rows.filter((r) => r.kind === 'parser')).toHaveLength(MAX_BINARY_LINES + 1);
    expect(rows.at(-1)?.text).toBe(
      `parser: home/u/.cline/data/logs/cline.log: ${MAX_BINARY_LINES} lines of binary data; the rest of the file not read`,
    );
    expect(rows.some((r) => r.text === 'never read')).toBe(false);
  });

  it('reads a line of invalid UTF-8 with U+FFFD and a parser row after it', async () => {
    const rows = await rowsOf(Buffer.concat([Buffer.from('2025/10/03 09:00:00 caf'), Buffer.from([0xe9]), Buffer.from('\n')]));
    expect(rows.map((r) => [r.kind, r.text])).toEqual([
      ['log:plain', 'caf\ufffd'],
      ['parser', 'parser: home/u/.cline/data/logs/cline.log line 1: invalid UTF-8 bytes, read as U+FFFD'],
    ]);
  });

  it('keeps continuation lines up to MAX_RECORD_CHARS and counts the rest', async () => {
    const frame = `    at f (${'x'.repeat(1000)})`;
    const count = Math.ceil(MAX_RECORD_CHARS / frame.length) + 10;
    const rows = await rowsOf(`Error: deep\n${`${frame}\n`.repeat(count)}next\n`);
    expect(rows.map((r) => [r.source_line, r.kind])).toEqual([
      [1, 'log:unparsed'],
      [count + 2, 'log:unparsed'],
    ]);
    const text = rows[0].text!;
    expect(text.length).toBeLessThanOrEqual(MAX_RECORD_CHARS + 100);
    const kept = text.split('\n').filter((l) => l === frame).length;
    expect(text.endsWith(`\n[${count - kept} more lines of this record not kept]`)).toBe(true);
  });

  it('gives no row for an empty file or one of blank lines', async () => {
    expect(await rowsOf('')).toEqual([]);
    expect(await rowsOf('\n  \n\r\n')).toEqual([]);
  });
});

describe('load', () => {
  /** The fixture's placeholders and the fake keys a load of a copy puts in their place. */
  const PLANTED: Array<[string, string]> = [
    ['__FAKE_OPENAI_KEY__', FAKE.openai],
    ['__FAKE_GITHUB_TOKEN__', FAKE.github],
    ['__FAKE_BEARER__', FAKE.bearer],
    ['__FAKE_ANTHROPIC_KEY__', FAKE.anthropic],
  ];

  it('writes a cline-logs partition with every record and no planted key anywhere under OUT', async () => {
    const work = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-cline-logs-load-'));
    tmpDirs.push(work);
    const img = path.join(work, 'img');
    cpSync(IMG, img, { recursive: true });
    for (const file of listFiles(img)) {
      let text = readFileSync(file, 'utf8');
      for (const [marker, key] of PLANTED) text = text.replaceAll(marker, key);
      writeFileSync(file, text);
    }
    const out = path.join(work, 'out');
    await runLoad({ hosts: [{ host: 'lnx-logs', root: img }], out, concurrency: 1 });
    const counts = await queryWarehouse(
      out,
      `select source_file, count(*)::INTEGER from events where store = 'cline-logs' group by all order by all`,
    );
    const expected = (await rowsOfImage(IMG)).reduce((m, r) => m.set(r.source_file, (m.get(r.source_file) ?? 0) + 1), new Map());
    expect(counts.rows).toEqual([...expected].sort().map(([f, n]) => [f, n]));
    expect(
      await whereFound(
        out,
        PLANTED.map(([, key]) => key),
      ),
    ).toEqual([]);
    const secrets = await queryWarehouse(out, `select count(*) from secrets where store = 'cline-logs'`);
    expect(Number(secrets.rows[0][0])).toBeGreaterThanOrEqual(3);
  });
});
