/**
 * Who drove each session (issue 31 point 5), on what the released 3.x CLI wrote: the driven corpus
 * (fixtures/real-producer/driven, corpus/gen-driven.ts) holds sessions a person typed and sessions another agent
 * handed to the CLI the way the MCP bridge of shared/spec 004 does, in one home; every generation of the
 * real-producer corpus holds only sessions the driver typed as a person would. All are loaded as one fleet by the
 * real load, whose build runs the hunt pack. Every expectation is the driver's record, facts.json: who drove each
 * session, how its prompts reached the CLI, and which providers.json fields the bridge wrote back.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryWarehouse } from '../../src/warehouse/build.js';
import { cli, type StoredFinding, storedFindings, tempOut } from '../helpers/hunt-run.js';
import { type Corpus, copyHome, corpora } from '../helpers/real-corpus.js';
import { elements, makeReport, textOf } from '../helpers/report-page.js';
import { fixture } from '../helpers/source.js';

interface DrivenSession {
  id: string;
  observedSessionId: string | null;
  drivenBy?: 'person' | 'agent';
  drivenHow?: string;
  bridgeRestored?: string[];
  prompts: Array<{ via: string }>;
  commands: Array<{ command: string }>;
  runs: Array<{ exitCode: number | null; timedOut: boolean }>;
}

const DRIVEN_ROOT = fixture('real-producer', 'driven');
const DRIVEN: Corpus[] = fs.existsSync(DRIVEN_ROOT)
  ? fs
      .readdirSync(DRIVEN_ROOT)
      .filter((name) => fs.existsSync(path.join(DRIVEN_ROOT, name, 'facts.json')))
      .map((name) => ({
        name: `driven-${name}`,
        home: path.join(DRIVEN_ROOT, name, 'home'),
        facts: JSON.parse(fs.readFileSync(path.join(DRIVEN_ROOT, name, 'facts.json'), 'utf8')),
      }))
  : [];
const ALL = [...DRIVEN, ...corpora()];
const sessionsOf = (c: Corpus) =>
  (c.facts.sessions as unknown as DrivenSession[]).filter(
    (s) => s.observedSessionId !== null && s.runs.length > 0 && s.runs.every((r) => r.exitCode === 0 && !r.timedOut),
  );
/** The driver typed it as a person would: the driven corpus says so, and every other corpus is typed only. */
const typed = (s: DrivenSession) => s.drivenBy !== 'agent';
const typedIntoTui = (s: DrivenSession) => s.prompts.some((p) => /typed into the TUI|tui --id/i.test(p.via));

const temp = tempOut('driven-by');
let rows = new Map<string, { driven_by: string; evidence: string[] }>();
let findings: StoredFinding[] = [];

beforeAll(async () => {
  if (DRIVEN.length === 0) return;
  const fleet = path.join(temp.dir, 'fleet');
  for (const c of ALL) copyHome(c, path.join(fleet, c.name));
  const load = await cli(['load', '--fleet', fleet, '--out', temp.out]);
  expect(load.code, load.stderr).toBe(0);
  const result = await queryWarehouse(temp.out, 'select host, session_id, driven_by, driven_by_evidence from sessions');
  rows = new Map(result.rows.map((r) => [`${r[0]}/${r[1]}`, { driven_by: r[2] as string, evidence: [...(r[3] as string[])] }]));
  findings = (await storedFindings(temp.out)).filter((f) => f.hunt_id === 'agent-driven-session');
}, 300_000);

afterAll(() => temp.remove());

const NO_CORPUS = 'no driven corpus in fixtures/real-producer/driven: run `make real-corpus MAJORS=driven` (needs npm)';

describe.skipIf(DRIVEN.length === 0)(`who drove each session of the real-producer corpus (${NO_CORPUS} to add it)`, () => {
  const row = (c: Corpus, s: DrivenSession) => {
    const found = rows.get(`${c.name}/${s.observedSessionId}`);
    expect(found, `${c.name} ${s.id}: no sessions row`).toBeDefined();
    return found!;
  };

  it('holds bridge-driven sessions beside typed ones, each session of the driven home loaded', () => {
    for (const c of DRIVEN) {
      expect(sessionsOf(c).filter((s) => s.drivenBy === 'agent').length, c.name).toBeGreaterThanOrEqual(3);
      expect(sessionsOf(c).filter((s) => s.drivenBy === 'person').length, c.name).toBeGreaterThanOrEqual(3);
    }
  });

  it('never calls a typed session agent', () => {
    const wrong = ALL.flatMap((c) =>
      sessionsOf(c)
        .filter(typed)
        .filter((s) => row(c, s).driven_by === 'agent')
        .map((s) => `${c.name} ${s.id}`),
    );
    expect(wrong).toEqual([]);
  });

  it('calls a session person where a prompt of it was typed into the TUI, on the input history', () => {
    const tui = ALL.flatMap((c) =>
      sessionsOf(c)
        .filter(typedIntoTui)
        .map((s) => [c, s] as const),
    );
    expect(tui.length).toBeGreaterThanOrEqual(2);
    for (const [c, s] of tui) {
      expect([s.id, row(c, s).driven_by]).toEqual([s.id, 'person']);
      expect(row(c, s).evidence, s.id).toContain('typed_in_tui');
    }
  });

  it('calls a bridge session agent where the bridge wrote providers.json back, else unknown', () => {
    for (const c of DRIVEN)
      for (const s of sessionsOf(c).filter((x) => x.drivenBy === 'agent')) {
        const restored = (s.bridgeRestored ?? []).length > 0;
        expect([s.id, row(c, s).driven_by], c.name).toEqual([s.id, restored ? 'agent' : 'unknown']);
        if (restored) expect(row(c, s).evidence, s.id).toContain('providers_json_restored');
      }
  });

  it('leaves a typed session unknown where nothing on disk can tell it from a bridge run', () => {
    for (const c of DRIVEN)
      for (const s of sessionsOf(c).filter((x) => x.drivenBy === 'person' && !typedIntoTui(x)))
        expect([s.id, row(c, s).driven_by]).toEqual([s.id, 'unknown']);
  });

  it('names the detached HEAD of the disposable worktree the bridge ran in', () => {
    for (const c of DRIVEN)
      for (const s of sessionsOf(c).filter((x) => x.drivenHow === 'ask_cline_workspace'))
        expect(row(c, s).evidence, s.id).toContain('detached_head');
  });

  it('hunts exactly the agent-driven sessions whose commands ran (agent-driven-session)', () => {
    const expected = DRIVEN.flatMap((c) =>
      sessionsOf(c)
        .filter((s) => (s.bridgeRestored ?? []).length > 0 && s.commands.length > 0)
        .map((s) => `${c.name}/${s.observedSessionId}`),
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(findings.map((f) => `${f.host}/${f.session_id}`).sort()).toEqual(expected.sort());
    for (const c of DRIVEN)
      for (const s of sessionsOf(c).filter((x) => (x.bridgeRestored ?? []).length > 0))
        for (const { command } of s.commands)
          expect(findings.find((f) => f.session_id === s.observedSessionId)?.summary).toContain(command);
  });

  it("says in the report's session timelines who drove each session and on what evidence", async () => {
    const { doc } = await makeReport(temp.out, path.join(temp.dir, 'report.html'));
    const shown = elements(doc)
      .filter((e) => e.tagName === 'details' && e.attrs.some((a) => a.name === 'class' && a.value === 'session'))
      .map(textOf);
    const agentSessions = DRIVEN.flatMap((c) => sessionsOf(c).filter((s) => (s.bridgeRestored ?? []).length > 0));
    expect(agentSessions.length).toBeGreaterThan(0);
    for (const s of agentSessions) {
      const text = shown.find((t) => t.includes(s.observedSessionId!));
      expect(text, `${s.id} has no timeline on the page`).toBeDefined();
      expect(text).toContain('Driven by: agent (providers_json_restored');
    }
    for (const c of ALL)
      for (const s of sessionsOf(c).filter(typed))
        expect(shown.filter((t) => t.includes(s.observedSessionId!) && t.includes('Driven by: agent'))).toEqual([]);
  });
});
