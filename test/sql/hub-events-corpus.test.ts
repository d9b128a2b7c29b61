/**
 * The hub event log of the released 3.x CLI (fixtures/real-producer/cline-3.0.65, driven by corpus/drive.ts;
 * what was typed and answered is the driver's record, facts.json) through a whole load: the session the
 * driver removed with `cline history delete` comes back in `events` and `sessions` from the log alone, and
 * no other session's token sums move. The home is loaded twice from temp copies: as collected, and
 * without its hub event log (the load before this store existed).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLoad } from '../../src/load/run.js';
import { queryWarehouse } from '../../src/warehouse/build.js';
import { fixture } from '../helpers/source.js';

interface Facts {
  sessions: Array<{
    id: string;
    observedSessionId: string | null;
    deleted: boolean;
    provider: string;
    model: string;
    prompts: Array<{ text: string; mode: string }>;
    runs: Array<{ argv: string[]; startedAt: string; endedAt: string }>;
    mockRequests: Array<{ reply: { kind: string; text?: string } }>;
    usageTotals: { promptTokens: number; completionTokens: number };
  }>;
}

const CORPUS = fixture('real-producer', 'cline-3.0.65');
const facts = JSON.parse(readFileSync(path.join(CORPUS, 'facts.json'), 'utf8')) as Facts;
const deleted = facts.sessions.filter((s) => s.deleted);
const work = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-hub-corpus-'));
const withLog = path.join(work, 'with-log');
const withoutLog = path.join(work, 'without-log');

/** Rows of a query as objects. */
async function query(out: string, sql: string): Promise<Record<string, unknown>[]> {
  const { columns, rows } = await queryWarehouse(out, sql);
  return rows.map((row) => Object.fromEntries(columns.map((c, i) => [c, row[i]])));
}

/** sum(tokens_in), sum(tokens_out) of events per session, as `session -> [in, out]`. */
async function tokenSums(out: string): Promise<Record<string, [number, number]>> {
  const rows = await query(
    out,
    `select session_id, sum(tokens_in)::INTEGER as i, sum(tokens_out)::INTEGER as o from events where session_id is not null group by all`,
  );
  return Object.fromEntries(rows.map((r) => [r.session_id as string, [r.i as number, r.o as number]]));
}

beforeAll(async () => {
  for (const [fleet, keepLog] of [
    [withLog, true],
    [withoutLog, false],
  ] as const) {
    mkdirSync(path.join(fleet, 'fleet'), { recursive: true });
    const home = path.join(fleet, 'fleet', 'c3');
    execFileSync('cp', ['-a', path.join(CORPUS, 'home'), home]);
    const db = path.join(home, '.cline', 'data', 'db');
    if (!keepLog) for (const f of readdirSync(db).filter((n) => n.startsWith('hub-events-'))) rmSync(path.join(db, f));
    const run = await runLoad({ fleet: path.join(fleet, 'fleet'), out: path.join(fleet, 'out') });
    expect(run.parser_errors).toBe(0);
  }
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the real 3.0.65 home with its hub event log', () => {
  const out = path.join(withLog, 'out');

  it('has a deleted session in the facts, and no transcript, manifest or sessions.db record of it', async () => {
    expect(deleted.length).toBe(1);
    const sid = deleted[0].observedSessionId!;
    const elsewhere = await query(
      path.join(withoutLog, 'out'),
      `select count(*)::INTEGER as n from raw_events where session_id = '${sid}'`,
    );
    expect(elsewhere).toEqual([{ n: 0 }]);
  });

  it("gives back the deleted session's prompts exactly as typed, with their modes, and its replies", async () => {
    for (const s of deleted) {
      const sid = s.observedSessionId!;
      const prompts = await query(
        out,
        `select text, permission_mode from events where session_id = '${sid}' and turn_type = 'user' order by timestamp_utc, source_seq`,
      );
      expect(prompts).toEqual(s.prompts.map((p) => ({ text: p.text, permission_mode: p.mode })));
      const replies = await query(
        out,
        `select text from events where session_id = '${sid}' and turn_type = 'assistant' order by timestamp_utc, source_seq`,
      );
      const answered = s.mockRequests.filter((r) => r.reply.kind === 'text').map((r) => r.reply.text);
      expect(replies.map((r) => r.text)).toEqual(answered);
      expect(await query(out, `select count(*)::INTEGER as n from duplicates where dropped_session_id = '${sid}'`)).toEqual([
        { n: 0 },
      ]);
    }
  });

  it('lists the deleted session in sessions with its prompt count, model, provider and times', async () => {
    for (const s of deleted) {
      const [row] = await query(
        out,
        `select has_transcript, count_user::INTEGER as prompts, models, providers, stores,
                epoch_ms(first_timestamp_utc) as first_ms, epoch_ms(last_timestamp_utc) as last_ms
         from sessions where session_id = '${s.observedSessionId}'`,
      );
      const { first_ms, last_ms, ...listed } = row;
      expect(listed).toEqual({
        has_transcript: false,
        prompts: s.prompts.length,
        models: [s.model],
        providers: [s.provider],
        stores: ['hub-events'],
      });
      // within the CLI runs the driver made of it (not the `cline history delete` run after them)
      const runs = s.runs.filter((r) => !r.argv.includes('history'));
      const started = Date.parse(runs[0].startedAt);
      const ended = Date.parse(runs[runs.length - 1].endedAt);
      expect(Number(first_ms)).toBeGreaterThanOrEqual(started);
      expect(Number(last_ms)).toBeLessThanOrEqual(ended);
    }
  });

  it("changes no session's token sums, each the facts' usage totals; the deleted session's come from the log", async () => {
    const before = await tokenSums(path.join(withoutLog, 'out'));
    const after = await tokenSums(out);
    const sid = deleted[0].observedSessionId!;
    expect(Object.keys(after).sort()).toEqual([...Object.keys(before), sid].sort());
    for (const [session, sums] of Object.entries(before)) expect(after[session], session).toEqual(sums);
    for (const s of facts.sessions) {
      expect(after[s.observedSessionId!], s.id).toEqual([s.usageTotals.promptTokens, s.usageTotals.completionTokens]);
    }
  });

  it('drops the log copies of the sessions still on disk, and reads the log without a parser row', async () => {
    const parser = await query(
      out,
      `select count(*)::INTEGER as n from raw_events where store = 'hub-events' and kind = 'parser'`,
    );
    expect(parser).toEqual([{ n: 0 }]);
    const kept = await query(
      out,
      `select count(*)::INTEGER as n from events e join sessions s using (host, session_id)
       where e.store = 'hub-events' and s.has_transcript and e.turn_type <> 'system'`,
    );
    expect(kept).toEqual([{ n: 0 }]);
  });
});
