/**
 * The duplicate rule on hostile but ordinary input (issue 9 point 3), through the real CLI: a host whose
 * ten CLI sessions each repeat `continue` 100 times, with a prompt history of 1,000 `continue` lines,
 * loaded beside the control host under the default DuckDB memory limit. The rule used to hold every
 * (history line, prompt) pair with both texts and sort it twice per round: Out of Memory after 21 s,
 * no fleet.duckdb, every host lost.
 */
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeRepeatedPromptsHost, type RepeatedPromptsHost } from '../../bench/repeated-prompts.js';
import {
  assertBuilt,
  describeRun,
  expectControlAsAlone,
  lit,
  load,
  makeControlHost,
  query,
  workDir,
  type CliRun,
} from './harness.js';

const work = workDir('dup');
const controlFleet = path.join(work, 'control-fleet');
const fleet = path.join(work, 'fleet');
const out = path.join(work, 'out');
const HOST = 'h-repeat';
let planted: RepeatedPromptsHost;
let run: CliRun;

beforeAll(async () => {
  assertBuilt();
  mkdirSync(fleet, { recursive: true });
  symlinkSync(makeControlHost(controlFleet), path.join(fleet, 'control'));
  planted = writeRepeatedPromptsHost(path.join(fleet, HOST), {
    sessions: 10,
    promptsPerSession: 100,
    historyLines: 1000,
    distinct: false,
  });
  // The default memory limit: the variable is the user's to set, not the test's.
  delete process.env.CLINETRAIL_DUCKDB_MEMORY;
  run = await load(fleet, out, { timeoutMs: 600_000 });
}, 900_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('10 sessions x 100 identical prompts + 1,000 identical history lines, beside the control host', () => {
  it('loads with exit 0 under the default memory limit', () => {
    expect(planted).toMatchObject({ prompts: 1000, historyLines: 1000 });
    expect(run.timedOut, describeRun(run)).toBe(false);
    expect(run.code, describeRun(run)).toBe(0);
  });

  it('the control host loads exactly as when loaded alone', async () => {
    await expectControlAsAlone(out, controlFleet);
  });

  // What the input implies: the history's last line is dated 1 s after the newest prompt, so it pairs with
  // that prompt (within 2 s); the 999 undated lines pair on text alone, one-to-one, with the 999 other
  // prompts of the same home. So all 1,000 history lines are dropped, each for its own transcript prompt,
  // and every transcript prompt stays.
  it('drops all 1,000 history lines, each for a different transcript prompt, and keeps every prompt', async () => {
    const h = lit(HOST);
    expect(
      await query(
        out,
        `select rule, count(*)::INTEGER, count(distinct kept_source_file || ':' || kept_source_line)::INTEGER from duplicates where host = ${h} group by all`,
      ),
    ).toEqual([['input_history', 1000, 1000]]);
    expect(await query(out, `select count(*)::INTEGER from events where host = ${h} and store = 'input-history'`)).toEqual([[0]]);
    expect(await query(out, `select count(*)::INTEGER from raw_events where host = ${h} and store = 'input-history'`)).toEqual([
      [1000],
    ]);
    expect(
      await query(
        out,
        `select count(*)::INTEGER from events where host = ${h} and store = 'sdk-sessions' and turn_type = 'user'`,
      ),
    ).toEqual([[1000]]);
    // The dated last line took the newest prompt, 1 s before it.
    expect(
      await query(
        out,
        `select dropped_source_line::INTEGER, distance_ms::INTEGER, epoch_ms(kept_timestamp_utc)::DOUBLE from duplicates where host = ${h} and dropped_timestamp_utc is not null`,
      ),
    ).toEqual([[1000, 1000, planted.newestPromptMs]]);
    expect(await query(out, `select count_duplicates_dropped::INTEGER from load_runs`)).toEqual([
      [1000 + (await controlDrops())],
    ]);
  });
});

/** Rows the rule drops on the control host (its fixtures repeat some transcript rows). */
async function controlDrops(): Promise<number> {
  return Number((await query(out, `select count(*) from duplicates where host = 'control'`))[0][0]);
}
