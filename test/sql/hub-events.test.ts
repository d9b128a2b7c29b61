/**
 * The duplicate rule of the hub event log (sql/20, sql/22; sql/22 int_duplicate_open), sessions and the
 * token sums of events: on the rows the readers give for fixtures/hub-events (the log, and the transcript
 * and manifest of the one session still on disk), and on hand-made rows for the rule's edges.
 */
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Row, StoreId } from '../../src/core/row.js';
import { storeOf } from '../../src/discover/discover.js';
import { readHubEvents } from '../../src/readers/hub-events/reader.js';
import { readSdkSessions } from '../../src/readers/sdk-sessions/reader.js';
import { GONE, GONE_MESSAGES, KEEP, KEEP_MESSAGES, KILLED } from '../helpers/hub-events-fixture.js';
import { files, type ModelDb, runModelsOn, type TestRow, useModelDbs } from '../helpers/models.js';
import { collect, fixture, listFiles, makeSource } from '../helpers/source.js';

const IMG = fixture('hub-events', 'img');
const DATA = path.join(IMG, 'home/u/.cline/data');

/** The files of `store` in the fixture's `.cline/data`, as discovery assigns them. */
function storeFiles(store: StoreId): string[] {
  return listFiles(DATA).filter((f) => storeOf(path.relative(DATA, f).split(path.sep).join('/'), 'cline-data') === store);
}

/** Sum of the metrics of planted messages: [tokens_in, tokens_out]. */
function metricsSum(messages: readonly object[]): [number, number] {
  let input = 0;
  let output = 0;
  for (const m of messages) {
    if ('metrics' in m) {
      const metrics = m.metrics as { inputTokens: number; outputTokens: number };
      input += metrics.inputTokens;
      output += metrics.outputTokens;
    }
  }
  return [input, output];
}

describe('the readers rows of fixtures/hub-events through the models', async () => {
  const hub = await collect(
    readHubEvents,
    makeSource({ store: 'hub-events', imageRoot: IMG, root: DATA, files: storeFiles('hub-events') }),
  );
  const sdk = await collect(
    readSdkSessions,
    makeSource({ store: 'sdk-sessions', imageRoot: IMG, root: DATA, files: storeFiles('sdk-sessions') }),
  );
  const rows: Row[] = [...sdk, ...hub];
  const db = await runModelsOn(rows);
  afterAll(() => db.close());

  it('drops every hub copy of the kept session that its transcript or manifest records', async () => {
    const dropped = await db.query(
      `select rule, dropped_kind as kind, count(*)::INTEGER as n, count(distinct kept_row_id)::INTEGER as kept
       from duplicates where dropped_session_id = '${KEEP}' group by all order by all`,
    );
    const blocks = KEEP_MESSAGES.reduce((n, m) => n + m.content.length, 0);
    expect(dropped).toEqual([
      { rule: 'hub_message', kind: 'text', n: 5, kept: 5 },
      { rule: 'hub_message', kind: 'thinking', n: 1, kept: 1 },
      { rule: 'hub_message', kind: 'tool_result', n: 1, kept: 1 },
      { rule: 'hub_message', kind: 'tool_use', n: 1, kept: 1 },
      { rule: 'hub_session', kind: 'model', n: 1, kept: 1 },
      { rule: 'hub_session', kind: 'session_end', n: 1, kept: 1 },
      { rule: 'hub_session', kind: 'session_start', n: 1, kept: 1 },
    ]);
    expect(dropped.filter((d) => d.rule === 'hub_message').reduce((n, d) => n + (d.n as number), 0)).toBe(blocks);
    // every kept row is the transcript's or the manifest's, of the same session
    const kept = await db.query(`select distinct kept_store, kept_session_id from duplicates where dropped_store = 'hub-events'`);
    expect(kept).toEqual([{ kept_store: 'sdk-sessions', kept_session_id: KEEP }]);
  });

  it("keeps the kept session's hub rows that record what its transcript does not: runs, resume, hooks, the first run's end", async () => {
    const left = await db.query(
      `select source_line::INTEGER as line, kind from events where store = 'hub-events' and session_id = '${KEEP}' order by source_line, source_seq`,
    );
    expect(left).toEqual([
      { line: 5, kind: 'hook_call' },
      { line: 13, kind: 'hook_call' },
      { line: 14, kind: 'hook_result' },
      { line: 20, kind: 'session_end' },
      { line: 21, kind: 'run_end' },
      { line: 24, kind: 'session_resume' },
      { line: 26, kind: 'run_end' },
    ]);
  });

  it('keeps every row of the deleted sessions, and lists them in sessions', async () => {
    const dropped = await db.query(
      `select count(*)::INTEGER as n from duplicates where dropped_session_id in ('${GONE}', '${KILLED}')`,
    );
    expect(dropped).toEqual([{ n: 0 }]);
    const raw = hub.filter((r) => r.session_id === GONE || r.session_id === KILLED).length;
    const kept = await db.query(`select count(*)::INTEGER as n from events where session_id in ('${GONE}', '${KILLED}')`);
    expect(kept).toEqual([{ n: raw }]);
    const sessions = await db.query(
      `select session_id, has_transcript, count_user::INTEGER as prompts, models, providers, stores,
              strftime(first_timestamp_utc, '%H:%M:%S') as first_at, strftime(last_timestamp_utc, '%H:%M:%S') as last_at
       from sessions order by session_id`,
    );
    expect(sessions).toEqual([
      {
        session_id: KEEP,
        has_transcript: true,
        prompts: 2,
        models: ['claude-sonnet-4-5'],
        providers: ['anthropic'],
        stores: ['hub-events', 'sdk-sessions'],
        first_at: '09:00:00',
        last_at: '09:01:02',
      },
      {
        session_id: GONE,
        has_transcript: false,
        prompts: 2,
        models: ['claude-sonnet-4-5'],
        providers: ['anthropic'],
        stores: ['hub-events'],
        first_at: '09:01:59',
        last_at: '09:03:10',
      },
      {
        session_id: KILLED,
        has_transcript: false,
        prompts: 1,
        models: ['claude-sonnet-4-5'],
        providers: ['anthropic'],
        stores: ['hub-events'],
        first_at: '09:05:00',
        last_at: '09:05:06',
      },
    ]);
  });

  it("counts each request's tokens once per session: the transcript's, else the log's", async () => {
    const sums = await db.query(
      `select session_id, sum(tokens_in)::INTEGER as tokens_in, sum(tokens_out)::INTEGER as tokens_out
       from events where session_id is not null group by all order by session_id`,
    );
    expect(sums.map((s) => [s.session_id, s.tokens_in, s.tokens_out])).toEqual([
      [KEEP, ...metricsSum(KEEP_MESSAGES)],
      [GONE, ...metricsSum(GONE_MESSAGES)],
      [KILLED, 800, 12],
    ]);
  });
});

describe('hub rules on hand-made rows', () => {
  const open = useModelDbs();
  const T0 = Date.parse('2026-11-02T09:00:00.000Z');
  const at = (s: number): number => T0 + Math.round(s * 1000);
  const transcript = (line: number, turn: Row['turn_type'], text: string, ts: number, extra: TestRow = {}): TestRow => ({
    store: 'sdk-sessions',
    session_id: 's1',
    source_line: line,
    turn_type: turn,
    kind: 'text',
    text,
    timestamp_utc: ts,
    ...extra,
  });
  const hubRow = (
    line: number,
    turn: Row['turn_type'],
    kind: string,
    text: string,
    ts: number,
    extra: TestRow = {},
  ): TestRow => ({
    store: 'hub-events',
    source_file: 'home/u/.cline/data/db/hub-events-hub-production.db',
    session_id: 's1',
    source_line: line,
    turn_type: turn,
    kind,
    text,
    timestamp_utc: ts,
    ...extra,
  });
  const dropped = async (db: ModelDb) =>
    (
      await db.query(
        `select rule, dropped_store as store, dropped_source_line::INTEGER as line, kept_source_line::INTEGER as kept from duplicates order by rule, line`,
      )
    ).map((r) => [r.rule, r.store, r.line, r.kept]);

  it('drops the hub copy of a prompt whose transcript row the prompt history already took', async () => {
    const db = await open([
      transcript(1, 'user', 'deploy to prod', at(1)),
      {
        store: 'input-history',
        session_id: null,
        source_line: 1,
        turn_type: 'user',
        kind: 'input_history',
        text: 'deploy to prod',
        timestamp_utc: at(1.5),
      },
      hubRow(7, 'user', 'text', 'deploy to prod', at(1)),
    ]);
    expect(await dropped(db)).toEqual([
      ['hub_message', 'hub-events', 7, 1],
      ['input_history', 'input-history', 1, 1],
    ]);
    expect(await db.query(`select count(*)::INTEGER as n from events where text = 'deploy to prod'`)).toEqual([{ n: 1 }]);
  });

  it('pairs one-to-one: of two hub copies of a prompt typed once, the one at the same time is dropped, the other kept', async () => {
    const db = await open([
      transcript(1, 'user', 'continue', at(1)),
      hubRow(5, 'user', 'text', 'continue', at(1)),
      hubRow(9, 'user', 'text', 'continue', at(50)),
    ]);
    expect(await dropped(db)).toEqual([['hub_message', 'hub-events', 5, 1]]);
  });

  it('never pairs a hub copy with a row of another session, nor one more than an hour away', async () => {
    const db = await open([
      transcript(1, 'assistant', 'done', at(1)),
      hubRow(5, 'assistant', 'text', 'done', at(1), { session_id: 's2' }),
      hubRow(6, 'assistant', 'text', 'done', at(1 + 3601)),
    ]);
    expect(await dropped(db)).toEqual([]);
  });

  it("drops a usage row whose request the transcript records (same session and counts), keeps the others' tokens", async () => {
    const db = await open([
      transcript(2, 'assistant', 'ok', at(2), { tokens_in: 800, tokens_out: 12 }),
      hubRow(3, 'system', 'usage', 'usage: tokens_in=800 tokens_out=12', at(1.9), { tokens_in: 800, tokens_out: 12 }),
      hubRow(4, 'system', 'usage', 'usage: tokens_in=900 tokens_out=5', at(3), { tokens_in: 900, tokens_out: 5 }),
      hubRow(5, 'system', 'usage', 'usage: tokens_in=800 tokens_out=12', at(2), {
        tokens_in: 800,
        tokens_out: 12,
        session_id: 's2',
      }),
    ]);
    expect(await dropped(db)).toEqual([['hub_usage', 'hub-events', 3, 2]]);
    const sums = await db.query(`select session_id, sum(tokens_in)::INTEGER as t from events group by all order by all`);
    expect(sums).toEqual([
      { session_id: 's1', t: 1700 },
      { session_id: 's2', t: 800 },
    ]);
  });

  it('drops the hub session start and model rows against the manifest (sessions.db without one); a resume stays', async () => {
    const manifest: TestRow = {
      store: 'sdk-sessions',
      session_id: 's1',
      source_file: files.sdkManifest('s1'),
      source_line: 1,
      turn_type: 'system',
      timestamp_utc: at(0),
    };
    const db = await open([
      { ...manifest, kind: 'session_start', text: 'session start: source=cli status=completed pid=1' },
      { ...manifest, source_seq: 1, kind: 'model', text: 'model: m provider=p' },
      {
        store: 'sessions-db',
        session_id: 's3',
        source_line: 1,
        turn_type: 'system',
        kind: 'session_start',
        text: 'session start: ...',
        timestamp_utc: at(0),
      },
      hubRow(3, 'system', 'session_start', 'session start: source=cli status=running pid=-', at(0.2)),
      hubRow(3, 'system', 'model', 'model: m provider=p', at(0.2), { source_seq: 1 }),
      hubRow(24, 'system', 'session_resume', 'session resumed: ...', at(59)),
      hubRow(30, 'system', 'session_start', 'session start: ...', at(0.1), { session_id: 's3' }),
    ]);
    expect(await dropped(db)).toEqual([
      ['hub_session', 'hub-events', 3, 1],
      ['hub_session', 'hub-events', 3, 1],
      ['hub_session', 'hub-events', 30, 1],
    ]);
    expect(await db.query(`select kind from events where store = 'hub-events'`)).toEqual([{ kind: 'session_resume' }]);
  });
});
