/**
 * The hub event log of the released 3.x CLI (fixtures/real-producer/cline-3.0.65, driven by corpus/drive.ts;
 * what was typed and answered is the driver's record, facts.json) through a whole load: the session the
 * driver removed with `cline history delete` comes back in `events` and `sessions` from the log alone, and
 * no other session's token sums move. The home is loaded twice from temp copies: as collected, and
 * without its hub event log (the load before this store existed).
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLoad } from '../../src/load/run.js';
import { queryWarehouse } from '../../src/warehouse/build.js';
import { copyHome, corpora, type CorpusSession } from '../helpers/real-corpus.js';

/** What this test reads of a session's facts beyond the shared shape: the runs' command lines and times, the replies. */
type Session = Omit<CorpusSession, 'runs' | 'mockRequests'> & {
  runs: Array<{ argv: string[]; startedAt: string; endedAt: string }>;
  mockRequests: Array<{ reply: { kind: string; text?: string } }>;
};

const CORPUS = corpora().find((c) => c.name === 'cline-3.0.65')!;
// facts.json holds these fields; the shared shape (test/helpers/real-corpus.ts) names fewer
const sessions = CORPUS.facts.sessions as unknown as Session[];
const deleted = sessions.filter((s) => s.deleted);
const work = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-hub-corpus-'));
const withLog = path.join(work, 'with-log');
const withoutLog = path.join(work, 'without-log');

/** Rows of a query as objects. */
async function query(out: string, sql: string): Promise<Record<string, unknown>[]> {
  const { columns, rows } = await queryWarehouse(out, sql);
  return rows.map((row) => Object.fromEntries(columns.map((c, i) => [c, row[i]])));
}

/** sum(tokens_in), sum(tokens_out) of events per session, as `session -> [in, out]` (null where none). */
async function tokenSums(out: string): Promise<Record<string, [number | null, number | null]>> {
  const rows = await query(
    out,
    `select session_id, sum(tokens_in)::INTEGER as i, sum(tokens_out)::INTEGER as o from events where session_id is not null group by all`,
  );
  return Object.fromEntries(rows.map((r) => [r.session_id as string, [r.i as number | null, r.o as number | null]]));
}

beforeAll(async () => {
  for (const [fleet, keepLog] of [
    [withLog, true],
    [withoutLog, false],
  ] as const) {
    mkdirSync(path.join(fleet, 'fleet'), { recursive: true });
    const home = path.join(fleet, 'fleet', 'c3');
    copyHome(CORPUS, home);
    const db = path.join(home, '.cline', 'data', 'db');
    if (!keepLog) for (const f of readdirSync(db).filter((n) => n.startsWith('hub-events-'))) rmSync(path.join(db, f));
    const run = await runLoad({ fleet: path.join(fleet, 'fleet'), out: path.join(fleet, 'out') });
    expect(run.parser_errors).toBe(0);
  }
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the real 3.0.65 home with its hub event log', () => {
  const out = path.join(withLog, 'out');

  it('has a deleted session in the facts, and without the log no transcript, manifest, index or prompt of it', async () => {
    expect(deleted.length).toBe(1);
    const sid = deleted[0].observedSessionId!;
    // the CLI's own logs (cline-logs) name the session, never what was typed or answered
    const elsewhere = await query(
      path.join(withoutLog, 'out'),
      `select count(*)::INTEGER as n from raw_events where session_id = '${sid}'
         and (store in ('sdk-sessions', 'sessions-db', 'search-index') or turn_type in ('user', 'assistant'))`,
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
      const { first_ms, last_ms, stores, ...listed } = row as Record<string, unknown> & { stores: string[] };
      expect(listed).toEqual({
        has_transcript: false,
        prompts: s.prompts.length,
        models: [s.model],
        providers: [s.provider],
      });
      // known from the log, and from no transcript, manifest or index
      expect(stores).toContain('hub-events');
      expect(stores.filter((x) => ['sdk-sessions', 'sessions-db', 'search-index'].includes(x))).toEqual([]);
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
    // without the log the deleted session has no token figure (its CLI logs name it, with none)
    expect(before[sid] ?? [null, null]).toEqual([null, null]);
    expect(Object.keys(after).sort()).toEqual([...new Set([...Object.keys(before), sid])].sort());
    for (const [session, sums] of Object.entries(before)) if (session !== sid) expect(after[session], session).toEqual(sums);
    for (const s of sessions) {
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
