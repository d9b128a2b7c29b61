/**
 * `clinetrail mcp` through the SDK's own Client over stdio, spawning the built CLI on the demo fleet
 * loaded into a temporary OUT: the tools it lists, the documented catalog, queries whose expected rows
 * come from the fixture files and the partition manifests (not from DuckDB), refused writes that leave
 * OUT as it was, the row, cell and time limits, and one session's timeline read from its transcript.
 * The server runs with TZ=Asia/Kolkata: its times must still be UTC.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLUMNS } from '../../src/core/records.js';
import { partitionRows } from '../../src/load/partition-rows.js';
import { fixture, REPO } from '../helpers/source.js';
import { snapshotTree } from '../hostile/harness.js';
import { answerFields, CLI, connectClient, isRunning, loadDemoFleet, tempDir, toolErrorOf } from './harness.js';

let tmp = '';
let out = '';
let client: Client;
let transport: StdioClientTransport;

beforeAll(async () => {
  tmp = tempDir('clinetrail-mcp-');
  // --no-hunts: a warehouse whose hunts have not run (a load runs the pack into the warehouse it builds)
  out = loadDemoFleet(tmp, ['--no-hunts']);
  ({ client, transport } = await connectClient(out, 'Asia/Kolkata'));
});

afterAll(async () => {
  await client?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

interface QueryContent {
  columns: Array<{ name: string; type: string }>;
  rows: unknown[][];
  row_count: number;
  truncated: boolean;
  truncated_by: string | null;
  cells_cut: number;
}

async function query(sql: string, extra: Record<string, unknown> = {}): Promise<QueryContent> {
  const result = await call('query', { sql, ...extra });
  expect(toolErrorOf(result)).toBeNull();
  return answerFields<QueryContent>(result);
}

describe('clinetrail mcp: tools', () => {
  it('lists its tools, each with a description that teaches and input and output schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['list_hunts', 'list_tables', 'query', 'run_hunt', 'session_timeline']);
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(300);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations?.readOnlyHint).toBe(true);
    }
    const q = tools.find((t) => t.name === 'query');
    expect(q?.inputSchema.required).toEqual(['sql']);
    expect(Object.keys(q?.inputSchema.properties ?? {})).toEqual(['sql', 'max_rows', 'timeout_seconds', 'max_cell_chars']);
  });

  it('list_tables gives the documented tables with every column typed and commented, and says hunts have not run', async () => {
    const result = await call('list_tables', {});
    expect(toolErrorOf(result)).toBeNull();
    const { tables, findings } = result.structuredContent as {
      tables: Array<{
        name: string;
        kind: string;
        comment: string | null;
        columns: Array<{ name: string; type: string; comment: string | null }>;
      }>;
      findings: string;
    };
    const names = tables.map((t) => t.name);
    for (const wanted of ['events', 'sessions', 'files', 'secrets', 'hosts', 'load_runs', 'raw_events'])
      expect(names).toContain(wanted);
    expect(names.filter((n) => n.startsWith('int_'))).toEqual([]);
    expect(findings).toBe('hunts not run yet: clinetrail hunt --out OUT');
    const events = tables.find((t) => t.name === 'events');
    expect(events?.kind).toBe('view');
    expect(events?.comment).toMatch(/timeline/);
    // the events view has the row schema's columns (core/records.ts) plus row_id, each documented
    expect(events?.columns.map((c) => c.name).sort()).toEqual(['row_id', ...COLUMNS.map((c) => c.name)].sort());
    for (const column of events?.columns ?? []) expect(column.comment, column.name).toMatch(/\w/);
    expect(events?.columns.find((c) => c.name === 'timestamp_utc')?.type).toBe('TIMESTAMP WITH TIME ZONE');
    const sessions = tables.find((t) => t.name === 'sessions');
    expect(sessions?.comment).toMatch(/Grain/);

    const one = await call('list_tables', { table: 'int_timeline' });
    expect((one.structuredContent as { tables: unknown[] }).tables).toHaveLength(1);
    // a build without hunts still has the (empty) findings table: listed, and the answer says the hunts did not run
    const findingsTable = await call('list_tables', { table: 'findings' });
    expect(toolErrorOf(findingsTable)).toBeNull();
    expect(findingsTable.structuredContent).toMatchObject({ findings: 'hunts not run yet: clinetrail hunt --out OUT' });
    expect(toolErrorOf(await call('list_tables', { table: 'no_such_table' }))?.kind).toBe('not_found');
  });

  it("query: the rows per host and store are the partition manifests' counts", async () => {
    const answer = await query('select host, store, count(*) as n from raw_events group by all order by all');
    const expected = (await partitionRows(out)).map((p) => [p.host, p.store, p.rows]);
    expect(expected.length).toBeGreaterThan(5);
    expect(answer.rows).toEqual(expected);
    expect(answer.columns).toEqual([
      { name: 'host', type: 'VARCHAR' },
      { name: 'store', type: 'VARCHAR' },
      { name: 'n', type: 'BIGINT' },
    ]);
    expect(answer.truncated).toBe(false);
  });

  it('query: a planted prompt comes back with its UTC time, row_id as its text and its source file', async () => {
    const task =
      'Users/bob/Library/Application Support/Cursor/User/globalStorage/saoudrizwan.claude-dev/tasks/1760200000000/ui_messages.json';
    const [first] = JSON.parse(fs.readFileSync(path.join(fixture('fleet', 'mac-bob'), task), 'utf8')) as Array<{
      ts: number;
      text: string;
    }>;
    const answer = await query(
      `select row_id, timestamp_utc, text, source_file from events where host = 'mac-bob' and kind = 'say:task' and source_file = '${task}'`,
    );
    expect(answer.rows).toHaveLength(1);
    const [rowId, time, text, source] = answer.rows[0] as string[];
    expect(rowId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(time).toBe(new Date(first.ts).toISOString().replace('Z', '000Z'));
    expect(text).toBe(`${first.text} | [1 image(s)]`);
    expect(source).toBe(task);
  });

  it('refuses writes with a tool error, writes nothing, and keeps serving', async () => {
    const before = snapshotTree(out);
    const target = path.join(tmp, 'leak.csv');
    const writes = [
      'create table x as select 1',
      `copy (select * from events) to '${target}'`,
      `attach '${path.join(tmp, 'other.duckdb')}' as other`,
      'install httpfs',
      'select 1; drop table sessions',
      'set threads = 1',
      `select * from read_csv('${path.join(fixture('fleet'), 'README.md')}')`,
    ];
    for (const sql of writes) {
      const error = toolErrorOf(await call('query', { sql }));
      expect(error?.kind, sql).toBe('refused');
      expect(error?.message, sql).toMatch(/^query: /);
    }
    expect(fs.existsSync(target)).toBe(false);
    expect(fs.existsSync(path.join(tmp, 'other.duckdb'))).toBe(false);
    expect(snapshotTree(out)).toEqual(before);
    expect((await query('select count(*) from sessions')).row_count).toBe(1);
  });

  it('a failing query and bad arguments are tool errors; the server goes on', async () => {
    expect(toolErrorOf(await call('query', { sql: 'select nope from events' }))?.kind).toBe('sql_error');
    // a build without hunts has an empty findings table and a hunt_runs row saying why
    expect((await query('select count(*)::int from findings')).rows).toEqual([[0]]);
    expect((await query('select status from hunt_runs')).rows).toEqual([
      [`not run: load --no-hunts; run clinetrail hunt --out ${out}`],
    ]);
    expect((await call('query', { sql: 'select 1', max_rows: 0 })).isError).toBe(true);
    expect((await call('query', {})).isError).toBe(true);
    expect((await call('no_such_tool', {})).isError).toBe(true);
    // DuckDB's C interface would end the text at a NUL: refused before any SQL is made of it
    expect((await call('query', { sql: "select 1\u0000; copy hosts to 'x.csv'" })).isError).toBe(true);
    expect((await call('session_timeline', { host: "0042\u0000' or true --", session_id: 'x' })).isError).toBe(true);
    expect((await query('select 42 as n')).rows).toEqual([[42]]);
  });

  it('cuts at max_rows and says so; a result of exactly max_rows is whole', async () => {
    const cut = await query('select range as i from range(1000)', { max_rows: 10 });
    expect(cut.rows).toEqual(Array.from({ length: 10 }, (_, i) => [i]));
    expect(cut).toMatchObject({ row_count: 10, truncated: true, truncated_by: 'max_rows' });
    const whole = await query('select range as i from range(10)', { max_rows: 10 });
    expect(whole).toMatchObject({ row_count: 10, truncated: false, truncated_by: null });
  });

  it('cuts long cells at max_cell_chars and counts them; values stay JSON-safe', async () => {
    const answer = await query(
      "select repeat('x', 5000) as long, 9007199254740993::bigint as big, 1.5::decimal(4,1) as small_dec, 123456789012345678.5::decimal(20,1) as wide_dec",
      { max_cell_chars: 100 },
    );
    expect(answer.rows).toEqual([[`${'x'.repeat(100)}…`, '9007199254740993', 1.5, '123456789012345678.5']]);
    expect(answer.cells_cut).toBe(1);
  });

  it('a query that ends with semicolons and comments runs as it is (DuckDB cuts its cells inside a wrapper)', async () => {
    const answer = await query(`select '; --' as s, repeat('x', 500) as long; ; -- done ;`, { max_cell_chars: 20 });
    expect(answer.rows).toEqual([['; --', `${'x'.repeat(20)}…`]]);
    expect(answer.cells_cut).toBe(1);
  });

  it('interrupts a query at its time limit and keeps serving', async () => {
    const t0 = Date.now();
    const result = await call('query', { sql: 'select count(*) from range(100000000000000)', timeout_seconds: 1 });
    expect(toolErrorOf(result)).toMatchObject({ kind: 'time_limit', message: expect.stringContaining('1 s') });
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect((await query('select 1 as one')).rows).toEqual([[1]]);
  });

  it("session_timeline: a session's events in order, as its transcript holds them", async () => {
    const sid = '1760300000000_d3v0p';
    const file = fixture('fleet', '0042', 'home', 'dev', '.cline', 'data', 'sessions', sid, `${sid}.messages.json`);
    type Block = { type: string; text?: string; content?: string; input?: { commands: string[] } };
    const { messages } = JSON.parse(fs.readFileSync(file, 'utf8')) as { messages: Array<{ ts: number; content: Block[] }> };
    const expected = messages.flatMap((m) =>
      m.content.map((b) => [
        new Date(m.ts).toISOString().replace('Z', '000Z'),
        b.type === 'text' ? b.text : b.type === 'tool_use' ? b.input?.commands.join('\n') : b.content,
      ]),
    );
    const result = await call('session_timeline', { host: '0042', session_id: sid });
    expect(toolErrorOf(result)).toBeNull();
    const timeline = answerFields<{
      session: Record<string, unknown>;
      events: Array<Record<string, unknown>>;
      event_count: number;
      truncated: boolean;
    }>(result);
    expect(timeline.session).toMatchObject({ host: '0042', session_id: sid });
    expect(timeline.event_count).toBe(timeline.events.length);
    expect(timeline.truncated).toBe(false);
    const said = timeline.events.filter((e) => e.turn_type !== 'system').map((e) => [e.timestamp_utc, e.text]);
    expect(said).toEqual(expected);
    const times = timeline.events.map((e) => String(e.timestamp_utc));
    expect([...times].sort()).toEqual(times);
    expect(timeline.events.find((e) => e.is_error === true)?.text).toMatch(/was not approved/);

    const page = await call('session_timeline', { host: '0042', session_id: sid, limit: 3, offset: 2 });
    const paged = answerFields<{ events: Array<Record<string, unknown>>; truncated: boolean }>(page);
    expect(paged.events.map((e) => e.row_id)).toEqual(timeline.events.slice(2, 5).map((e) => e.row_id));
    expect(paged.truncated).toBe(true);
    expect(toolErrorOf(await call('session_timeline', { host: '0042', session_id: 'nope' }))?.kind).toBe('not_found');
  });

  it("the client's cancellation interrupts the query: the next call does not wait for it", async () => {
    const controller = new AbortController();
    const slow = client.callTool(
      { name: 'query', arguments: { sql: 'select count(*) from range(100000000000000)', timeout_seconds: 300 } },
      undefined,
      { signal: controller.signal, timeout: 600_000 },
    );
    setTimeout(() => controller.abort(), 1_000);
    await expect(slow).rejects.toThrow();
    const t0 = Date.now();
    // calls run one at a time: without the interrupt this one would wait the 300 s out
    expect((await query('select 7 as n')).rows).toEqual([[7]]);
    expect(Date.now() - t0).toBeLessThan(15_000);
  });

  it('sees a load that ran beside it, without a restart (no lock held, one connection per call)', async () => {
    const before = await query('select host from hosts order by host');
    expect(before.rows).toEqual([['0042'], ['WIN-ALICE01'], ['lnx-u01'], ['mac-bob']]);
    const load = spawnSync(
      process.execPath,
      [CLI, 'load', '--host', `late-bob=${fixture('fleet', 'mac-bob')}`, '--out', out, '--quiet'],
      { cwd: REPO, encoding: 'utf8', env: { ...process.env, TZ: 'UTC' }, timeout: 240_000 },
    );
    expect(load.status, load.stderr).toBe(0);
    const after = await query("select count(*) from events where host = 'late-bob'");
    const bob = await query("select count(*) from events where host = 'mac-bob'");
    expect(after.rows).toEqual(bob.rows);
    expect((await query('select count(*) from hosts')).rows).toEqual([[5]]);
  });

  it('lists and queries a findings table once one exists (the hunt command writes it)', async () => {
    const hunt = spawnSync(process.execPath, [CLI, 'hunt', '--out', out], {
      encoding: 'utf8',
      env: { ...process.env, TZ: 'UTC' },
    });
    expect(hunt.status, hunt.stderr).toBe(0);
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const db = await DuckDBInstance.create(path.join(out, 'fleet.duckdb'), {
      access_mode: 'READ_ONLY',
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
    });
    const conn = await db.connect();
    const sql = 'select hunt_id, host, session_id, summary from findings order by all';
    const stored = (await conn.runAndReadAll(sql)).getRowsJson();
    conn.closeSync();
    db.closeSync();
    expect(stored.length).toBeGreaterThan(0);
    const listed = await call('list_tables', {});
    const { tables, findings } = listed.structuredContent as { tables: Array<{ name: string }>; findings: string };
    expect(findings).toBe('present');
    expect(tables.map((t) => t.name)).toContain('findings');
    expect((await query(sql)).rows).toEqual(stored);
  });

  it('exits by itself when the client closes its stdin, leaving no process behind', async () => {
    const { client: other, transport: t } = await connectClient(out);
    const pid = t.pid;
    expect(pid).not.toBeNull();
    await other.callTool({ name: 'query', arguments: { sql: 'select 1' } });
    const t0 = Date.now();
    await other.close();
    // the SDK's transport waits 2 s for the exit before it sends SIGTERM: the server was quicker
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(isRunning(pid as number)).toBe(false);
    expect(transport.pid).not.toBe(pid);
  });
});
