/**
 * End to end: the real CLI (`node dist/src/cli/main.js`) loads the demo fleet `fixtures/fleet` into a temporary
 * OUT, and the warehouse it builds is queried read-only with @duckdb/node-api. What each host holds and why
 * each outcome is expected: fixtures/fleet/README.md. Needs `dist/` (make test builds it first).
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setFleetVariables } from '../../src/warehouse/build.js';
import { REPO } from '../helpers/source.js';

const CLI = path.join(REPO, 'dist', 'src', 'cli', 'main.js');
const FLEET = path.join(REPO, 'fixtures', 'fleet');

const WIN = 'C/Users/alice/AppData/Roaming/Code/User/globalStorage/saoudrizwan.claude-dev';
const MAC = 'Users/bob/Library/Application Support/Cursor/User/globalStorage/saoudrizwan.claude-dev';
const U = 'home/u/.cline/data';
const K3X9Q = '1760000000000_k3x9q';
const GONE = '1760000500000_gone3';
const IMPORTED = '1760000800000_imp4d';
const ENTERPRISE = '1760001000000_ent6b';
const PENDING = 'cloud-pending-starts/4242-7d3e9a10-2b4c-4f8e-9a61-0c5d2e8f4b13.json';
/** Values the evidence holds that must never reach the warehouse. */
const NEVER_LOADED = ['SYNCQ-DATA-MARKER', 'SYNCQ-LASTERROR-MARKER', 'BOB-MCP-ENV-SECRET', 'iVBORw0KGgoAAAANSUhEUgDEMO'];

// ------------------------------------------------------------------------------------------------ helpers

interface Entry {
  type: 'dir' | 'file' | 'link' | 'other';
  size: number;
  mode: number;
  mtimeMs: number;
  sha256: string | null;
}

/** Every path under `root` (folders too) with its type, size, mode, mtime and SHA-256. */
function snapshot(root: string): Map<string, Entry> {
  const out = new Map<string, Entry>();
  const walk = (dir: string): void => {
    for (const name of fs.readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const st = fs.lstatSync(full);
      const type = st.isDirectory() ? 'dir' : st.isFile() ? 'file' : st.isSymbolicLink() ? 'link' : 'other';
      const sha256 = type === 'file' ? createHash('sha256').update(fs.readFileSync(full)).digest('hex') : null;
      out.set(path.relative(root, full).split(path.sep).join('/'), {
        type,
        size: st.size,
        mode: st.mode,
        mtimeMs: st.mtimeMs,
        sha256,
      });
      if (type === 'dir') walk(full);
    }
  };
  walk(root);
  return out;
}

function runCli(args: string[]): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [CLI, ...args], {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, TZ: 'UTC' },
    timeout: 240_000,
  });
}

/** A JS value of a query result made comparable: bigint as number, a time as its ISO string. */
function plain(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

class Warehouse {
  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly conn: Awaited<ReturnType<DuckDBInstance['connect']>>,
  ) {}

  static async open(out: string): Promise<Warehouse> {
    const instance = await DuckDBInstance.create(path.join(out, 'fleet.duckdb'), {
      access_mode: 'READ_ONLY',
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
    });
    const conn = await instance.connect();
    await setFleetVariables(conn, out);
    return new Warehouse(instance, conn);
  }

  /** Rows as objects, values made plain. */
  async rows(sql: string): Promise<Record<string, unknown>[]> {
    const reader = await this.conn.runAndReadAll(sql);
    return reader.getRowObjectsJS().map((r) => plain(r) as Record<string, unknown>);
  }

  /** Rows as arrays of plain values. */
  async tuples(sql: string): Promise<unknown[][]> {
    const reader = await this.conn.runAndReadAll(sql);
    return reader.getRowsJS().map((r) => r.map(plain));
  }

  private closed = false;

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.conn.closeSync();
    this.instance.closeSync();
  }
}

/** Time of a settings row: the mtime of the evidence file (changes on checkout). */
const mtimeIso = (host: string, rel: string): string =>
  new Date(Math.trunc(fs.statSync(path.join(FLEET, host, rel)).mtimeMs)).toISOString();
const iso = (ms: number): string => new Date(ms).toISOString();

// ------------------------------------------------------------------------------------------------ state

let out = '';
let before: Map<string, Entry>;
let load1: SpawnSyncReturns<string>;
let after1: Map<string, Entry>;
let wh: Warehouse;
/** `events` and `duplicates` of the first load, in a total order, for the second-load comparison. */
let events1: unknown[][];
let duplicates1: unknown[][];

const EVENTS_IN_TOTAL_ORDER = 'select * from events order by all';
const DUPLICATES_IN_TOTAL_ORDER = 'select * from duplicates order by all';

beforeAll(async () => {
  if (!fs.existsSync(CLI)) {
    throw new Error(`${path.relative(REPO, CLI)} not found: build first (npx tsc -p tsconfig.json, or make test)`);
  }
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'clinetrail-e2e-'));
  before = snapshot(FLEET);
  load1 = runCli(['load', '--fleet', 'fixtures/fleet', '--out', out]);
  after1 = snapshot(FLEET);
  if (load1.status !== 0) throw new Error(`load failed (${load1.status}): ${load1.stderr}`);
  wh = await Warehouse.open(out);
  events1 = await wh.tuples(EVENTS_IN_TOTAL_ORDER);
  duplicates1 = await wh.tuples(DUPLICATES_IN_TOTAL_ORDER);
});

afterAll(() => {
  wh?.close();
  if (out) fs.rmSync(out, { recursive: true, force: true });
});

// ------------------------------------------------------------------------------------------------ first load

describe('demo fleet: first load', () => {
  it('exits 0 and reports 4 hosts, 13 partitions, 32 files, 132 rows, 1 parser error', () => {
    expect(load1.status).toBe(0);
    expect(load1.stdout).toMatch(/^loaded 4 host\(s\): 13 partition\(s\) written\b/);
    expect(load1.stdout).toMatch(
      /\b32 file\(s\) read, 0 unchanged; 132 row\(s\), 1 parser error\(s\), 8 duplicate\(s\) dropped, 0 secret\(s\) redacted in /,
    );
    expect(fs.existsSync(path.join(out, 'fleet.duckdb'))).toBe(true);
  });

  it('leaves the evidence untouched: same paths, sizes, modes, mtimes and hashes, no new file', () => {
    expect(before.size).toBeGreaterThan(40);
    expect([...after1.keys()]).toEqual([...before.keys()]);
    expect(Object.fromEntries(after1)).toEqual(Object.fromEntries(before));
    expect([...before.keys()].filter((p) => /-(wal|shm|journal)$/.test(p))).toEqual([]);
  });

  it('counts rows per host and store in raw_events', async () => {
    expect(await wh.tuples('select host, store, count(*) from raw_events group by all order by all')).toEqual([
      ['0042', 'cline-tasks', 5],
      ['0042', 'sdk-sessions', 15],
      ['0042', 'vscode-tasks', 6],
      ['WIN-ALICE01', 'sync-queue', 1],
      ['WIN-ALICE01', 'vscode-tasks', 24],
      ['lnx-u01', 'hooks-log', 5],
      ['lnx-u01', 'input-history', 2],
      ['lnx-u01', 'sdk-sessions', 22],
      ['lnx-u01', 'search-index', 10],
      ['lnx-u01', 'sessions-db', 6],
      ['lnx-u01', 'settings', 23],
      ['mac-bob', 'settings', 3],
      ['mac-bob', 'vscode-tasks', 10],
    ]);
    expect(await wh.tuples('select count(*) from events')).toEqual([[124]]);
  });

  it("keeps host 0042 as the text '0042' in every model", async () => {
    for (const table of ['raw_events', 'events', 'sessions', 'files', 'raw_files']) {
      expect(await wh.tuples(`select distinct typeof(host), host from ${table} where host like '%42' order by all`)).toEqual([
        ['VARCHAR', '0042'],
      ]);
    }
    expect(await wh.tuples("select count(*) from raw_events where host = '42'")).toEqual([[0]]);
    expect(fs.existsSync(path.join(out, 'parquet', 'events', '0042', 'sdk-sessions'))).toBe(true);
  });

  it("finds each layout with its home, user and client; the KAPE tree's drive folder C is C:", async () => {
    expect(await wh.tuples('select distinct host, store, home, user, client from raw_events order by all')).toEqual([
      ['0042', 'cline-tasks', 'home/dev', 'dev', 'cline'],
      ['0042', 'sdk-sessions', 'home/dev', 'dev', 'cline'],
      ['0042', 'sdk-sessions', 'root', 'root', 'cline'],
      ['0042', 'vscode-tasks', 'home/dev', 'dev', 'vscode-server'],
      ['WIN-ALICE01', 'sync-queue', 'C:/Users/alice', 'alice', 'vscode'],
      ['WIN-ALICE01', 'vscode-tasks', 'C:/Users/alice', 'alice', 'vscode'],
      ['lnx-u01', 'hooks-log', 'home/u', 'u', 'cline'],
      ['lnx-u01', 'input-history', 'home/u', 'u', 'cline'],
      ['lnx-u01', 'sdk-sessions', 'home/u', 'u', 'cline'],
      ['lnx-u01', 'search-index', 'home/u', 'u', 'cline'],
      ['lnx-u01', 'sessions-db', 'home/u', 'u', 'cline'],
      ['lnx-u01', 'settings', 'home/u', 'u', 'cline'],
      ['mac-bob', 'settings', 'Users/bob', 'bob', 'cursor'],
      ['mac-bob', 'vscode-tasks', 'Users/bob', 'bob', 'cursor'],
    ]);
  });

  it("lists each host's users in hosts, and each session's in sessions", async () => {
    expect(await wh.tuples('select host, users from hosts order by host')).toEqual([
      ['0042', ['dev', 'root']],
      ['WIN-ALICE01', ['alice']],
      ['lnx-u01', ['u']],
      ['mac-bob', ['bob']],
    ]);
    expect(await wh.tuples('select host, home, user, count(*) from sessions group by all order by all')).toEqual([
      ['0042', 'home/dev', 'dev', 3],
      ['0042', 'root', 'root', 1],
      ['WIN-ALICE01', 'C:/Users/alice', 'alice', 3],
      ['lnx-u01', 'home/u', 'u', 6],
      ['mac-bob', 'Users/bob', 'bob', 2],
    ]);
  });

  it('maps each kind to its turn type', async () => {
    expect(await wh.tuples("select distinct kind, turn_type from events where kind not in ('parser') order by all")).toEqual([
      ['ask:command', 'tool_use'],
      ['ask:followup', 'assistant'],
      ['cloud_task_target', 'system'],
      ['environment_history', 'system'],
      ['files_in_context', 'system'],
      ['hook:prompt_submit', 'user'],
      ['hook:session_shutdown', 'system'],
      ['input_history', 'user'],
      ['model', 'system'],
      ['origin', 'system'],
      ['permission', 'system'],
      ['say:api_req_started', 'system'],
      ['say:command', 'tool_use'],
      ['say:command_output', 'tool_result'],
      ['say:completion_result', 'assistant'],
      ['say:task', 'user'],
      ['say:text', 'assistant'],
      ['say:tool', 'tool_use'],
      ['say:user_feedback', 'user'],
      ['search_document', 'assistant'],
      ['search_document', 'tool_use'],
      ['search_document', 'user'],
      ['search_index_session', 'system'],
      ['session_end', 'system'],
      ['session_start', 'system'],
      ['sync', 'system'],
      ['task_history', 'system'],
      ['text', 'assistant'],
      ['text', 'user'],
      ['thinking', 'thinking'],
      ['tool_result', 'tool_result'],
      ['tool_use', 'tool_use'],
    ]);
  });

  it('reads a compact ui_messages.json: times, tools, tokens and cost, REQ_APP cut, models from task_metadata', async () => {
    const rows = await wh.rows(
      `select source_line as line, timestamp_utc as ts, turn_type, kind, model, tool_name, tool_use_id, tokens_in, tokens_out, cost_usd, text
       from events where host = 'WIN-ALICE01' and source_file = '${WIN}/tasks/1760100000000/ui_messages.json' order by source_line`,
    );
    expect(rows).toEqual([
      {
        line: 1,
        ts: '2025-10-10T12:40:00.000Z',
        turn_type: 'user',
        kind: 'say:task',
        model: 'claude-sonnet-4-5',
        tool_name: null,
        tool_use_id: null,
        tokens_in: null,
        tokens_out: null,
        cost_usd: null,
        text: 'add input validation to the signup form',
      },
      {
        line: 2,
        ts: '2025-10-10T12:40:00.400Z',
        turn_type: 'system',
        kind: 'say:api_req_started',
        model: 'claude-sonnet-4-5',
        tool_name: null,
        tool_use_id: null,
        tokens_in: 2310,
        tokens_out: 145,
        cost_usd: 0.0123,
        text: '<task>\nadd input validation to the signup form\n</task>',
      },
      {
        line: 3,
        ts: '2025-10-10T12:40:02.000Z',
        turn_type: 'tool_use',
        kind: 'say:tool',
        model: 'claude-sonnet-4-5',
        tool_name: 'readFile',
        tool_use_id: '1760100002000',
        tokens_in: null,
        tokens_out: null,
        cost_usd: null,
        text: '{"tool":"readFile","path":"src/signup.ts","content":"C:\\\\Users\\\\alice\\\\src\\\\shop\\\\src\\\\signup.ts","operationIsLocatedInWorkspace":true}',
      },
      {
        line: 4,
        ts: '2025-10-10T12:40:03.000Z',
        turn_type: 'assistant',
        kind: 'say:text',
        model: 'claude-sonnet-4-5',
        tool_name: null,
        tool_use_id: null,
        tokens_in: null,
        tokens_out: null,
        cost_usd: null,
        text: "The form accepts any email; I'll add a check and run the tests.",
      },
      {
        line: 5,
        ts: '2025-10-10T12:40:04.000Z',
        turn_type: 'tool_use',
        kind: 'ask:command',
        model: 'claude-sonnet-4-5',
        tool_name: 'execute_command',
        tool_use_id: '1760100004000',
        tokens_in: null,
        tokens_out: null,
        cost_usd: null,
        text: 'npm test -- signup',
      },
      {
        line: 6,
        ts: '2025-10-10T12:40:09.000Z',
        turn_type: 'tool_result',
        kind: 'say:command_output',
        model: 'claude-sonnet-4-5',
        tool_name: 'execute_command',
        tool_use_id: '1760100004000',
        tokens_in: null,
        tokens_out: null,
        cost_usd: null,
        text: 'PASS src/signup.test.ts\n  5 passed',
      },
      {
        line: 7,
        ts: '2025-10-10T12:40:10.000Z',
        turn_type: 'tool_use',
        kind: 'say:command',
        model: 'claude-sonnet-4-5',
        tool_name: 'execute_command',
        tool_use_id: '1760100010000',
        tokens_in: null,
        tokens_out: null,
        cost_usd: null,
        text: 'git status --short',
      },
      {
        line: 8,
        ts: '2025-10-10T12:40:10.500Z',
        turn_type: 'tool_result',
        kind: 'say:command_output',
        model: 'claude-sonnet-4-5',
        tool_name: 'execute_command',
        tool_use_id: '1760100010000',
        tokens_in: null,
        tokens_out: null,
        cost_usd: null,
        text: ' M src/signup.ts',
      },
      {
        line: 9,
        ts: '2025-10-10T12:40:12.000Z',
        turn_type: 'assistant',
        kind: 'say:completion_result',
        model: 'claude-opus-4-1',
        tool_name: null,
        tool_use_id: null,
        tokens_in: null,
        tokens_out: null,
        cost_usd: null,
        text: 'Email validation added; 5 tests pass.',
      },
    ]);
  });

  it('derives model and permission-mode rows from task_metadata model_usage (model change, act -> plan)', async () => {
    expect(
      await wh.tuples(
        `select timestamp_utc, source_line, source_seq, kind, model, text from events
         where host = 'WIN-ALICE01' and kind in ('model', 'permission') order by all`,
      ),
    ).toEqual([
      [
        '2025-10-10T12:40:00.390Z',
        1,
        0,
        'model',
        'claude-sonnet-4-5',
        'model: claude-sonnet-4-5 model_provider_id=anthropic mode=act',
      ],
      ['2025-10-10T12:40:00.390Z', 1, 1, 'permission', 'claude-sonnet-4-5', 'permission mode: act'],
      [
        '2025-10-10T12:40:11.000Z',
        2,
        0,
        'model',
        'claude-opus-4-1',
        'model: claude-sonnet-4-5 -> claude-opus-4-1 model_provider_id=anthropic mode=plan',
      ],
      ['2025-10-10T12:40:11.000Z', 2, 1, 'permission', 'claude-opus-4-1', 'permission mode: act -> plan'],
    ]);
    expect(await wh.tuples("select count(*) from events where kind = 'model_usage'")).toEqual([[0]]);
  });

  it('takes project paths from taskHistory (cwdOnTaskInitialization), the sync row too', async () => {
    expect(
      await wh.tuples(
        `select distinct host, store, session_id, project_path from events
         where store in ('vscode-tasks', 'cline-tasks', 'sync-queue') order by all`,
      ),
    ).toEqual([
      ['0042', 'cline-tasks', '1760302000000', '/etc/nginx'],
      ['0042', 'vscode-tasks', '1760303000000', '/srv/backup'],
      ['WIN-ALICE01', 'sync-queue', '1760100000000', 'C:\\Users\\alice\\src\\shop'],
      ['WIN-ALICE01', 'vscode-tasks', '1760100000000', 'C:\\Users\\alice\\src\\shop'],
      ['WIN-ALICE01', 'vscode-tasks', '1760100500000', 'C:\\Users\\alice\\ops'],
      ['WIN-ALICE01', 'vscode-tasks', '1760101000000', 'C:\\Users\\alice\\src\\shop'],
      ['mac-bob', 'vscode-tasks', '1760200000000', '/Users/bob/dev/app'],
      ['mac-bob', 'vscode-tasks', '1760200600000', '/Users/bob/dev/app'],
    ]);
  });

  it('falls back to api_conversation_history.json for the task without ui_messages.json', async () => {
    const rows = await wh.tuples(
      `select source_line, source_seq, timestamp_utc, turn_type, kind, model, tool_name, tool_use_id, tokens_in, tokens_out, cost_usd, text
       from events where host = 'WIN-ALICE01' and session_id = '1760100500000' and store = 'vscode-tasks' and kind <> 'task_history'
       order by source_line, source_seq`,
    );
    expect(rows).toEqual([
      [
        1,
        0,
        '2025-10-10T12:48:20.400Z',
        'user',
        'text',
        'claude-sonnet-4-5',
        null,
        null,
        null,
        null,
        null,
        '<task>\nlist the listening ports\n</task>',
      ],
      [
        2,
        0,
        '2025-10-10T12:48:23.000Z',
        'assistant',
        'text',
        'claude-sonnet-4-5',
        null,
        null,
        900,
        60,
        0.0036,
        'Checking with netstat.',
      ],
      [
        2,
        1,
        '2025-10-10T12:48:23.000Z',
        'tool_use',
        'tool_use',
        'claude-sonnet-4-5',
        'execute_command',
        'toolu_01N',
        null,
        null,
        null,
        'netstat -ano | findstr LISTENING',
      ],
      [
        3,
        0,
        '2025-10-10T12:48:25.000Z',
        'tool_result',
        'tool_result',
        'claude-sonnet-4-5',
        null,
        'toolu_01N',
        null,
        null,
        null,
        'TCP 0.0.0.0:135 LISTENING 1088\nTCP 0.0.0.0:445 LISTENING 4\nTCP 0.0.0.0:3389 LISTENING 1232',
      ],
      [
        4,
        0,
        '2025-10-10T12:48:26.000Z',
        'assistant',
        'text',
        'claude-sonnet-4-5',
        null,
        null,
        null,
        null,
        null,
        'Ports 135, 445 and 3389 are listening.',
      ],
    ]);
    const files = await wh.tuples(`select source_file from files where source_file like '${WIN}/tasks/1760100500000/%'`);
    expect(files).toEqual([[`${WIN}/tasks/1760100500000/api_conversation_history.json`]]);
  });

  it('keeps the records before the cut in the truncated ui_messages.json and adds one parser row naming the file', async () => {
    const file = `${WIN}/tasks/1760101000000/ui_messages.json`;
    const rows = await wh.tuples(
      `select source_line, timestamp_utc, kind, is_error, text from events where source_file = '${file}' order by source_line nulls last`,
    );
    expect(rows.slice(0, 2)).toEqual([
      [1, '2025-10-10T12:56:40.000Z', 'say:task', null, 'rename the config loader'],
      [2, '2025-10-10T12:56:42.000Z', 'say:text', null, 'Renaming loadConfig to readConfig.'],
    ]);
    expect(rows).toHaveLength(3);
    const [line, ts, kind, isError, text] = rows[2] as [null, null, string, boolean, string];
    expect([line, ts, kind, isError]).toEqual([null, null, 'parser', true]);
    expect(text.startsWith(`parser: ${file}: `)).toBe(true);
    expect(text.endsWith(' (2 records read)')).toBe(true);
    expect(await wh.tuples(`select count_rows, count_errors, first_error from files where source_file = '${file}'`)).toEqual([
      [3, 1, text],
    ]);
    expect(await wh.tuples("select host, source_file from events where kind = 'parser'")).toEqual([['WIN-ALICE01', file]]);
  });

  it('keeps sessions.db rows only for the session whose manifest is gone', async () => {
    expect(
      await wh.tuples(
        "select session_id, source_line, count(*) from raw_events where store = 'sessions-db' group by all order by all",
      ),
    ).toEqual([
      [K3X9Q, 1, 2],
      [GONE, 2, 4],
    ]);
    expect(
      await wh.tuples(
        "select session_id, source_seq, timestamp_utc, kind, text from events where store = 'sessions-db' order by source_seq",
      ),
    ).toEqual([
      [
        GONE,
        0,
        '2026-10-03T09:08:20.000Z',
        'session_start',
        'session start: source=cli status=completed pid=4300 cwd=/home/u/billing workspace_root=/home/u/billing title=dump the billing table to CSV',
      ],
      [GONE, 1, '2026-10-03T09:08:20.000Z', 'model', 'model: claude-sonnet-4-5 provider=anthropic'],
      [
        GONE,
        2,
        '2026-10-03T09:08:20.000Z',
        'sync',
        `session synced: enterprise prompt upload to s3 bucket acme-cline-prompts object sessions/usr_0f9e8d7c/${GONE}/messages.json endpoint=- region=eu-west-1 account=- (from sessions.db sessions.metadata_json enterprise.blobUpload, started_at)`,
      ],
      [GONE, 3, '2026-10-03T09:12:00.000Z', 'session_end', 'session end: status=completed exit_code=0'],
    ]);
    expect(
      await wh.tuples(
        `select store, kind from events where session_id = '${K3X9Q}' and kind in ('session_start', 'model') order by all`,
      ),
    ).toEqual([
      ['sdk-sessions', 'model'],
      ['sdk-sessions', 'session_start'],
    ]);
  });

  it('drops exactly the eight secondary rows a transcript row already records', async () => {
    const rows = await wh.tuples(
      `select rule, rule_round, distance_ms, host, home, dropped_store, dropped_source_file, dropped_source_line, dropped_session_id,
              dropped_turn_type, dropped_kind, dropped_timestamp_utc, dropped_text,
              kept_store, kept_source_file, kept_source_line, kept_source_seq, kept_session_id, kept_kind, kept_timestamp_utc
       from duplicates`,
    );
    const hooks = `${U}/logs/hooks.jsonl`;
    const k3 = `${U}/sessions/${K3X9Q}/${K3X9Q}.messages.json`;
    expect(rows).toEqual([
      [
        'hook_text',
        1,
        100,
        'lnx-u01',
        'home/u',
        'hooks-log',
        hooks,
        3,
        K3X9Q,
        'assistant',
        'hook:agent_end',
        '2025-10-09T08:53:25.100Z',
        'All 3 tests pass; web_fetch is disabled by policy.',
        'sdk-sessions',
        k3,
        6,
        0,
        K3X9Q,
        'text',
        '2025-10-09T08:53:25.000Z',
      ],
      [
        'hook_tool_call',
        1,
        500,
        'lnx-u01',
        'home/u',
        'hooks-log',
        hooks,
        1,
        K3X9Q,
        'tool_use',
        'hook:tool_call',
        '2025-10-09T08:53:22.500Z',
        'pytest -q',
        'sdk-sessions',
        k3,
        2,
        1,
        K3X9Q,
        'tool_use',
        '2025-10-09T08:53:22.000Z',
      ],
      [
        'hook_tool_call',
        1,
        10,
        'lnx-u01',
        'home/u',
        'hooks-log',
        hooks,
        2,
        K3X9Q,
        'tool_result',
        'hook:tool_result',
        '2025-10-09T08:53:22.990Z',
        '3 passed',
        'sdk-sessions',
        k3,
        3,
        0,
        K3X9Q,
        'tool_result',
        '2025-10-09T08:53:23.000Z',
      ],
      [
        'input_history',
        1,
        100,
        'lnx-u01',
        'home/u',
        'input-history',
        `${U}/cache/user_input_history.jsonl`,
        2,
        null,
        'user',
        'input_history',
        '2025-10-09T08:53:19.900Z',
        'fix tests',
        'sdk-sessions',
        k3,
        1,
        0,
        K3X9Q,
        'text',
        '2025-10-09T08:53:20.000Z',
      ],
      [
        'search_index',
        1,
        0,
        'lnx-u01',
        'home/u',
        'search-index',
        `${U}/db/session-search.db`,
        1,
        IMPORTED,
        'user',
        'search_document',
        null,
        'port the parser to TypeScript',
        'sdk-sessions',
        `${U}/sessions/${IMPORTED}/${IMPORTED}.messages.json`,
        1,
        0,
        IMPORTED,
        'text',
        '2026-10-01T16:00:00.000Z',
      ],
      // m1 absorbs one copy per rule: the input history's above, and the index's
      [
        'search_index',
        1,
        0,
        'lnx-u01',
        'home/u',
        'search-index',
        `${U}/db/session-search.db`,
        1,
        K3X9Q,
        'user',
        'search_document',
        null,
        'fix tests',
        'sdk-sessions',
        k3,
        1,
        0,
        K3X9Q,
        'text',
        '2025-10-09T08:53:20.000Z',
      ],
      [
        'search_index',
        1,
        0,
        'lnx-u01',
        'home/u',
        'search-index',
        `${U}/db/session-search.db`,
        2,
        IMPORTED,
        'assistant',
        'search_document',
        null,
        'Ported parser.py to parser.ts; 14 tests pass.',
        'sdk-sessions',
        `${U}/sessions/${IMPORTED}/${IMPORTED}.messages.json`,
        2,
        0,
        IMPORTED,
        'text',
        '2026-10-01T16:01:00.000Z',
      ],
      // a tool result document pairs on its call id
      [
        'search_index',
        1,
        0,
        'lnx-u01',
        'home/u',
        'search-index',
        `${U}/db/session-search.db`,
        3,
        K3X9Q,
        'tool_result',
        'search_document',
        null,
        '3 passed',
        'sdk-sessions',
        k3,
        3,
        0,
        K3X9Q,
        'tool_result',
        '2025-10-09T08:53:23.000Z',
      ],
    ]);
    // Dropped rows are in raw_events, not in events.
    expect(
      await wh.tuples(
        "select count(*) from raw_events where store = 'hooks-log' and kind in ('hook:tool_call', 'hook:tool_result', 'hook:agent_end')",
      ),
    ).toEqual([[3]]);
    expect(
      await wh.tuples(
        "select count(*) from events where store = 'hooks-log' and kind in ('hook:tool_call', 'hook:tool_result', 'hook:agent_end')",
      ),
    ).toEqual([[0]]);
  });

  it('drops the input history and search index copies of `fix tests`; the late hook prompt stays', async () => {
    expect(
      await wh.tuples(
        "select store, source_line, timestamp_utc, session_id, turn_type, kind, git_branch from events where text = 'fix tests' order by store",
      ),
    ).toEqual([
      ['hooks-log', 4, '2026-10-03T09:00:00.200Z', K3X9Q, 'user', 'hook:prompt_submit', 'fix/flaky-tests'],
      ['sdk-sessions', 1, '2025-10-09T08:53:20.000Z', K3X9Q, 'user', 'text', null],
    ]);
    expect(
      await wh.tuples("select source_line, timestamp_utc, session_id, text from events where store = 'input-history'"),
    ).toEqual([[1, null, null, 'why is test_add flaky?']]);
  });

  it('prints the session_shutdown line as a hook audit row with the real values', async () => {
    expect(
      await wh.tuples("select timestamp_utc, session_id, turn_type, text from events where kind = 'hook:session_shutdown'"),
    ).toEqual([
      [
        '2026-10-03T09:10:00.000Z',
        K3X9Q,
        'system',
        'hook audit: session_shutdown reason=failed_external_process_exit pid=4100 source=stale_session_reconciler',
      ],
    ]);
  });

  it('marks the web_fetch policy error and the unapproved run_commands call as tool errors', async () => {
    expect(
      await wh.tuples(
        "select host, session_id, timestamp_utc, tool_name, tool_use_id, text from events where is_error and turn_type = 'tool_result' order by all",
      ),
    ).toEqual([
      [
        '0042',
        '1760300000000_d3v0p',
        '2025-10-12T20:13:27.000Z',
        'run_commands',
        'toolu_d02',
        '{"error":"Tool \\"run_commands\\" was not approved"}',
      ],
      [
        'lnx-u01',
        K3X9Q,
        '2025-10-09T08:53:24.000Z',
        'web_fetch',
        'call_2',
        '{"error":"Tool \\"web_fetch\\" is disabled by policy"}',
      ],
    ]);
    expect(
      await wh.tuples(
        "select text from events where tool_name = 'run_commands' and turn_type = 'tool_use' order by timestamp_utc",
      ),
    ).toEqual([
      ['docker image ls\ndocker image prune -af'],
      ['sudo rm -rf /var/lib/docker/tmp'],
      ['df -h /'],
      // the gone session's call, known from the search index alone (undated: last)
      ['psql -c "\\copy billing to out/billing.csv csv"'],
    ]);
  });

  it('writes permission rows from globalState.json, global-settings.json and both cline_mcp_settings.json', async () => {
    const rows = await wh.tuples(
      "select host, source_file, source_seq, timestamp_utc, text from events where kind = 'permission' and store = 'settings' order by host, source_file, source_seq",
    );
    const state = '(from .cline/data/globalState.json, file mtime)';
    const global = '(from .cline/data/settings/global-settings.json, file mtime)';
    const mcp = '(from .cline/data/settings/cline_mcp_settings.json, file mtime)';
    const macMcp =
      '(from Library/Application Support/Cursor/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json, file mtime)';
    /** One expected row: host, file, its seq, the file's mtime, and `permission setting: <text>`. */
    const setting = (host: string, file: string, seq: number, text: string) => [
      host,
      file,
      seq,
      mtimeIso(host, file),
      `permission setting: ${text}`,
    ];
    const stateRows = [
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
    ].map((pair, i) => setting('lnx-u01', `${U}/globalState.json`, i, `${pair} ${state}`));
    expect(rows).toEqual([
      ...stateRows,
      setting('lnx-u01', `${U}/settings/cline_mcp_settings.json`, 0, `mcpServers.github.autoApprove=list_issues ${mcp}`),
      setting('lnx-u01', `${U}/settings/cline_mcp_settings.json`, 1, `mcpServers.github.disabled=false ${mcp}`),
      setting('lnx-u01', `${U}/settings/global-settings.json`, 0, `planActMode=plan ${global}`),
      setting('lnx-u01', `${U}/settings/global-settings.json`, 1, `toolAutoApprove=false ${global}`),
      setting('lnx-u01', `${U}/settings/global-settings.json`, 2, `disabledTools=browser_action ${global}`),
      setting('lnx-u01', `${U}/settings/global-settings.json`, 3, `tools.web_fetch.enabled=false ${global}`),
      setting('mac-bob', `${MAC}/settings/cline_mcp_settings.json`, 0, `mcpServers.filesystem.autoApprove=read_file ${macMcp}`),
      setting(
        'mac-bob',
        `${MAC}/settings/cline_mcp_settings.json`,
        1,
        `mcpServers.filesystem.autoApprove=list_directory ${macMcp}`,
      ),
      setting('mac-bob', `${MAC}/settings/cline_mcp_settings.json`, 2, `mcpServers.filesystem.disabled=false ${macMcp}`),
    ]);
  });

  it('writes the Cline Cloud origin, sync and task target rows', async () => {
    const statuses = '(from .cline/data/globalState.json cloudSessionStatuses, observedAt)';
    const pending = `(from .cline/data/${PENDING}, file mtime)`;
    const pendingAt = mtimeIso('lnx-u01', `${U}/${PENDING}`);
    expect(
      await wh.tuples(
        "select session_id, timestamp_utc, kind, text from events where store = 'settings' and kind in ('origin', 'sync', 'cloud_task_target') order by session_id nulls first, source_seq",
      ),
    ).toEqual([
      [
        null,
        mtimeIso('lnx-u01', `${U}/globalState.json`),
        'cloud_task_target',
        'cloud task target: target=cloud repository_id=812345678 branch=main (from .cline/data/globalState.json, file mtime)',
      ],
      [
        'ses-01JCLOUDDONE',
        iso(1760000100000),
        'origin',
        `session origin: remote cline-cloud session ses-01JCLOUDDONE status completed ${statuses}`,
      ],
      [
        'ses-01JCLOUDDONE',
        iso(1760000100000),
        'sync',
        `session synced: cline-cloud holds session ses-01JCLOUDDONE, no local transcript ${statuses}`,
      ],
      [
        'ses-01JCLOUDWAIT',
        pendingAt,
        'origin',
        `session origin: remote cline-cloud session ses-01JCLOUDWAIT sandbox start pending account=user:usr_0f9e8d7c endpoint=https://api.cline.bot ${pending}`,
      ],
      [
        'ses-01JCLOUDWAIT',
        pendingAt,
        'sync',
        `session synced: cline-cloud holds session ses-01JCLOUDWAIT, no local transcript ${pending}`,
      ],
    ]);
  });

  it('writes the enterprise sync rows of the manifest and of the upload queue', async () => {
    expect(
      await wh.tuples(
        "select host, store, session_id, timestamp_utc, text from events where kind = 'sync' and store <> 'settings' order by all",
      ),
    ).toEqual([
      [
        'WIN-ALICE01',
        'sync-queue',
        '1760100000000',
        '2025-10-10T12:40:13.000Z',
        'session synced: enterprise prompt upload synced key api_conversation_history.json retries 1 (from saoudrizwan.claude-dev/cache/sync-queue.json, item timestamp)',
      ],
      [
        'lnx-u01',
        'sdk-sessions',
        ENTERPRISE,
        '2026-10-03T09:30:00.000Z',
        `session synced: enterprise prompt upload to r2 bucket acme-cline-archive object sessions/usr_7c6b5a49/${ENTERPRISE}/messages.json endpoint=https://0a1b2c3d.r2.cloudflarestorage.com region=- account=0a1b2c3d (from ${ENTERPRISE}.json metadata enterprise.blobUpload, started_at)`,
      ],
      [
        'lnx-u01',
        'sessions-db',
        GONE,
        '2026-10-03T09:08:20.000Z',
        `session synced: enterprise prompt upload to s3 bucket acme-cline-prompts object sessions/usr_0f9e8d7c/${GONE}/messages.json endpoint=- region=eu-west-1 account=- (from sessions.db sessions.metadata_json enterprise.blobUpload, started_at)`,
      ],
    ]);
  });

  it("names the imported session's source on its start row", async () => {
    expect(
      await wh.tuples(
        `select timestamp_utc, model, text from events where session_id = '${IMPORTED}' and kind = 'session_start'`,
      ),
    ).toEqual([
      [
        '2026-10-03T09:20:00.000Z',
        'claude-opus-4-5',
        'session start: source=cli status=completed pid=5300 cwd=/home/u/proj workspace_root=/home/u/proj title=port the parser' +
          ' imported_from=claude-code imported_session=5f0c1d2e-0000-4000-8000-00000000c1a0' +
          ' imported_path=/home/u/.claude/projects/-home-u-proj/5f0c1d2e.jsonl imported_at=2026-10-03T09:20:00.000Z' +
          ' imported_provider=anthropic imported_model=claude-opus-4-5',
      ],
    ]);
  });

  it('keeps non-ASCII text and counts the attached image without copying it', async () => {
    expect(
      await wh.tuples(
        "select session_id, kind, text from events where host = 'mac-bob' and turn_type in ('user', 'assistant') order by timestamp_utc",
      ),
    ).toEqual([
      ['1760200000000', 'say:task', 'Übersetze die Fehlermeldungen ins Deutsche 🙏 | [1 image(s)]'],
      ['1760200000000', 'say:completion_result', 'Fertig: 12 Meldungen übersetzt ✅'],
      ['1760200600000', 'say:task', '列出所有未使用的依赖'],
      [
        '1760200600000',
        'ask:followup',
        '{"question":"只看 dependencies，还是也包括 devDependencies？","options":["dependencies","全部"]}',
      ],
      ['1760200600000', 'say:user_feedback', '全部'],
      ['1760200600000', 'say:completion_result', '发现 3 个未使用的依赖：left-pad、moment、lodash.get'],
    ]);
  });

  it('lists every session with its origin, sync, transcript and import flags', async () => {
    expect(
      await wh.tuples(
        'select host, session_id, origin, is_synced, sync_target, has_transcript, imported_from, stores from sessions order by host, session_id',
      ),
    ).toEqual([
      ['0042', '1760300000000_d3v0p', 'local', false, null, true, null, ['sdk-sessions']],
      ['0042', '1760301000000_r00t1', 'local', false, null, true, null, ['sdk-sessions']],
      ['0042', '1760302000000', 'local', false, null, true, null, ['cline-tasks']],
      ['0042', '1760303000000', 'local', false, null, true, null, ['vscode-tasks']],
      [
        'WIN-ALICE01',
        '1760100000000',
        'local',
        true,
        'enterprise upload queue: api_conversation_history.json',
        true,
        null,
        ['sync-queue', 'vscode-tasks'],
      ],
      ['WIN-ALICE01', '1760100500000', 'local', false, null, true, null, ['vscode-tasks']],
      ['WIN-ALICE01', '1760101000000', 'local', false, null, true, null, ['vscode-tasks']],
      ['lnx-u01', K3X9Q, 'local', false, null, true, null, ['hooks-log', 'sdk-sessions', 'search-index', 'sessions-db']],
      [
        'lnx-u01',
        GONE,
        'local',
        true,
        `s3 bucket acme-cline-prompts object sessions/usr_0f9e8d7c/${GONE}/messages.json`,
        false,
        null,
        ['search-index', 'sessions-db'],
      ],
      ['lnx-u01', IMPORTED, 'local', false, null, true, 'claude-code', ['sdk-sessions', 'search-index']],
      [
        'lnx-u01',
        ENTERPRISE,
        'local',
        true,
        `r2 bucket acme-cline-archive object sessions/usr_7c6b5a49/${ENTERPRISE}/messages.json`,
        true,
        null,
        ['sdk-sessions'],
      ],
      ['lnx-u01', 'ses-01JCLOUDDONE', 'remote', true, 'cline-cloud', false, null, ['settings']],
      ['lnx-u01', 'ses-01JCLOUDWAIT', 'remote', true, 'cline-cloud', false, null, ['settings']],
      ['mac-bob', '1760200000000', 'local', false, null, true, null, ['vscode-tasks']],
      ['mac-bob', '1760200600000', 'local', false, null, true, null, ['vscode-tasks']],
    ]);
    expect(
      await wh.tuples(
        `select project_path, count_user, count_tool_use, count_tool_result, count_errors from sessions where session_id = '${K3X9Q}'`,
      ),
    ).toEqual([['/home/u/proj', 2, 2, 2, 1]]);
  });

  it('lists every evidence file in files with its size and SHA-256', async () => {
    const rows = await wh.tuples('select host, source_file, size_bytes, sha256 from files order by host, source_file');
    const expected = [...before.entries()]
      .filter(([rel, e]) => e.type === 'file' && rel.includes('/'))
      .map(([rel, e]) => {
        const slash = rel.indexOf('/');
        return [rel.slice(0, slash), rel.slice(slash + 1), e.size, e.sha256];
      })
      .sort((a, b) => (`${a[0]}\0${a[1]}` < `${b[0]}\0${b[1]}` ? -1 : 1));
    expect(expected).toHaveLength(32);
    expect(rows).toEqual(expected);
    expect(await wh.tuples('select source_file from files where holds_credentials order by all')).toEqual([
      [`${MAC}/settings/cline_mcp_settings.json`],
      [`${U}/settings/cline_mcp_settings.json`],
    ]);
  });

  it('records one load run whose duplicate count is the duplicates table', async () => {
    expect(
      await wh.rows(
        `select count_hosts, count_partitions_written, count_partitions_unchanged, count_partitions_removed, count_files_read,
                count_rows_written, count_parser_errors, count_discovery_problems, count_duplicates_dropped, count_sessions, is_full_load
         from load_runs`,
      ),
    ).toEqual([
      {
        count_hosts: 4,
        count_partitions_written: 13,
        count_partitions_unchanged: 0,
        count_partitions_removed: 0,
        count_files_read: 32,
        count_rows_written: 132,
        count_parser_errors: 1,
        count_discovery_problems: 0,
        count_duplicates_dropped: 8,
        count_sessions: 15,
        is_full_load: true,
      },
    ]);
    expect(await wh.tuples('select count(*) from duplicates')).toEqual([[8]]);
  });

  it('never loads the sync-queue data and lastError, MCP env values or image bytes', async () => {
    for (const table of ['raw_events', 'events', 'duplicates', 'sessions', 'files', 'raw_files']) {
      for (const marker of NEVER_LOADED) {
        expect(
          await wh.tuples(`select count(*) from ${table} as t where cast(t as varchar) like '%${marker}%'`),
          `${marker} in ${table}`,
        ).toEqual([[0]]);
      }
    }
    // The markers are in the evidence, so the check above can fail.
    const evidence = [...before.keys()]
      .filter((p) => before.get(p)!.type === 'file')
      .map((p) => fs.readFileSync(path.join(FLEET, p), 'utf8'))
      .join('\n');
    for (const marker of NEVER_LOADED) expect(evidence).toContain(marker);
  });
});

// ------------------------------------------------------------------------------------------------ second load

describe('demo fleet: a second load on the same OUT', () => {
  let load2: SpawnSyncReturns<string>;
  let wh2: Warehouse;

  beforeAll(async () => {
    wh.close();
    load2 = runCli(['load', '--fleet', 'fixtures/fleet', '--out', out, '--quiet', '--rows-table']);
    if (load2.status !== 0) throw new Error(`second load failed (${load2.status}): ${load2.stderr}`);
    wh = await Warehouse.open(out);
    wh2 = wh;
  });

  it('gives the same events and duplicates (idempotent)', async () => {
    expect(events1.length).toBe(124);
    expect(await wh2.tuples(EVENTS_IN_TOTAL_ORDER)).toEqual(events1);
    expect(await wh2.tuples(DUPLICATES_IN_TOTAL_ORDER)).toEqual(duplicates1);
  });

  it('appends a second run: nothing changed, every partition kept; each run keeps the figures of its summary line', async () => {
    expect(load2.stderr).toBe('');
    expect(
      await wh2.tuples(
        "select count_partitions_written, count_partitions_unchanged, count_files_read, count_files_unchanged, count_duplicates_dropped, count_sessions, is_secrets_redacted, count_secrets_redacted, finished_at_utc >= ended_at_utc, clinetrail_version ~ '^\\d+\\.\\d+\\.\\d+\\+[0-9a-f]{16}$' from load_runs order by started_at_utc",
      ),
    ).toEqual([
      [13, 0, 32, 0, 8, null, true, 0, true, true],
      [0, 13, 0, 32, 8, 15, true, 0, true, true],
    ]);
  });

  it('prints with --rows-table, from the manifests, the rows per host and store that raw_events counts', async () => {
    const lines = load2.stdout.split('\n');
    expect(lines[0]).toMatch(/^loaded 4 host\(s\)/);
    expect(lines.slice(1, 4)).toEqual(['', 'host         store          rows', '-----------  -------------  ----']);
    const printed = lines.slice(4, lines.indexOf('(13 rows)')).map((l) => l.split(/ +/));
    const counted = await wh2.tuples('select host, store, count(*) from raw_events group by all order by all');
    expect(printed).toEqual(counted.map(([host, store, rows]) => [host, store, String(rows)]));
    expect(printed.length).toBe(13);
  });

  it('still leaves the evidence untouched', () => {
    expect(Object.fromEntries(snapshot(FLEET))).toEqual(Object.fromEntries(before));
  });
});

// ------------------------------------------------------------------------------------------------ CLI errors

describe('CLI errors', () => {
  it('query with an SQL error exits non-zero with one clinetrail: line and no stack trace', () => {
    const r = runCli(['query', '--out', out, 'select * from no_such_table']);
    expect(r.status).not.toBe(0);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^clinetrail: .*no_such_table/);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });

  it('load --fleet /nonexistent exits 2 with one line and creates no OUT', () => {
    const target = path.join(os.tmpdir(), `clinetrail-e2e-never-${process.pid}`);
    const r = runCli(['load', '--fleet', '/nonexistent', '--out', target]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('clinetrail: load: fleet folder not found: /nonexistent\n');
    expect(fs.existsSync(target)).toBe(false);
  });
});
