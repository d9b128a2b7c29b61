/**
 * Hostile file CONTENT through the real CLI: truncations, encodings, wrong JSON types, unknown kinds,
 * empty files and SQLite oddities, several hostile hosts in one fleet beside an untouched control host.
 */
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SESSIONS } from '../helpers/demo-dbs.js';
import {
  assertBuilt,
  caseProblem,
  describeRun,
  expectControlAsAlone,
  load,
  makeControlHost,
  query,
  workDir,
  type CliRun,
} from './harness.js';
import {
  buildEmptyAndSqlite,
  buildEncodings,
  buildSqliteSchemas,
  buildTruncated,
  buildTypes,
  type HostileCase,
} from './hostile-images.js';

const work = workDir('content');
const controlFleet = path.join(work, 'control-fleet');
const fleet = path.join(work, 'fleet');
const out = path.join(work, 'out');
mkdirSync(fleet, { recursive: true });
const controlRoot = makeControlHost(controlFleet);
symlinkSync(controlRoot, path.join(fleet, 'control'));
const builders = [
  buildTruncated(fleet),
  buildEncodings(fleet),
  buildTypes(fleet),
  buildEmptyAndSqlite(fleet),
  ...buildSqliteSchemas(fleet),
];
const cases: HostileCase[] = builders.flatMap((b) => b.cases);

let run: CliRun;
beforeAll(async () => {
  assertBuilt();
  run = await load(fleet, out, { timeoutMs: 300_000 });
}, 320_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe(`hostile content: ${cases.length} planted files in ${builders.length} hosts, one load`, () => {
  it('the load finishes within the bound and exits 0', () => {
    expect(run.timedOut, describeRun(run)).toBe(false);
    expect(run.code, describeRun(run)).toBe(0);
  });

  it('the control host loads exactly as when loaded alone', async () => {
    await expectControlAsAlone(out, controlFleet);
  });

  it.each(cases.map((c) => [`${c.host}: ${c.what}`, c] as const))('%s', async (_name, c) => {
    expect(await caseProblem(out, c)).toBeNull();
  });

  it('keeps the good records before a truncation point (nothing readable is dropped)', async () => {
    // Truncated after the third complete element: the first elements are still rows.
    const rows = await query(
      out,
      `select count(*) from raw_events where host = 'h-trunc' and kind <> 'parser' and store = 'cline-tasks'`,
    );
    expect(Number(rows[0][0])).toBeGreaterThan(0);
  });

  it('cuts no row for a repaired encoding: invalid bytes become U+FFFD, lone surrogates survive as U+FFFD', async () => {
    const rows = await query(out, `select text from raw_events where host = 'h-enc' and kind = 'say:text' order by text`);
    const texts = rows.map((r) => String(r[0]));
    expect(texts.some((t) => t.startsWith('bad ') && t.includes('\ufffd'))).toBe(true);
    expect(texts.some((t) => t.startsWith('lone '))).toBe(true);
  });

  it('keeps unknown kinds and block types as their own kind instead of dropping them', async () => {
    const kinds = (await query(out, `select distinct kind from raw_events where host = 'h-types' order by 1`)).map((r) => r[0]);
    expect(kinds).toEqual(expect.arrayContaining(['ask:no_such_ask_kind', 'say:no_such_say_kind', 'block:no_such_block']));
  });

  it('reads every session of a sessions table declared WITHOUT ROWID, with no parser row', async () => {
    const where = `host = 'h-sqlite-norowid' and store = 'sessions-db'`;
    expect(await query(out, `select count(*) from raw_events where ${where} and kind = 'parser'`)).toEqual([['0']]);
    const ids = await query(out, `select distinct session_id from raw_events where ${where} order by 1`);
    expect(ids).toEqual(DEMO_SESSIONS.map((s) => [s.session_id]).sort());
  });

  it('every hostile host file is in the files table (none silently missing)', async () => {
    const listed = new Set((await query(out, `select host || '/' || source_file from files`)).map((r) => String(r[0])));
    const missing = cases.filter((c) => c.expect !== 'problem' && !listed.has(`${c.host}/${c.file}`));
    expect(missing).toEqual([]);
  });
});
