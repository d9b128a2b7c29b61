/**
 * `clinetrail mcp`'s list_hunts and run_hunt through the SDK's own Client over stdio, the built CLI
 * serving the hunt fixtures (fixtures/hunts, README there) loaded into a temporary OUT. What the tools
 * must say is read from the inputs: the pack from the header lines of hunts/*.sql, the planted findings
 * from the fixtures' PLANT-<hunt>-<n> markers, and what `clinetrail hunt` stores (run by the CLI on a
 * copy of OUT, then on OUT itself) from its findings and hunt_runs tables. run_hunt writes nothing.
 * The server runs with TZ=Asia/Kolkata: its times must still be UTC.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHuntPack } from '../../src/hunt/pack.js';
import { QUERY_LIMITS } from '../../src/mcp/query-tool.js';
import { queryWarehouse, setFleetVariables } from '../../src/warehouse/build.js';
import { snapshotTree } from '../hostile/harness.js';
import { REPO } from '../helpers/source.js';
import { answerFields, CLI, connectClient, errorDetailOf, tempDir, toolErrorOf } from './harness.js';

const FLEET = path.join(REPO, 'fixtures', 'hunts');
const HUNTS = path.join(REPO, 'hunts');
const NOT_RUN = 'hunts not run yet: clinetrail hunt --out OUT';
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

interface FindingOut {
  hunt_id: string;
  host: string;
  session_id: string | null;
  row_id: string | null;
  timestamp_utc: string | null;
  summary: string;
  [key: string]: unknown;
}
interface RunAnswer {
  findings: FindingOut[];
  hunts: Array<{ id: string; severity: string; count: number; truncated: boolean; returned: number }>;
  finding_count: number;
  returned: number;
  truncated: boolean;
  truncated_by: string | null;
}
interface ListAnswer {
  hunts: Array<
    Record<string, unknown> & { id: string; last_run: { count: number; truncated: boolean; ran_at_utc: string } | null }
  >;
  findings: string;
}

let tmp = '';
let out = '';
const clients: Client[] = [];

function cli(args: string[]): void {
  const run = spawnSync(process.execPath, [CLI, ...args], {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, TZ: 'UTC' },
    timeout: 240_000,
  });
  if (run.status !== 0) throw new Error(`clinetrail ${args[0]} failed (${run.status}): ${run.stderr}`);
}

async function client(of: string): Promise<Client> {
  const { client } = await connectClient(of, 'Asia/Kolkata');
  clients.push(client);
  return client;
}

/**
 * A tool call. run_hunt gets the longest time limit unless the test sets one: the whole pack on a shared,
 * loaded machine can pass the 30 s default, and what these tests check is the answer, not the clock (the
 * limit itself is checked with `timeout_seconds: 1`).
 */
async function call(c: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  const limited =
    name === 'run_hunt' && !('timeout_seconds' in args) ? { timeout_seconds: QUERY_LIMITS.maxSeconds, ...args } : args;
  return (await c.callTool({ name, arguments: limited }, undefined, { timeout: 600_000 })) as CallToolResult;
}

async function ok<T>(c: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = await call(c, name, args);
  expect(toolErrorOf(result)).toBeNull();
  expect(result.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/\w/) });
  return answerFields<T>(result);
}

/** What `clinetrail hunt` stored in OUT's findings table, in the shape run_hunt answers, in store order. */
async function stored(of: string): Promise<FindingOut[]> {
  const { columns, rows } = await queryWarehouse(
    of,
    `select hunt_id, title, severity, attack, host, session_id, row_id::varchar as row_id,
       strftime(timestamp_utc::timestamp, '%Y-%m-%dT%H:%M:%S.%fZ') as timestamp_utc, summary, source_file, agent
     from findings`,
  );
  return rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i]])) as FindingOut);
}

/** The PLANT-<id>-<n> markers of hunt `id` in the fixture tree's paths and files. */
function planted(id: string): string[] {
  const found = new Set<string>();
  const add = (text: string) => {
    for (const m of text.matchAll(new RegExp(`PLANT-${id}-(\\d+)`, 'gi'))) found.add(`PLANT-${id}-${m[1]}`);
  };
  for (const rel of fs.readdirSync(FLEET, { recursive: true }) as string[]) {
    add(rel);
    const file = path.join(FLEET, rel);
    if (fs.statSync(file).isFile() && !rel.endsWith('README.md')) add(fs.readFileSync(file, 'latin1'));
  }
  return [...found].sort();
}

beforeAll(async () => {
  tmp = tempDir('clinetrail-mcp-hunts-');
  out = path.join(tmp, 'out');
  // --no-hunts: a warehouse whose hunts have not run (a load runs the pack into the warehouse it builds)
  cli(['load', '--fleet', FLEET, '--out', out, '--quiet', '--no-hunts']);
});

afterAll(async () => {
  for (const c of clients) await c.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('clinetrail mcp: list_hunts and run_hunt', () => {
  let c: Client;
  let all: RunAnswer;

  beforeAll(async () => {
    c = await client(out);
  }, 600_000);

  it('list_hunts gives the pack as hunts/*.sql declare it, and says the hunts have not run', async () => {
    const files = fs.readdirSync(HUNTS).filter((n) => n.endsWith('.sql'));
    const listed = await ok<ListAnswer>(c, 'list_hunts');
    expect(listed.findings).toBe(NOT_RUN);
    expect(listed.hunts.map((h) => `${h.id}.sql`).sort()).toEqual(files.sort());
    for (const h of listed.hunts) {
      const text = fs.readFileSync(path.join(HUNTS, `${h.id}.sql`), 'utf8');
      const header = (key: string) => new RegExp(`^-- ${key}: (.*)$`, 'm').exec(text)?.[1].trim();
      expect(h.title, h.id).toBe(header('title'));
      expect(h.severity, h.id).toBe(header('severity'));
      expect((h.attack as string[]).join(', '), h.id).toBe(header('attack'));
      expect((h.agents as string[]).join(', '), h.id).toBe(header('agents'));
      expect(h.last_run, h.id).toBeNull();
    }
    const pack = await loadHuntPack();
    expect(listed.hunts).toEqual(
      pack.map((h) => ({
        id: h.id,
        title: h.title,
        severity: h.severity,
        attack: h.attack,
        agents: h.agents,
        description: h.description,
        false_positives: h.falsePositives,
        columns: h.columns,
        last_run: null,
      })),
    );
  });

  it('run_hunt for one id gives exactly its planted findings, as clinetrail hunt stores them', async () => {
    const id = 'secret-in-prompt';
    const answer = await ok<RunAnswer>(c, 'run_hunt', { ids: [id] });
    expect(answer).toMatchObject({ truncated: false, truncated_by: null, finding_count: answer.findings.length });
    expect(answer.hunts).toEqual([
      {
        id,
        title: 'Secret pasted into a prompt',
        severity: 'medium',
        count: answer.findings.length,
        truncated: false,
        returned: answer.findings.length,
      },
    ]);
    expect(new Set(answer.findings.map((f) => f.host))).toEqual(new Set([`pos-${id}`]));
    // each finding's evidence row, followed as the description teaches, names one planted marker
    const named: string[] = [];
    for (const f of answer.findings) {
      expect(f.row_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(f.timestamp_utc).toMatch(ISO_UTC);
      expect(f.summary).toMatch(/\[REDACTED:[a-z_]+:[0-9a-f]+\]/);
      const row = await ok<{ rows: string[][] }>(c, 'query', {
        sql: `select concat_ws(' ', text, source_file) from events where row_id = '${f.row_id}'`,
        max_cell_chars: 100_000,
      });
      expect(row.rows).toHaveLength(1);
      named.push(...new Set(row.rows[0][0].match(new RegExp(`PLANT-${id}-\\d+`, 'g'))));
    }
    expect(planted(id).length).toBeGreaterThan(0);
    expect(named.sort()).toEqual(planted(id));

    const copy = path.join(tmp, 'copy');
    fs.cpSync(out, copy, { recursive: true });
    cli(['hunt', '--out', copy, '--id', id]);
    expect(answer.findings).toEqual(await stored(copy));
  }, 600_000);

  it('run_hunt on the whole pack: per-hunt counts, and max_rows cuts and says so', async () => {
    all = await ok<RunAnswer>(c, 'run_hunt', { max_rows: 10_000 });
    const ids = (await loadHuntPack()).map((h) => h.id);
    expect(all.hunts.map((h) => h.id)).toEqual(ids);
    expect(all.truncated).toBe(false);
    expect(all.finding_count).toBe(all.findings.length);
    for (const h of all.hunts) {
      expect(h.count, h.id).toBe(all.findings.filter((f) => f.hunt_id === h.id).length);
      expect(h.count, h.id).toBeGreaterThan(0);
      expect(h.returned, h.id).toBe(h.count);
    }
    const cut = await call(c, 'run_hunt', { max_rows: 3 });
    const three = answerFields<RunAnswer>(cut);
    expect(three).toMatchObject({ returned: 3, truncated: true, truncated_by: 'max_rows', finding_count: all.finding_count });
    expect(three.findings).toEqual(all.findings.slice(0, 3));
    expect(three.hunts.map((h) => [h.id, h.count])).toEqual(all.hunts.map((h) => [h.id, h.count]));
    expect(three.hunts.reduce((n, h) => n + h.returned, 0)).toBe(3);
    const text = cut.content[0].type === 'text' ? cut.content[0].text : '';
    expect(text).toContain(`${all.finding_count} finding(s) of ${ids.length} hunt(s)`);
    expect(text).toMatch(/cut at max_rows/);
  }, 600_000);

  it('an unknown id is a tool error listing the known ids, never repeating the one asked for; the server goes on', async () => {
    const error = toolErrorOf(await call(c, 'run_hunt', { ids: ['secret-in-prompt', 'no-such-hunt'] }));
    expect(error?.kind).toBe('not_found');
    expect(error?.message).toMatch(/^1 id\(s\) of ids are not in the hunt pack/);
    expect(error?.message).not.toContain('no-such-hunt');
    for (const name of fs.readdirSync(HUNTS).filter((n) => n.endsWith('.sql')))
      expect(error?.message).toContain(name.replace(/\.sql$/, ''));
    expect((await call(c, 'run_hunt', { ids: [] })).isError).toBe(true);
    expect((await call(c, 'run_hunt', { max_rows: 10_001 })).isError).toBe(true);
    const again = await ok<RunAnswer>(c, 'run_hunt', { ids: ['transcript-left-host'] });
    expect(again.hunts.map((h) => [h.id, h.count])).toEqual(
      all.hunts.filter((h) => h.id === 'transcript-left-host').map((h) => [h.id, h.count]),
    );
  }, 600_000);

  it('writes nothing: OUT is byte-identical after run_hunt and list_hunts', async () => {
    const before = snapshotTree(out);
    await ok<RunAnswer>(c, 'run_hunt', {});
    await ok<ListAnswer>(c, 'list_hunts');
    expect(snapshotTree(out)).toEqual(before);
    expect((await ok<ListAnswer>(c, 'list_hunts')).findings).toBe(NOT_RUN);
  }, 600_000);

  it('a hunt that fails, or runs past its time limit, is a tool error naming it; the next hunt runs', async () => {
    const broken = path.join(tmp, 'broken');
    fs.cpSync(out, broken, { recursive: true });
    // the server holds no file between calls: the copy's warehouse is changed beside it
    const change = async (sql: string) => {
      const { DuckDBInstance } = await import('@duckdb/node-api');
      const db = await DuckDBInstance.create(path.join(broken, 'fleet.duckdb'), { autoload_known_extensions: 'false' });
      const conn = await db.connect();
      await setFleetVariables(conn, broken);
      await conn.run(sql);
      conn.closeSync();
      db.closeSync();
    };
    const expected = all.findings.filter((f) => f.hunt_id === 'secret-in-prompt');
    // secret-on-several-hosts reads the secrets table, secret-in-prompt does not
    await change('drop view secrets');
    const b = await client(broken);
    const failed = await call(b, 'run_hunt', { ids: ['secret-on-several-hosts'] });
    expect(toolErrorOf(failed)?.kind).toBe('sql_error');
    expect(toolErrorOf(failed)?.message).toMatch(
      /^query: Catalog Error .* in hunt secret-on-several-hosts, 0 of 1 hunt\(s\) done$/,
    );
    expect(errorDetailOf(failed)).toMatch(/secrets/);
    expect((await ok<RunAnswer>(b, 'run_hunt', { ids: ['secret-in-prompt'] })).findings).toEqual(expected);

    // secrets as an endless view: DuckDB is interrupted at the time limit
    await change(`create view secrets as select md5(range::varchar)::uuid as row_id, 'k' as kind, (range % 7)::varchar as fingerprint
      from range(100000000000000)`);
    const stopped = toolErrorOf(await call(b, 'run_hunt', { ids: ['secret-on-several-hosts'], timeout_seconds: 1 }));
    expect(stopped?.kind).toBe('time_limit');
    expect(stopped?.message).toMatch(/time limit of 1 s .*in hunt secret-on-several-hosts, 0 of 1 hunt\(s\) done/);
    expect((await ok<RunAnswer>(b, 'run_hunt', { ids: ['secret-in-prompt'] })).findings).toEqual(expected);
  });

  it('list_hunts after a stored clinetrail hunt: findings present, each hunt its last run; run_hunt equals the store', async () => {
    cli(['hunt', '--out', out]);
    const listed = await ok<ListAnswer>(c, 'list_hunts');
    expect(listed.findings).toBe('present');
    const runs = await queryWarehouse(
      out,
      "select hunt_id, count_findings, is_truncated, strftime(ran_at_utc::timestamp, '%Y-%m-%dT%H:%M:%S.%fZ') from hunt_runs",
    );
    const byId = new Map(runs.rows.map(([id, n, cut, at]) => [id, { count: Number(n), truncated: cut, ran_at_utc: at }]));
    for (const h of listed.hunts) {
      expect(h.last_run, h.id).toEqual(byId.get(h.id));
      expect(h.last_run?.ran_at_utc).toMatch(ISO_UTC);
      expect(h.last_run?.count, h.id).toBe(all.hunts.find((a) => a.id === h.id)?.count);
    }
    expect(all.findings).toEqual(await stored(out));

    // a stored run of one hunt replaces the last run: the others have none now
    cli(['hunt', '--out', out, '--id', 'prompt-injection']);
    const after = await ok<ListAnswer>(c, 'list_hunts');
    expect(after.hunts.filter((h) => h.last_run !== null).map((h) => h.id)).toEqual(['prompt-injection']);
  });
});
