/**
 * A 3.x home whose session folders are gone (deleted by hand, or not collected), through the real load (issue 27):
 * each session's messages are then kept only by the secondary stores, the hub event log and the search index, and
 * both may hold the same prompt. Each prompt must still be one user row, whichever store kept it; the copy dropped is
 * listed in `duplicates` under the rule hub_search beside the hub row kept. The input is the real 3.0.65 home of the
 * corpus with `.cline/data/sessions/*` removed; the prompts expected are the driver's (facts.json). Before the rule,
 * a session the hub hosted and the index recorded had each prompt twice.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryWarehouse } from '../../src/warehouse/build.js';
import { cli, tempOut } from '../helpers/hunt-run.js';
import { completedSessions, copyHome, corpora } from '../helpers/real-corpus.js';

const SDK = corpora().filter((c) => c.facts.generation === 'sdk');
const temp = tempOut('transcripts-gone');

async function rows(sql: string): Promise<unknown[][]> {
  return (await queryWarehouse(temp.out, sql)).rows;
}

beforeAll(async () => {
  for (const c of SDK) {
    const image = path.join(temp.dir, 'fleet', c.name);
    copyHome(c, image);
    const sessions = path.join(image, '.cline', 'data', 'sessions');
    for (const id of fs.readdirSync(sessions)) fs.rmSync(path.join(sessions, id), { recursive: true });
  }
  const load = await cli(['load', '--fleet', path.join(temp.dir, 'fleet'), '--out', temp.out, '--no-hunts']);
  expect(load.code, load.stderr).toBe(0);
}, 300_000);

afterAll(() => temp.remove());

describe('a 3.x home without its session folders', () => {
  it('has a 3.x generation in the corpus to test', () => {
    expect(SDK.length).toBeGreaterThan(0);
  });

  describe.each(SDK.map((c) => [c.name, c] as const))('%s', (name, c) => {
    it('gives each session its prompts once each, from the hub event log or the search index', async () => {
      const sessions = [...completedSessions(c.facts), ...c.facts.sessions.filter((s) => s.deleted)];
      expect(sessions.length).toBeGreaterThanOrEqual(5);
      for (const s of sessions) {
        const users = await rows(
          `select text from events where host = '${name}' and session_id = '${s.observedSessionId}' and turn_type = 'user'`,
        );
        expect(users.map((r) => r[0] as string).sort(), s.id).toEqual(s.prompts.map((p) => p.text).sort());
      }
    });

    it('lists each dropped search-index copy in duplicates under hub_search, beside the hub row of the same text kept', async () => {
      const pairs = await rows(
        `select d.dropped_store, d.kept_store, d.dropped_turn_type, k.turn_type, d.dropped_session_id = k.session_id,
           d.dropped_turn_type not in ('user', 'assistant') or d.dropped_text = k.text or starts_with(d.dropped_text, k.text)
         from duplicates d join raw_events k on k.row_id = d.kept_row_id
         where d.rule = 'hub_search' and d.host = '${name}'`,
      );
      // the resumed session the hub hosted: its two prompts at least
      expect(pairs.filter((p) => p[2] === 'user').length).toBeGreaterThanOrEqual(2);
      for (const p of pairs) expect(p).toEqual(['search-index', 'hub-events', p[2], p[2], true, true]);
    });
  });
});
