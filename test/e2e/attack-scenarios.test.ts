/**
 * The hunt pack on what a hunter hunts, as the released Cline CLIs recorded it (issue 27): the attack scenarios of
 * the real-producer corpus (corpus/attacks.ts, corpus/README.md), every generation's home loaded as one fleet by the
 * real load, whose build runs the pack. Every expectation is the driver's record, facts.json: each planted act
 * names the hunt that claims it and what its finding must quote; each control what no finding may quote; the world
 * lists the secrets it planted, none of which may reach OUT.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, type StoredFinding, storedFindings, tempOut } from '../helpers/hunt-run.js';
import { copyHome, corpora } from '../helpers/real-corpus.js';
import { whereFound } from '../helpers/warehouse-search.js';

interface Claim {
  hunt: string;
  what: string;
  quote: string;
}

interface AttackSession {
  id: string;
  role: 'ordinary' | 'attack' | 'control';
  observedSessionId: string | null;
  claims: Claim[];
  controls: Array<{ what: string; quote: string }>;
  denied: boolean;
}

interface AttackFacts {
  sessions: AttackSession[];
  skipped: Array<{ what: string; why: string }>;
  world?: {
    secrets: Array<{ name: string; file: string; value: string }>;
    homeClaims: Array<Claim & { file: string }>;
    listener: { arrivals: Array<{ path: string; bodyIs: string | null }> };
  };
}

const CORPORA = corpora().map((c) => ({ ...c, attack: c.facts as unknown as AttackFacts }));
const temp = tempOut('attack-scenarios');
let findings: StoredFinding[] = [];

beforeAll(async () => {
  const fleet = path.join(temp.dir, 'fleet');
  for (const c of CORPORA) copyHome(c, path.join(fleet, c.name));
  const load = await cli(['load', '--fleet', fleet, '--out', temp.out]);
  expect(load.code, load.stderr).toBe(0);
  findings = await storedFindings(temp.out);
}, 300_000);

afterAll(() => temp.remove());

describe('the attack scenarios of the real-producer corpus, hunted', () => {
  it('holds the attack world in every generation: its acts reached the listener, the upload carried .env', () => {
    for (const c of CORPORA) {
      expect(c.attack.world, `${c.name}: facts.json has no attack world (corpus/world.ts)`).toBeDefined();
      const arrivals = c.attack.world!.listener.arrivals;
      expect(
        arrivals.some((a) => a.path === '/upload' && a.bodyIs === 'work/demo-project/.env'),
        c.name,
      ).toBe(true);
      expect(c.attack.sessions.filter((s) => s.role === 'attack').length, c.name).toBeGreaterThanOrEqual(6);
    }
  });

  describe.each(CORPORA.map((c) => [c.name, c] as const))('%s', (name, c) => {
    const attacks = c.attack.sessions.filter((s) => s.claims.length > 0 && s.observedSessionId !== null);
    const mine = (hunt: string, session: string | null) =>
      findings.filter((f) => f.host === name && f.hunt_id === hunt && f.session_id === session);

    it.each(attacks.map((s) => [s.id, s] as const))(
      'finds each act of %s once, by the hunt that claims it, naming its session and quoting it',
      (_id, s) => {
        const hunts = [...new Set(s.claims.map((x) => x.hunt))];
        for (const hunt of hunts) {
          const claims = s.claims.filter((x) => x.hunt === hunt);
          const found = mine(hunt, s.observedSessionId);
          for (const claim of claims)
            expect(
              found.some((f) => f.summary.includes(claim.quote)),
              `${hunt} quotes ${claim.quote} (${claim.what}); found: ${found.map((f) => f.summary).join(' | ')}`,
            ).toBe(true);
          // exactly once: one finding per planted act of the hunt in the session
          expect(found.length, `${hunt} in ${s.id}: ${found.map((f) => f.summary).join(' | ')}`).toBe(claims.length);
        }
        // no other hunt fires on an attack session, but the safety settings it ran under
        const others = findings.filter(
          (f) =>
            f.host === name &&
            f.session_id === s.observedSessionId &&
            !hunts.includes(f.hunt_id) &&
            f.hunt_id !== 'safety-turned-off',
        );
        expect(others.map((f) => `${f.hunt_id}: ${f.summary}`)).toEqual([]);
      },
    );

    it('finds the setting the driver wrote (an MCP tool approved for good) on its file', () => {
      for (const claim of c.attack.world?.homeClaims ?? []) {
        const found = findings.filter(
          (f) => f.host === name && f.hunt_id === claim.hunt && f.source_file === claim.file && f.summary.includes(claim.quote),
        );
        expect(found.length, `${claim.hunt}: ${claim.quote}`).toBe(1);
      }
    });

    it('finds nothing on the controls and the denied command: no finding quotes them, none but the settings names their session', () => {
      const controls = c.attack.sessions.filter((s) => s.role === 'control' && s.observedSessionId !== null);
      expect(controls.map((s) => s.id).sort()).toEqual(['control-benign', 'denied', 'non-ascii']);
      for (const s of controls) {
        if (s.id === 'denied' && !s.denied) continue; // see the next test
        const named = findings.filter(
          (f) => f.host === name && f.session_id === s.observedSessionId && f.hunt_id !== 'safety-turned-off',
        );
        expect(
          named.map((f) => `${f.hunt_id}: ${f.summary}`),
          s.id,
        ).toEqual([]);
      }
      for (const s of c.attack.sessions)
        for (const control of s.controls) {
          if (s.id === 'denied' && !s.denied) continue;
          const quoting = findings.filter((f) => f.host === name && f.summary.includes(control.quote));
          expect(
            quoting.map((f) => `${f.hunt_id}: ${f.summary}`),
            `${s.id}: ${control.what}`,
          ).toEqual([]);
        }
    });

    it('has the driver deny the command, or says in facts.json why this generation could not', () => {
      const denied = c.attack.sessions.find((s) => s.id === 'denied');
      expect(denied).toBeDefined();
      if (!denied!.denied) expect(c.attack.skipped.map((x) => x.what)).toContain('denied command');
    });
  });

  it('keeps every secret the driver planted out of OUT', async () => {
    const needles: string[] = [];
    for (const c of CORPORA)
      for (const s of c.attack.world?.secrets ?? []) {
        // a key block: each of its base64 lines too, so no part of it survives a partial redaction
        needles.push(s.value, ...s.value.split('\n').filter((l) => l.length >= 20 && !l.startsWith('-----')));
      }
    expect(needles.length).toBeGreaterThanOrEqual(15);
    expect(await whereFound(temp.out, needles)).toEqual([]);
    // and the homes do hold them: the test would prove nothing otherwise
    const planted = CORPORA.flatMap((c) => (c.attack.world?.secrets ?? []).map((s) => [c.home, s.value] as const));
    for (const [home, value] of planted.slice(0, 2)) {
      const texts = (fs.readdirSync(home, { recursive: true }) as string[])
        .map((f) => path.join(home, f))
        .filter((f) => fs.statSync(f).isFile() && f.endsWith('.json'))
        .map((f) => fs.readFileSync(f, 'utf8'));
      expect(texts.some((t) => t.includes(value))).toBe(true);
    }
  });

  it('points every finding at a row of events', () => {
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.filter((f) => !f.in_events)).toEqual([]);
  });
});
