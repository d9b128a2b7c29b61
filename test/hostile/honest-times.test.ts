/**
 * Issue 28 point 5, honest times: a 1.x home (fixtures/real-producer/cline-1.0.10) copied off its machine
 * two days after its last session. Its task settings.json files record no time, so their rows are dated
 * by the file's mtime; before, that mtime stretched the session's end (sessions.last_timestamp_utc) to
 * the copy's time. Now every row says where its time comes from (timestamp_source), session spans count
 * recorded times only, and `--host-tz HOST=Area/City` reads the 1.x logs' naive wall clocks in the host's
 * zone and records it in hosts.
 */
import { readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyHome, corpora } from '../helpers/real-corpus.js';
import { attr, byId, elements, makeReport, tableRows, textOf } from '../helpers/report-page.js';
import { assertBuilt, describeRun, expectArgumentError, lit, load, query, runCli, type CliRun, workDir } from './harness.js';

const work = workDir('times');
afterAll(() => rmSync(work, { recursive: true, force: true }));
const fleet = path.join(work, 'fleet');
const out = path.join(work, 'out');
const outZoned = path.join(work, 'out-zoned');
const HOST = 'dev-box';
const CORPUS = corpora().find((c) => c.name === 'cline-1.0.10')!;
/** A task of the corpus with a settings.json (yoloModeToggled), and its files in the copy. */
const TASK = '1796322476548';
const TASK_DIR = path.join(fleet, HOST, '.cline', 'data', 'tasks', TASK);
const DAY = 86_400_000;

/** The times the task's own files record: its ui_messages ts and its task_metadata dates. */
function recordedTimesOfTask(): number[] {
  const ui = JSON.parse(readFileSync(path.join(TASK_DIR, 'ui_messages.json'), 'utf8')) as Array<{ ts: number }>;
  const meta = JSON.parse(readFileSync(path.join(TASK_DIR, 'task_metadata.json'), 'utf8')) as Record<
    string,
    Array<Record<string, number | null>>
  >;
  const dates = Object.values(meta).flatMap((entries) =>
    entries.flatMap((e) => Object.entries(e).filter(([k, v]) => (k === 'ts' || k.endsWith('_date')) && typeof v === 'number')),
  );
  return [...ui.map((m) => m.ts), ...dates.map(([, v]) => v as number)];
}

/** The times of the 1.x log lines that name the task (cline-core's `[2026-12-03T18:27:56.720] ...`, a wall clock on UTC). */
function loggedTimesOfTask(): number[] {
  const logs = path.join(fleet, HOST, '.cline', 'logs');
  return readdirSync(logs).flatMap((name) =>
    readFileSync(path.join(logs, name), 'utf8')
      .split('\n')
      .filter((line) => line.includes(TASK))
      .map((line) => /^\[(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})\]/.exec(line)?.[1])
      .filter((t) => t !== undefined)
      .map((t) => Date.parse(`${t}Z`)),
  );
}

let run: CliRun;
let zoned: CliRun;
let copiedAt = 0;

beforeAll(async () => {
  assertBuilt();
  copyHome(CORPUS, path.join(fleet, HOST));
  // the copy: settings.json written two days after the task's last message (the issue's 2026-12-03 14:22)
  const settings = path.join(TASK_DIR, 'settings.json');
  utimesSync(
    settings,
    new Date(Math.max(...recordedTimesOfTask()) + 2 * DAY),
    new Date(Math.max(...recordedTimesOfTask()) + 2 * DAY),
  );
  copiedAt = Math.trunc(statSync(settings).mtimeMs);
  run = await load(fleet, out);
  zoned = await runCli(['load', '--fleet', fleet, '--out', outZoned, '--full', '--host-tz', `${HOST}=Asia/Kolkata`]);
}, 300_000);

describe('a task settings.json dated by its copy', () => {
  it('loads the host', () => {
    expect(run.code, describeRun(run)).toBe(0);
  });

  it("dates its settings rows by the file's mtime and says so", async () => {
    const rows = await query(
      out,
      `select distinct epoch_ms(timestamp_utc)::DOUBLE, timestamp_source from events where session_id = ${lit(TASK)} and kind = 'task_settings'`,
    );
    expect(rows).toEqual([[copiedAt, 'file_mtime']]);
  });

  it("keeps the session's span to the times its records and the log lines naming it hold", async () => {
    const times = [...recordedTimesOfTask(), ...loggedTimesOfTask()];
    const rows = await query(
      out,
      `select epoch_ms(first_timestamp_utc)::DOUBLE, epoch_ms(last_timestamp_utc)::DOUBLE from sessions where host = ${lit(HOST)} and session_id = ${lit(TASK)}`,
    );
    expect(rows).toEqual([[Math.min(...times), Math.max(...times)]]);
  });

  it('says of every row where its time comes from, and of an undated row nothing', async () => {
    const rows = await query(out, `select distinct store, timestamp_source from events where host = ${lit(HOST)} order by all`);
    const sources = new Map<string, Set<unknown>>();
    for (const [store, source] of rows) sources.set(store as string, (sources.get(store as string) ?? new Set()).add(source));
    expect(sources.get('cline-tasks')).toEqual(new Set(['recorded', 'file_mtime']));
    expect(sources.get('cline-logs')).toEqual(new Set([null, 'local_clock']));
    const mismatched = await query(
      out,
      `select count(*) from events where (timestamp_utc is null) <> (timestamp_source is null)
         or timestamp_source not in ('recorded', 'local_clock', 'derived', 'file_mtime')`,
    );
    expect(mismatched).toEqual([['0']]);
  });

  it("shows in the report the span of the recorded times, not the copy's", async () => {
    const { doc } = await makeReport(out, path.join(work, 'report.html'));
    const [[recorded, firstCopied]] = await query(
      out,
      `select strftime(max(timestamp_utc) filter (where timestamp_source in ('recorded', 'local_clock')), '%Y-%m-%dT%H:%M:%SZ'),
         strftime(min(timestamp_utc) filter (where timestamp_source = 'file_mtime'), '%Y-%m-%dT%H:%M:%SZ') from events where host = ${lit(HOST)}`,
    );
    expect(textOf(byId(doc, 'glance-last'))).toBe(recorded);
    // every file_mtime row of the copy is later than the last recorded time: the page shows none of them
    expect(Date.parse(recorded as string)).toBeLessThan(Date.parse(firstCopied as string));
  });
});

describe('a finding on a file dated by the copy', () => {
  it("takes its evidence row's time source: file_mtime for a setting, recorded for a message", async () => {
    const rows = await query(
      out,
      `select f.hunt_id, f.timestamp_source, e.timestamp_source, epoch_ms(f.timestamp_utc)::DOUBLE = epoch_ms(e.timestamp_utc)::DOUBLE
         from findings f join events e using (row_id) order by all`,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const [hunt, found, evidence, sameTime] of rows) expect([hunt, found, sameTime]).toEqual([hunt, evidence, true]);
    const settings = await query(
      out,
      `select count(*) from findings where source_file = ${lit(`.cline/data/tasks/${TASK}/settings.json`)} and timestamp_source = 'file_mtime'
         and epoch_ms(timestamp_utc)::DOUBLE = ${copiedAt}`,
    );
    expect(settings).toEqual([['1']]);
  });

  it("is not drawn on the report's fleet timeline, and the page says how many are not", async () => {
    const { doc } = await makeReport(out, path.join(work, 'report-timeline.html'));
    const [[recordedFindings, otherFindings]] = await query(
      out,
      `select count(*) filter (where timestamp_source in ('recorded', 'local_clock')), count(*) filter (where timestamp_source not in ('recorded', 'local_clock') or timestamp_source is null) from findings`,
    );
    const marks = elements(byId(doc, 'timeline')).filter((e) => e.tagName === 'circle' && attr(e, 'class') === 'mark-findings');
    const drawn = marks.map((m) => Number(/: ([\d,]+) finding/.exec(textOf(m))?.[1].replace(/,/g, '')));
    expect(drawn.reduce((a, b) => a + b, 0)).toBe(Number(recordedFindings));
    const copyDay = new Date(copiedAt).toISOString().slice(0, 10);
    expect(marks.map((m) => textOf(m)).filter((t) => t.includes(copyDay))).toEqual([]);
    expect(textOf(byId(doc, 'timeline'))).toContain(`${Number(otherFindings)} finding(s) without a recorded time`);
  });
  it("is marked '(file mtime)' in the report's findings table, and no recorded one is", async () => {
    const { doc } = await makeReport(out, path.join(work, 'report-findings.html'));
    const table = elements(byId(doc, 'findings')).find(
      (e) => e.tagName === 'table' && elements(e).some((h) => h.tagName === 'th' && textOf(h) === 'time (UTC)'),
    );
    if (table === undefined) throw new Error('no findings table with a time column');
    const headers = elements(table)
      .filter((e) => e.tagName === 'th')
      .map(textOf);
    const times = tableRows(table).map((r) => r[headers.indexOf('time (UTC)')]);
    const [[mtimeFindings, total]] = await query(
      out,
      `select count(*) filter (where timestamp_source = 'file_mtime'), count(*) from findings`,
    );
    expect(times.length).toBe(Number(total));
    expect(times.filter((t) => t.endsWith('(file mtime)')).length).toBe(Number(mtimeFindings));
    expect(Number(mtimeFindings)).toBeGreaterThan(0);
    expect(times.filter((t) => t.includes('(')).length).toBe(Number(mtimeFindings));
  });
});

describe('--host-tz HOST=Area/City', () => {
  it('loads the host', () => {
    expect(zoned.code, describeRun(zoned)).toBe(0);
  });

  it("reads the logs' local clocks in the host's zone, and no other time", async () => {
    const times = `select source_file, source_line, source_seq, kind, epoch_ms(timestamp_utc)::DOUBLE as t, timestamp_source from events
       where host = ${lit(HOST)} and timestamp_utc is not null order by all`;
    const plain = await query(out, times);
    const inZone = await query(outZoned, times);
    expect(inZone.length).toBe(plain.length);
    // Asia/Kolkata is UTC+05:30 all year: a wall clock there is 5 h 30 min ahead of UTC
    const shift = 5.5 * 3_600_000;
    const expected = plain.map((r) => (r[5] === 'local_clock' ? [...r.slice(0, 4), (r[4] as number) - shift, r[5]] : r));
    expect(inZone).toEqual(expected);
    expect(plain.filter((r) => r[5] === 'local_clock').length).toBeGreaterThan(0);
  });

  it('records the zone in hosts', async () => {
    expect(await query(outZoned, `select host, time_zone from hosts`)).toEqual([[HOST, 'Asia/Kolkata']]);
    expect(await query(out, `select host, time_zone from hosts`)).toEqual([[HOST, null]]);
  });

  it('reads the host again when its zone changes or is dropped, without --full', async () => {
    const times = `select source_file, source_line, source_seq, epoch_ms(timestamp_utc)::DOUBLE from events
       where host = ${lit(HOST)} and timestamp_source = 'local_clock' order by all`;
    const asUtc = await query(out, times);
    const inKolkata = await query(outZoned, times);
    const dropped = await runCli(['load', '--fleet', fleet, '--out', outZoned, '--no-hunts']);
    expect(dropped.code, describeRun(dropped)).toBe(0);
    expect(await query(outZoned, times)).toEqual(asUtc);
    expect(await query(outZoned, `select time_zone from hosts`)).toEqual([[null]]);
    const again = await runCli(['load', '--fleet', fleet, '--out', outZoned, '--no-hunts', '--host-tz', `${HOST}=Asia/Kolkata`]);
    expect(again.code, describeRun(again)).toBe(0);
    expect(await query(outZoned, times)).toEqual(inKolkata);
    expect(await query(outZoned, `select time_zone from hosts`)).toEqual([['Asia/Kolkata']]);
  });

  it('takes the zones from a CSV file of host,time_zone lines', async () => {
    const csv = path.join(work, 'zones.csv');
    writeFileSync(csv, `host,time_zone\n${HOST},Asia/Kolkata\n`);
    const outCsv = path.join(work, 'out-csv');
    const fromCsv = await runCli(['load', '--fleet', fleet, '--out', outCsv, '--no-hunts', '--host-tz', csv]);
    expect(fromCsv.code, describeRun(fromCsv)).toBe(0);
    expect(await query(outCsv, `select host, time_zone from hosts`)).toEqual([[HOST, 'Asia/Kolkata']]);
  });

  it('refuses an unknown zone, a malformed value and a host not in the input: exit 2, one line, nothing written', async () => {
    const cases: Array<[string, RegExp]> = [
      [`${HOST}=Mars/Olympus_Mons`, /--host-tz .*Mars\/Olympus_Mons.* is no time zone/],
      [`${HOST}=+05:30`, /--host-tz .*is no time zone/],
      [`${HOST}=`, /--host-tz wants HOST=Area\/City/],
      ['=Asia/Kolkata', /--host-tz wants HOST=Area\/City/],
      [path.join(work, 'no-such.csv'), /--host-tz .*no-such\.csv/],
      ['other-box=Asia/Kolkata', /--host-tz names host other-box, which is not in the input/],
    ];
    for (const [value, why] of cases) {
      const target = path.join(work, `refused-${cases.findIndex((c) => c[0] === value)}`);
      expectArgumentError(await runCli(['load', '--fleet', fleet, '--out', target, '--host-tz', value]), why);
      expect(() => readFileSync(path.join(target, 'fleet.duckdb'))).toThrow();
    }
  });
});
