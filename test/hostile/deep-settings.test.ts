/**
 * A `globalState.json` whose autoApprovalSettings is nested 100,000 levels deep, beside the other
 * settings files of the fixture, through the real CLI: that file gives one `parser:` row (its `files`
 * row names it, not the store folder) and its other rows; every other file of the store loads exactly as
 * in the untouched fixture (host `plain`).
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture, listFiles } from '../helpers/source.js';
import { describeRun, lit, load, query, workDir } from './harness.js';

const work = workDir('deepsettings');
afterAll(() => rmSync(work, { recursive: true, force: true }));

const DATA = 'home/u/.cline/data';
const STATE = `${DATA}/globalState.json`;
const DEPTH = 100_000;

describe('a settings file nested 100,000 levels deep', () => {
  it('costs one parser row of that file; every other settings file of the home loads', async () => {
    const fleet = path.join(work, 'fleet');
    const img = fixture('settings', 'img');
    cpSync(img, path.join(fleet, 'plain'), { recursive: true });
    cpSync(img, path.join(fleet, 'deep'), { recursive: true });
    const state = JSON.parse(readFileSync(path.join(img, STATE), 'utf8')) as Record<string, unknown>;
    const deepText = JSON.stringify({ ...state, autoApprovalSettings: '@DEEP@' }).replace(
      '"@DEEP@"',
      `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`,
    );
    writeFileSync(path.join(fleet, 'deep', STATE), deepText);
    const out = path.join(work, 'out');
    const run = await load(fleet, out, { timeoutMs: 300_000 });
    expect(run.code, describeRun(run)).toBe(0);

    // Every file of the fixture is listed, and the files other than globalState.json give the rows they give untouched.
    const fixtureFiles = listFiles(img)
      .map((f) => path.relative(img, f).split(path.sep).join('/'))
      .filter((f) => !f.endsWith('README.md'));
    const listed = await query(out, `select source_file from files where host = 'deep' order by 1`);
    expect(listed.map((r) => r[0])).toEqual([...fixtureFiles].sort());
    const others = (host: string) =>
      query(
        out,
        `select source_file, source_line, source_seq, kind, session_id, text from raw_events where host = ${lit(host)} and source_file <> ${lit(STATE)} order by all`,
      );
    const plainOthers = await others('plain');
    expect(plainOthers.length).toBeGreaterThan(0);
    expect(await others('deep')).toEqual(plainOthers);

    // globalState.json: one parser row naming it, and its rows that do not come from autoApprovalSettings.
    const file = await query(
      out,
      `select source_file, count_errors, first_error from files where host = 'deep' and source_file = ${lit(STATE)}`,
    );
    expect(file).toHaveLength(1);
    expect(Number(file[0][1])).toBe(1);
    expect(String(file[0][2])).toMatch(
      /^parser: home\/u\/\.cline\/data\/globalState\.json: autoApprovalSettings(\.a)*(\.\.\.)? nested deeper than 1000 levels, not read$/,
    );
    const cloudSessions = Object.keys(state.cloudSessionStatuses as object).length;
    const stateRows = await query(
      out,
      `select kind, count(*) from raw_events where host = 'deep' and source_file = ${lit(STATE)} group by all order by all`,
    );
    expect(stateRows.map((r) => [r[0], Number(r[1])])).toEqual([
      ['cloud_task_target', 1],
      ['origin', cloudSessions],
      ['parser', 1],
      ['permission', 1], // mode
      ['sync', cloudSessions],
    ]);
    const failed = await query(
      out,
      `select source_file, text from raw_events where host = 'deep' and (contains(text, 'reader failed') or contains(text, 'call stack'))`,
    );
    expect(failed).toEqual([]);
  });
});
