/**
 * readers/cline-logs.ts on the logs the released CLIs wrote when corpus/drive.ts drove them
 * (fixtures/real-producer, read-only: every file is hashed before and after). What the driver did, and
 * when, is its record facts.json: each expectation comes from it, never from what the reader printed.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Row } from '../../src/core/row.js';
import { discoverImage } from '../../src/discover/discover.js';
import { readClineLogs } from '../../src/readers/cline-logs.js';
import { collect, fixture, listFiles } from '../helpers/source.js';

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

/** The timed rows of each file. */
function byFile(rows: Row[]): Map<string, number[]> {
  const files = new Map<string, number[]>();
  for (const r of rows)
    if (r.timestamp_utc !== null) files.set(r.source_file, [...(files.get(r.source_file) ?? []), r.timestamp_utc]);
  return files;
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
  const { facts, rows, invocations, problems } = await corpus('cline-1.0.10');

  it('reads a core and a host log for each invocation of the CLI, with no parser row', () => {
    expect(problems).toEqual([]);
    expect(rows.filter((r) => r.kind === 'parser')).toEqual([]);
    const files = [...new Set(rows.map((r) => path.basename(r.source_file)))];
    // corpus/README.md: each run starts its own pair; the driver ran auth twice and one run per session
    expect(files.filter((f) => f.startsWith('cline-core-'))).toHaveLength(invocations.length);
    expect(files.filter((f) => f.startsWith('cline-host-'))).toHaveLength(invocations.length);
  });

  it("puts every timed record of a file inside one invocation's window: the wall clock (TZ=UTC in the run) read as UTC", () => {
    const files = byFile(rows);
    expect(files.size).toBe(2 * invocations.length);
    for (const [file, times] of files) {
      const owners = invocations.filter((r) => times.every((t) => within(t, r)));
      expect(owners, file).toHaveLength(1);
    }
    // the second-provider auth and run failed (exit 1): their processes logged inside their windows too
    for (const failed of invocations.filter((r) => r.exitCode !== 0)) {
      expect([...files.values()].some((times) => times.every((t) => within(t, failed)))).toBe(true);
    }
  });

  it("names each session's task only in the log of that session's run", () => {
    const named = facts.sessions.filter((s) => s.observedSessionId !== null);
    expect(named.length).toBeGreaterThan(5);
    const files = byFile(rows);
    for (const s of named) {
      const logs = new Set(rows.filter((r) => r.session_id === s.observedSessionId).map((r) => r.source_file));
      expect(logs.size, s.id).toBeGreaterThan(0);
      for (const file of logs)
        expect(
          files.get(file)!.every((t) => s.runs.some((r) => within(t, r))),
          `${s.id} ${file}`,
        ).toBe(true);
    }
    expect(rows.filter((r) => r.session_id !== null).every((r) => named.some((s) => s.observedSessionId === r.session_id))).toBe(
      true,
    );
  });

  it('records each command the driver had run, the one that exits 3 included, inside its run', () => {
    const commands = facts.sessions.filter((s) => s.observedSessionId !== null).flatMap((s) => s.commands.map((c) => ({ s, c })));
    expect(commands.some(({ c }) => c.expectedExitCode === 3)).toBe(true);
    for (const { s, c } of commands) {
      const found = rows.filter(
        (r) => r.timestamp_utc !== null && s.runs.some((run) => within(r.timestamp_utc!, run)) && r.text?.endsWith(c.command),
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
