/**
 * A model that fails to build costs nothing that was already loaded: the load ends with exit 1 and one
 * `clinetrail:` line naming the model file, the previous fleet.duckdb answers exactly as before, and the
 * next load, with nothing changed in the images, rebuilds the warehouse with the new host in it. The
 * failure is real: DuckDB out of memory under a 1 MB CLINETRAIL_DUCKDB_MEMORY, as the duplicate rule
 * once failed under the default limit (issue 9 point 3).
 */
import { cpSync, existsSync, readdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/source.js';
import { assertBuilt, describeRun, makeControlHost, query, runCli, workDir, type CliRun } from './harness.js';

const work = workDir('model-failure');
const fleet = path.join(work, 'fleet');
const out = path.join(work, 'out');
const loadArgs = ['load', '--fleet', fleet, '--out', out, '--log-format', 'json'];

/** What the warehouse answers, host by host: raw rows, the timeline, sessions, files and dropped rows. */
async function answers(): Promise<unknown[][][]> {
  return [
    await query(
      out,
      `select host, store, count(*)::INTEGER, sum(hash(e::varchar))::VARCHAR from raw_events e group by all order by all`,
    ),
    await query(out, `select host, count(*)::INTEGER, sum(hash(e::varchar))::VARCHAR from events e group by all order by all`),
    await query(out, `select * from sessions order by all`),
    await query(out, `select host, store, source_file, sha256, count_rows, count_errors from files order by all`),
    await query(out, `select * from duplicates order by all`),
  ];
}

let before: unknown[][][];
let failed: CliRun;

beforeAll(async () => {
  assertBuilt();
  makeControlHost(fleet);
  const first = await runCli(loadArgs);
  if (first.code !== 0) throw new Error(`first load failed: ${describeRun(first)}`);
  before = await answers();
  // A new host, then a load whose model build runs out of memory.
  cpSync(fixture('cline-tasks', 'img'), path.join(fleet, 'h-new'), { recursive: true });
  failed = await runCli(loadArgs, { env: { CLINETRAIL_DUCKDB_MEMORY: '1MB' } });
}, 600_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a model build that fails', () => {
  it('ends the load with exit 1 and one error event naming the model file, without a stack', () => {
    expect(failed.code, describeRun(failed)).toBe(1);
    // --log-format json: the error is a JSON event like the progress events
    const errors = failed.stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { event: string; message?: string })
      .filter((e) => e.event === 'error');
    expect(errors, describeRun(failed)).toHaveLength(1);
    // the step that failed: a model file, or the parts' schemas each batch reads first (warehouse/part-schemas.ts)
    expect(errors[0].message).toMatch(
      /^warehouse: (model \d\d_[a-z_]+\.sql|reading the parts' schemas) failed: Out of Memory Error/,
    );
    expect(failed.stderr).not.toMatch(/\n\s+at /);
    expect(failed.stderr).not.toMatch(/^clinetrail:/m);
  });

  it('keeps the previous warehouse, which answers exactly as before, and leaves no temporary warehouse file', async () => {
    expect(await answers()).toEqual(before);
    expect(await query(out, `select count(*)::INTEGER from raw_events where host = 'h-new'`)).toEqual([[0]]);
    expect(readdirSync(path.join(out, 'tmp')).filter((n) => /^fleet\./.test(n))).toEqual([]);
    // the failed run left no record of a run that completed
    expect(readdirSync(path.join(out, 'state', 'runs')).filter((n) => n.endsWith('.json'))).toHaveLength(1);
  });

  it('is rebuilt by the next load, with nothing changed in the images: the new host is in, the others as before', async () => {
    expect(existsSync(path.join(out, 'state', 'models.stale'))).toBe(true);
    const next = await runCli(loadArgs);
    expect(next.code, describeRun(next)).toBe(0);
    expect(next.stderr).toMatch(/"event":"models","rebuilt":true/);
    expect(next.stdout).toMatch(/0 partition\(s\) written, \d+ unchanged/);
    expect(await query(out, `select count(*)::INTEGER > 0 from raw_events where host = 'h-new'`)).toEqual([[true]]);
    const now = await answers();
    const without = (rows: unknown[][]) => rows.filter((r) => r[0] !== 'h-new');
    expect(without(now[0])).toEqual(before[0]);
    expect(without(now[1])).toEqual(before[1]);
    expect(without(now[3])).toEqual(before[3]);
    expect(now[4]).toEqual(before[4]);
    expect(existsSync(path.join(out, 'state', 'models.stale'))).toBe(false);
  });
});
