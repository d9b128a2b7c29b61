/**
 * `clinetrail export` (issue 13.2): Timesketch lines carry every field Timesketch's JSONL import needs,
 * with the JSON types and the values of the warehouse's rows; jsonl, csv and parquet files read back by
 * DuckDB give the rows of the selection exactly; `--to` inside OUT or an existing file is refused with
 * exit 2 and nothing written; an export larger than DuckDB's memory limit completes. Loads the demo fleet
 * with the real CLI (`dist/`, built by make test) and runs each export through it.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/source.js';
import { snapshotTree as snapshot } from '../hostile/harness.js';
import { queryWarehouse } from '../../src/warehouse/build.js';

const CLI = path.join(REPO, 'dist', 'src', 'cli', 'main.js');
const TIME = '/usr/bin/time';

function runCli(args: string[], env: Record<string, string> = {}): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [CLI, ...args], {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, TZ: 'America/New_York', ...env },
    timeout: 300_000,
  });
}

let tmp = '';
let out = '';
let dest = '';

beforeAll(() => {
  if (!fs.existsSync(CLI))
    throw new Error(`${path.relative(REPO, CLI)} not found: build first (npx tsc -p tsconfig.json, or make test)`);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'clinetrail-export-'));
  out = path.join(tmp, 'out');
  dest = path.join(tmp, 'exports');
  fs.mkdirSync(dest);
  const load = runCli(['load', '--fleet', 'fixtures/fleet', '--out', out, '--quiet']);
  if (load.status !== 0) throw new Error(`load failed (${load.status}): ${load.stderr}`);
});

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** Rows of a query on the warehouse that may read the exports' folder. */
const sql = async (text: string) => (await queryWarehouse(out, text, { allowRead: [dest] })).rows;

/** The events view's columns and types, for DuckDB to read an export back with them. */
async function eventColumns(): Promise<string> {
  const rows = await sql('select column_name, column_type from (describe events)');
  return `{${rows.map(([name, type]) => `${name}: '${type}'`).join(', ')}}`;
}

describe('clinetrail export --format timesketch', () => {
  it("writes every row with message, datetime, timestamp, timestamp_desc and its fields, an undated one at its file's time", async () => {
    const file = path.join(dest, 'timeline.jsonl');
    const r = runCli(['export', '--out', out, '--format', 'timesketch', '--to', file]);
    expect([r.status, r.stdout], r.stderr).toEqual([0, '']);
    const summary = /(\d+) row\(s\) written, (\d+) undated row\(s\) left out, (\d+) undated row\(s\) at their file's time/.exec(
      r.stderr,
    );
    expect(summary, r.stderr).not.toBeNull();
    const lines = fs
      .readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const [[total, undated]] = await sql(
      'select count(*)::INTEGER, count(*) filter (timestamp_utc is null)::INTEGER from events',
    );
    // every undated row of events names a file of files: none is left out
    expect(lines.length).toBe(Number(summary?.[1]));
    expect([Number(summary?.[2]), Number(summary?.[3])]).toEqual([0, undated]);
    expect(lines.length).toBe(total);
    expect(Number(undated)).toBeGreaterThan(0); // the demo fleet has undated rows: their placing is tested

    const rows = await sql(
      `select e.row_id::varchar, e.host, e.store, e.session_id, e.tool_name, e.source_file, e.source_line,
         epoch_us(coalesce(e.timestamp_utc, f.mtime_utc)), e.text, e.kind, e.timestamp_utc is null, e.timestamp_source
       from events e left join files f using (host, store, source_file)`,
    );
    // the lines keep the events' order
    expect(lines.map((l) => l.row_id)).toEqual((await sql('select row_id::varchar from events')).map((row) => row[0]));
    const byId = new Map(rows.map((row) => [row[0] as string, row]));
    const descs = new Set<string>();
    for (const line of lines) {
      expect(typeof line.message).toBe('string');
      expect(typeof line.timestamp).toBe('number');
      expect(line.datetime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
      expect(typeof line.row_id).toBe('string');
      const [, host, store, session, tool, file_, lineNo, micros, text, kind, isUndated, source] =
        byId.get(line.row_id as string) ?? [];
      expect(line).toMatchObject({
        host,
        store,
        session_id: session,
        tool_name: tool,
        source_file: file_,
        timestamp_source: source,
      });
      expect(line.source_line).toBe(lineNo === null ? null : Number(lineNo));
      expect(BigInt(line.timestamp as number)).toBe(BigInt(micros as string));
      // timestamp_desc says what the time is: the file's for an undated row or a file_mtime one
      const fileTime = isUndated === true || source === 'file_mtime';
      expect(line.timestamp_desc).toMatch(fileTime ? /^File modified time/ : /^Cline record time/);
      descs.add(line.timestamp_desc as string);
      // datetime and timestamp are the same instant
      const ms = Date.parse((line.datetime as string).replace(/(\.\d{3})\d{3}/, '$1'));
      expect(BigInt(ms) * 1000n + BigInt((line.datetime as string).slice(23, 26))).toBe(BigInt(micros as string));
      expect(line.message).toContain(`[${kind}`);
      if (typeof text === 'string' && text.length > 0) expect(line.message).toContain(text.slice(0, 40));
    }
    expect(descs).toContain('File modified time (the row records no time)');
  });

  it('leaves out and counts the undated rows of a selection that does not name their file', () => {
    const file = path.join(dest, 'unnamed.jsonl');
    const r = runCli([
      'export',
      '--out',
      out,
      '--format',
      'timesketch',
      '--sql',
      'select timestamp_utc, kind, text from events',
      '--to',
      file,
    ]);
    expect([r.status, r.stdout], r.stderr).toEqual([0, '']);
    const summary = /(\d+) row\(s\) written, (\d+) undated row\(s\) left out, 0 undated row\(s\) at their file's time/.exec(
      r.stderr,
    );
    expect(summary, r.stderr).not.toBeNull();
    expect(Number(summary?.[2])).toBeGreaterThan(0);
    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines.length).toBe(Number(summary?.[1]));
  });
});

describe('clinetrail export --format jsonl|csv|parquet', () => {
  const readers: Record<string, (file: string, columns: string) => string> = {
    jsonl: (file, columns) => `read_json('${file}', format = 'newline_delimited', columns = ${columns})`,
    csv: (file, columns) => `read_csv('${file}', header = true, columns = ${columns})`,
    // row_id (a UUID) is its text in Parquet too: no reader gets 16 bytes instead of its text
    parquet: (file) => `(select * replace (row_id::uuid as row_id) from read_parquet('${file}'))`,
  };
  for (const format of Object.keys(readers)) {
    it(`${format}: DuckDB reads back the rows of the selection`, async () => {
      const file = path.join(dest, `events.${format}`);
      const where = "host <> 'lnx-u01' or text like '%''%'";
      const r = runCli(['export', '--out', out, '--format', format, '--to', file, '--where', where]);
      expect(r.status, r.stderr).toBe(0);
      const back = readers[format](file, await eventColumns());
      const selection = `select * from events where ${where}`;
      const [[n, missing, extra]] = await sql(
        `select (select count(*) from ${back})::INTEGER,
          (select count(*) from (${selection} except all select * from ${back}))::INTEGER,
          (select count(*) from (select * from ${back} except all ${selection}))::INTEGER`,
      );
      const [[selected]] = await sql(`select count(*)::INTEGER from (${selection})`);
      expect([n, missing, extra]).toEqual([selected, 0, 0]);
      expect(r.stderr).toContain(`${selected} row(s) written (${format})`);
    });
  }

  it('jsonl writes times as ISO 8601 UTC and row_id as a string whatever TZ is; a query selection works', () => {
    const file = path.join(dest, 'q.jsonl');
    const r = runCli([
      'export',
      '--out',
      out,
      '--format',
      'jsonl',
      '--to',
      file,
      '--sql',
      "select timestamptz '2026-03-08 07:30:00.5+00' as t, 7::bigint as n, 9007199254740993::bigint as big, null::varchar as z, '' as e;",
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
      t: '2026-03-08T07:30:00.500000Z',
      n: 7,
      big: '9007199254740993',
      z: null,
      e: '',
    });
  });
});

describe('clinetrail export refuses a --to it must not write', () => {
  it('--to inside OUT (given or through a link) exits 2, one line, and nothing is written', () => {
    const before = snapshot(out);
    const link = path.join(tmp, 'link-to-out');
    fs.symlinkSync(out, link);
    for (const to of [path.join(out, 'x.jsonl'), path.join(out, 'parquet', 'x.parquet'), path.join(link, 'y.csv')]) {
      const r = runCli(['export', '--out', out, '--format', 'csv', '--to', to]);
      expect([r.status, r.stdout], to).toEqual([2, '']);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^clinetrail: export: --to .* is inside the warehouse/);
    }
    expect(snapshot(out)).toEqual(before);
  });

  it('an existing --to exits 2 unless --force; a failed export leaves no file and no staging folder', () => {
    const file = path.join(dest, 'exists.csv');
    fs.writeFileSync(file, 'keep me');
    const r = runCli(['export', '--out', out, '--format', 'csv', '--to', file]);
    expect([r.status, fs.readFileSync(file, 'utf8')]).toEqual([2, 'keep me']);
    expect(r.stderr).toMatch(/^clinetrail: export: --to .* exists \(--force replaces it\)\n$/);
    const forced = runCli(['export', '--out', out, '--format', 'csv', '--to', file, '--force', '--sql', 'select 1 as a']);
    expect([forced.status, fs.readFileSync(file, 'utf8')]).toEqual([0, 'a\n1\n']);
    const failed = runCli(['export', '--out', out, '--format', 'csv', '--to', path.join(dest, 'no.csv'), '--sql', 'select nope']);
    expect(failed.status).toBe(1);
    expect(failed.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(fs.readdirSync(dest).filter((n) => n === 'no.csv' || n.startsWith('.clinetrail-export-'))).toEqual([]);
  });

  it('a write disguised as a selection is refused as query refuses it', () => {
    const r = runCli([
      'export',
      '--out',
      out,
      '--format',
      'csv',
      '--to',
      path.join(dest, 'w.csv'),
      '--sql',
      "copy events to '/tmp/x.csv'",
    ]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^clinetrail: export: the warehouse is read-only/);
  });
});

describe('clinetrail export of a result larger than DuckDB memory', () => {
  it('completes in bounded memory (peak RSS reported)', () => {
    const file = path.join(dest, 'big.csv');
    const rows = 1_500_000;
    // ~320 MB of CSV, sorted (the sort spills) against a memory limit of 128 MB (at 64 MB, DuckDB 1.5.6
    // cannot pin the sort's blocks on two threads: an Out of Memory error, exit 1)
    const query = `select i, repeat('x', 200) || i::varchar as t from range(${rows}) r(i) order by i desc`;
    const args = [CLI, 'export', '--out', out, '--format', 'csv', '--to', file, '--sql', query];
    const timed = fs.existsSync(TIME);
    const r = spawnSync(timed ? TIME : process.execPath, timed ? ['-v', process.execPath, ...args] : args, {
      cwd: REPO,
      encoding: 'utf8',
      env: { ...process.env, CLINETRAIL_DUCKDB_MEMORY: '128MB' },
      timeout: 600_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain(`${rows} row(s) written (csv)`);
    const size = fs.statSync(file).size;
    expect(size).toBeGreaterThan(300e6); // larger than the limit
    const fd = fs.openSync(file, 'r');
    const head = Buffer.alloc(512);
    fs.readSync(fd, head, 0, 512, 0);
    fs.closeSync(fd);
    expect(head.toString().split('\n').slice(0, 2)).toEqual(['i,t', `${rows - 1},${'x'.repeat(200)}${rows - 1}`]);
    const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1];
    console.log(
      `export of ${(size / 1e6).toFixed(0)} MB at a 128 MB memory limit: peak RSS ${rss ? `${(Number(rss) / 1024).toFixed(0)} MB` : 'not measured (no /usr/bin/time)'}`,
    );
    fs.rmSync(file);
  }, 600_000);
});
