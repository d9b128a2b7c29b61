/**
 * End to end, through the real CLI: every row of the warehouse has one `row_id`, unique and the same on
 * every load of the same evidence (sql/01_row_macros.sql); the duplicate rule drops every hook copy of a
 * chain of twelve identical prompts, read from real files (issue 10); and every column of every mart is
 * explained in the catalog (`comment on`). The fleet: the demo fleet (fixtures/fleet), a host with every
 * reader fixture (task_metadata.json's arrays all number their entries from 1, and search-index rows
 * share lines with their session rows), and the chain host written below.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sdkManifest } from '../../bench/repeated-prompts.js';
import { REPO } from '../helpers/source.js';
import { assertBuilt, describeRun, lit, load, makeControlHost, query, workDir, type CliRun } from '../hostile/harness.js';

const work = workDir('identity');
const fleet = path.join(work, 'fleet');
const outs = [path.join(work, 'out-1'), path.join(work, 'out-2')];
const CHAIN_HOST = 'chain';
const SID = '1770000000000_chain';
const T0 = Date.parse('2026-03-02T09:00:00.000Z');
let runs: CliRun[] = [];

/**
 * Twelve `continue` prompts whose hook copies form a nearest-neighbour chain: the gaps shrink towards the
 * end (P1 23 s H1 22 s P2 21 s H2 ... P12 1 s H12), so each hook copy is nearer the next prompt than its
 * own. Mutual first choice pairs one link per round: capped at ten rounds, it left H1 and H2 in events.
 */
function chainTimes(): { prompts: number[]; hooks: number[] } {
  const times = [T0];
  for (let gap = 23; gap >= 1; gap--) times.push(times[times.length - 1] + gap * 1000);
  return { prompts: times.filter((_, i) => i % 2 === 0), hooks: times.filter((_, i) => i % 2 === 1) };
}

/** The chain host: an SDK session (manifest and messages file) and its hooks.jsonl prompt_submit lines. */
function writeChainHost(root: string): void {
  const data = path.join(root, 'home', 'u', '.cline', 'data');
  const dir = path.join(data, 'sessions', SID);
  mkdirSync(dir, { recursive: true });
  mkdirSync(path.join(data, 'logs'), { recursive: true });
  const { prompts, hooks } = chainTimes();
  const manifest = sdkManifest(SID, T0 - 1000, 'continue', 4100);
  writeFileSync(path.join(dir, `${SID}.json`), JSON.stringify(manifest, null, 2));
  const messages = prompts.map((ts, i) => ({ id: `m${i + 1}`, role: 'user', content: 'continue', ts }));
  writeFileSync(path.join(dir, `${SID}.messages.json`), JSON.stringify({ version: 1, agent: 'lead', sessionId: SID, messages }));
  const lines = hooks.map((ts) =>
    JSON.stringify({
      ts: new Date(ts).toISOString(),
      clineVersion: '4.1.25',
      taskId: 'conv_1770000000001_x',
      sessionContext: { rootSessionId: SID },
      workspaceRoots: ['/home/u/proj'],
      hookName: 'prompt_submit',
      userPromptSubmit: { prompt: 'continue', attachments: [] },
    }),
  );
  writeFileSync(path.join(data, 'logs', 'hooks.jsonl'), `${lines.join('\n')}\n`);
}

beforeAll(async () => {
  assertBuilt();
  mkdirSync(fleet, { recursive: true });
  const demo = path.join(REPO, 'fixtures', 'fleet');
  for (const host of readdirSync(demo, { withFileTypes: true }).filter((d) => d.isDirectory()))
    symlinkSync(path.join(demo, host.name), path.join(fleet, host.name));
  makeControlHost(fleet);
  writeChainHost(path.join(fleet, CHAIN_HOST));
  runs = [];
  for (const out of outs) runs.push(await load(fleet, out));
}, 300_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

const one = async (out: string, sql: string): Promise<unknown[]> => (await query(out, sql))[0];

describe('row_id', () => {
  it('loads', () => {
    for (const run of runs) expect(run.code, describeRun(run)).toBe(0);
  });

  it('is unique and never null over raw_events and events, where (host, store, source_file, source_line, source_seq) is not', async () => {
    const [out] = outs;
    const [rows, ids, oldKeys, nulls] = await one(
      out,
      `select count(*)::INTEGER, count(distinct row_id)::INTEGER, count(distinct (host, store, source_file, source_line, source_seq))::INTEGER,
              count(*) filter (where row_id is null)::INTEGER from raw_events`,
    );
    expect(nulls).toBe(0);
    expect(ids).toBe(rows);
    // the fixtures make the old key ambiguous (task_metadata.json's model_usage, environment_history and
    // files_in_context entries each start at line 1), so the check above can fail
    expect(oldKeys as number).toBeLessThan(rows as number);
    expect(
      await one(
        out,
        `select count(*) filter (where store = 'vscode-tasks' and source_file like '%/task_metadata.json')::INTEGER > 3 from raw_events`,
      ),
    ).toEqual([true]);
    const [events, eventIds] = await one(out, `select count(*)::INTEGER, count(distinct row_id)::INTEGER from events`);
    expect(eventIds).toBe(events);
  });

  it('is the same on a second load of the same evidence into another OUT', async () => {
    const idsOf = async (out: string) =>
      (await query(out, `select host, store, source_file, file_row, row_id::VARCHAR from raw_events order by all`)).map((r) =>
        r.join('|'),
      );
    const [first, second] = [await idsOf(outs[0]), await idsOf(outs[1])];
    expect(first.length).toBeGreaterThan(100);
    expect(second).toEqual(first);
  });

  it('is the MD5 of host, store, source_file and file_row, as the text of a UUID that compares with that text', async () => {
    const [out] = outs;
    const rows = await query(out, `select host, store, source_file, file_row, row_id::VARCHAR, typeof(row_id) from raw_events`);
    expect(rows.length).toBeGreaterThan(100);
    for (const [host, store, file, fileRow, id, type] of rows) {
      const md5 = createHash('md5')
        .update([host, store, file, String(fileRow)].join('\0'))
        .digest('hex');
      expect([id, type]).toEqual([md5.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5'), 'UUID']);
    }
    const [host, , , , id] = rows[0] as string[];
    // a text compares with it as it is, with or without its dashes
    expect(await one(out, `select host from raw_events where row_id = '${id}'`)).toEqual([host]);
    expect(await one(out, `select host from raw_events where row_id = '${id.replace(/-/g, '')}'`)).toEqual([host]);
  });

  it('joins duplicates to the rows it names in raw_events', async () => {
    const [out] = outs;
    const [dropped, matched] = await one(
      out,
      `select count(*)::INTEGER, count(r.row_id)::INTEGER from duplicates d
       left join raw_events r on r.row_id = d.dropped_row_id and r.store = d.dropped_store and r.source_file = d.dropped_source_file`,
    );
    expect(dropped as number).toBeGreaterThan(12);
    expect(matched).toBe(dropped);
  });
});

describe('twelve identical prompts in a chain, primary transcript and hooks.jsonl copies', () => {
  it('drops every hook copy, each for its own transcript prompt, and keeps every prompt', async () => {
    const [out] = outs;
    const h = lit(CHAIN_HOST);
    expect(
      await one(out, `select count(*)::INTEGER from raw_events where host = ${h} and store = 'hooks-log' and turn_type = 'user'`),
    ).toEqual([12]);
    expect(await one(out, `select count(*)::INTEGER from events where host = ${h} and store = 'hooks-log'`)).toEqual([0]);
    expect(
      await one(out, `select count(*)::INTEGER from events where host = ${h} and store = 'sdk-sessions' and turn_type = 'user'`),
    ).toEqual([12]);
    // hook line n (1-based) is the copy of message n
    expect(
      await query(
        out,
        `select dropped_source_line::INTEGER, kept_source_line::INTEGER from duplicates where host = ${h} order by 1`,
      ),
    ).toEqual(Array.from({ length: 12 }, (_, i) => [i + 1, i + 1]));
    expect(await query(out, `select distinct rule from duplicates where host = ${h}`)).toEqual([['hook_text']]);
  });
});

describe('the catalog', () => {
  const MARTS = [
    'events',
    'sessions',
    'duplicates',
    'files',
    'load_runs',
    'secrets',
    'raw_events',
    'raw_files',
    'raw_runs',
    'raw_secrets',
  ];
  const list = MARTS.map(lit).join(', ');

  it('states the grain of every mart', async () => {
    const rows = await query(
      outs[0],
      `select table_name, comment from duckdb_tables() where table_name in (${list})
       union all select view_name, comment from duckdb_views() where view_name in (${list}) order by 1`,
    );
    expect(rows.map((r) => r[0])).toEqual([...MARTS].sort());
    for (const [name, comment] of rows) expect(String(comment ?? ''), String(name)).toMatch(/Grain: one row per /);
  });

  it('documents every column of every mart', async () => {
    const rows = await query(
      outs[0],
      `select table_name, column_name, comment from duckdb_columns() where table_name in (${list})`,
    );
    expect(new Set(rows.map((r) => r[0]))).toEqual(new Set(MARTS));
    const undocumented = rows
      .filter((r) => typeof r[2] !== 'string' || (r[2] as string).trim() === '')
      .map((r) => `${r[0]}.${r[1]}`);
    expect(undocumented).toEqual([]);
  });

  it('explains each column of events as raw_events does', async () => {
    const differing = await query(
      outs[0],
      `select e.column_name from duckdb_columns() e join duckdb_columns() r using (column_name)
       where e.table_name = 'events' and r.table_name = 'raw_events' and e.comment is distinct from r.comment`,
    );
    expect(differing).toEqual([]);
  });
});
