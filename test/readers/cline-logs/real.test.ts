/**
 * readers/cline-logs/reader.ts on the logs the released CLIs wrote when corpus/drive.ts drove them
 * (fixtures/real-producer, read-only: every file is hashed before and after). What the driver did, and
 * when, is its record facts.json: each expectation comes from it, never from what the reader printed.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Row } from '../../../src/core/row.js';
import { discoverImage } from '../../../src/discover/discover.js';
import { readClineLogs } from '../../../src/readers/cline-logs/reader.js';
import { collect, fixture, listFiles } from '../../helpers/source.js';

interface Run {
  startedAt: string;
  endedAt: string;
  exitCode: number | null;
}
interface Facts {
  auth: Run[];
  sessions: Array<{
    id: string;
    observedSessionId: string | null;
    deleted: boolean;
    /** The driver denied the session's command: it never ran (corpus/attacks.ts). */
    denied?: boolean;
    provider: string;
    model: string;
    commands: Array<{ command: string; expectedExitCode: number }>;
    runs: Run[];
  }>;
}

/** A run's window in epoch ms. Its start is taken down to the second: Go's log writes whole seconds. */
const windowOf = (r: Run): [number, number] => [Math.floor(Date.parse(r.startedAt) / 1000) * 1000, Date.parse(r.endedAt)];
const within = (t: number, r: Run) => t >= windowOf(r)[0] && t <= windowOf(r)[1];

/** SHA-256 of every file under a folder, by path. */
function hashes(dir: string): Record<string, string> {
  return Object.fromEntries(listFiles(dir).map((f) => [f, createHash('sha256').update(readFileSync(f)).digest('hex')]));
}

/** The facts of one corpus version, its cline-logs rows (discovery's sources, both roots), and every invocation. */
async function corpus(version: string) {
  const dir = fixture('real-producer', version);
  const facts = JSON.parse(readFileSync(path.join(dir, 'facts.json'), 'utf8')) as Facts;
  const found = await discoverImage({ host: version, root: path.join(dir, 'home') });
  const rows: Row[] = [];
  for (const source of found.sources.filter((s) => s.store === 'cline-logs'))
    rows.push(...(await collect(readClineLogs, source)));
  const invocations = [...facts.auth, ...facts.sessions.flatMap((s) => s.runs)];
  return { dir, facts, rows, invocations, problems: found.problems };
}

const before = {
  v1: hashes(fixture('real-producer', 'cline-1.0.10')),
  v3: hashes(fixture('real-producer', 'cline-3.0.65')),
};
afterAll(() => {
  expect(hashes(fixture('real-producer', 'cline-1.0.10'))).toEqual(before.v1);
  expect(hashes(fixture('real-producer', 'cline-3.0.65'))).toEqual(before.v3);
});

describe('the 1.x Go CLI logs (~/.cline/logs, cline 1.0.10)', async () => {
  const { dir, facts, rows, invocations, problems } = await corpus('cline-1.0.10');
  // The driver starts cline-core and its host bridge itself, once per instance, and sends the sessions to
  // them one after another (corpus/README.md); a session ends by the time the next one starts.
  const starts = facts.sessions.map((s) => Date.parse(s.runs[0].startedAt)).sort((a, b) => a - b);
  const driven: [number, number] = [
    Math.min(...invocations.map((r) => windowOf(r)[0])),
    Math.max(...invocations.map((r) => windowOf(r)[1])) + 60_000,
  ];
  const sessionWindow = (s: Facts['sessions'][number]): [number, number] => {
    const start = Date.parse(s.runs[0].startedAt);
    return [Math.floor(start / 1000) * 1000, starts.find((t) => t > start) ?? driven[1]];
  };
  const inWindow = (t: number, [from, to]: [number, number]) => t >= from && t <= to;

  it('reads every core and host log, as many of each, with no parser row; an empty log (a core that died at once) gives none', () => {
    expect(problems).toEqual([]);
    expect(rows.filter((r) => r.kind === 'parser')).toEqual([]);
    const logs = path.join(dir, 'home', '.cline', 'logs');
    const onDisk = readdirSync(logs);
    const core = onDisk.filter((f) => f.startsWith('cline-core-'));
    expect(core.length).toBeGreaterThan(0);
    expect(onDisk.filter((f) => f.startsWith('cline-host-'))).toHaveLength(core.length);
    const files = [...new Set(rows.map((r) => path.basename(r.source_file)))].sort();
    expect(files).toEqual(onDisk.filter((f) => statSync(path.join(logs, f)).size > 0).sort());
  });

  it('puts every timed record inside the time the driver ran: the wall clock (TZ=UTC in the run) read as UTC', () => {
    const times = rows.map((r) => r.timestamp_utc).filter((t): t is number => t !== null);
    expect(times.length).toBeGreaterThan(100);
    expect(times.filter((t) => !inWindow(t, driven))).toEqual([]);
  });

  it("names each session's task in records of that session's time, and names no other task", () => {
    // not only there: an instance takes a task's folder lock again when another task is opened after it
    const named = facts.sessions.filter((s) => s.observedSessionId !== null);
    expect(named.length).toBeGreaterThan(5);
    for (const s of named) {
      const own = rows.filter(
        (r) => r.session_id === s.observedSessionId && r.timestamp_utc !== null && inWindow(r.timestamp_utc, sessionWindow(s)),
      );
      expect(own.length, s.id).toBeGreaterThan(0);
    }
    expect(rows.filter((r) => r.session_id !== null).every((r) => named.some((s) => s.observedSessionId === r.session_id))).toBe(
      true,
    );
  });

  it('records each command the driver had run, the one that exits 3 included, in its session time', () => {
    const commands = facts.sessions
      .filter((s) => s.observedSessionId !== null && s.denied !== true)
      .flatMap((s) => s.commands.map((c) => ({ s, c })));
    expect(commands.some(({ c }) => c.expectedExitCode === 3)).toBe(true);
    for (const { s, c } of commands) {
      const found = rows.filter(
        (r) => r.timestamp_utc !== null && inWindow(r.timestamp_utc, sessionWindow(s)) && r.text?.endsWith(c.command),
      );
      expect(found.length, `${s.id}: ${c.command}`).toBeGreaterThan(0);
    }
  });
});

describe('the 3.x CLI and hub daemon logs (~/.cline/data/logs, cline 3.0.65)', async () => {
  const { facts, rows, invocations, problems } = await corpus('cline-3.0.65');
  const cliLog = rows.filter((r) => r.source_file.endsWith('/logs/cline.log'));
  const hubLog = rows.filter((r) => r.source_file.endsWith('/logs/hub-daemon.log'));

  it('reads cline.log and hub-daemon.log, not hooks.jsonl, with no parser row', () => {
    expect(problems).toEqual([]);
    expect([...new Set(rows.map((r) => path.basename(r.source_file)))].sort()).toEqual(['cline.log', 'hub-daemon.log']);
    expect(rows.filter((r) => r.kind === 'parser')).toEqual([]);
    expect(cliLog.length).toBeGreaterThan(0);
    expect(hubLog.length).toBeGreaterThan(0);
  });

  it("puts every record of the CLI's log inside an invocation, and every hub record after the first began", () => {
    expect(cliLog.every((r) => r.timestamp_utc !== null && invocations.some((run) => within(r.timestamp_utc!, run)))).toBe(true);
    const first = Math.min(...invocations.map((r) => windowOf(r)[0]));
    expect(hubLog.filter((r) => r.timestamp_utc !== null).every((r) => r.timestamp_utc! >= first)).toBe(true);
  });

  it("names every session, the deleted one included, only inside that session's runs, with its provider and model", () => {
    const named = facts.sessions.filter((s) => s.observedSessionId !== null);
    expect(named.some((s) => s.deleted)).toBe(true);
    expect(named.some((s) => s.provider !== named[0].provider)).toBe(true);
    for (const s of named) {
      const own = rows.filter((r) => r.session_id === s.observedSessionId);
      expect(own.length, s.id).toBeGreaterThan(0);
      expect(
        own.every((r) => r.timestamp_utc !== null && s.runs.some((run) => within(r.timestamp_utc!, run))),
        s.id,
      ).toBe(true);
      const withModel = own.filter((r) => r.provider !== null || r.model !== null);
      expect(withModel.length, s.id).toBeGreaterThan(0);
      expect([...new Set(withModel.map((r) => `${r.provider} ${r.model}`))], s.id).toEqual([`${s.provider} ${s.model}`]);
    }
  });
});
