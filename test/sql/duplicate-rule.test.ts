/**
 * sql/20 to sql/25 (the duplicate rule), sql/30_events.sql and sql/31_duplicates.sql on hand-made rows: which
 * secondary rows (hooks-log, input-history, search-index) the duplicate rule drops, one-to-one, in the
 * fixed rule order hook_tool_call, hook_text, input_history, search_index.
 */
import { describe, expect, it } from 'vitest';
import type { AgentId } from '../../src/core/root-kinds.js';
import { files, useModelDbs, type ModelDb, type TestRow } from '../helpers/models.js';

const T0 = Date.parse('2025-10-09T08:00:00.000Z');
/** T0 plus `s` seconds, in epoch ms. */
const at = (s: number): number => T0 + Math.round(s * 1000);

const open = useModelDbs();

/** (store, source_line, text) of the secondary rows events keeps, in a fixed order. */
async function keptSecondary(db: ModelDb): Promise<[string, number, string | null][]> {
  const rows = await db.query(
    `select store, source_line::INTEGER as line, text from events where source_role = 'secondary' order by store, source_line`,
  );
  return rows.map((r) => [r.store as string, r.line as number, r.text as string | null]);
}

/** (rule, dropped store, dropped line, kept file, kept line) of every dropped row. */
async function pairs(db: ModelDb): Promise<[string, string, number, string, number][]> {
  const rows = await db.query(
    `select rule, dropped_store, dropped_source_line::INTEGER as dl, kept_source_file, kept_source_line::INTEGER as kl
     from duplicates order by rule, dropped_store, dropped_source_line`,
  );
  return rows.map((r) => [
    r.rule as string,
    r.dropped_store as string,
    r.dl as number,
    r.kept_source_file as string,
    r.kl as number,
  ]);
}

// Transcript rows (primary) of SDK session s1 and legacy task t1.
const SDK = files.sdkMessages('s1');
const prompt = (line: number, text: string, ts: number | string | null, extra: TestRow = {}): TestRow => ({
  store: 'sdk-sessions',
  session_id: 's1',
  source_line: line,
  turn_type: 'user',
  kind: 'text',
  text,
  timestamp_utc: ts,
  ...extra,
});
// Secondary rows as the readers write them.
const hookPrompt = (line: number, text: string, ts: number, extra: TestRow = {}): TestRow => ({
  store: 'hooks-log',
  session_id: 's1',
  source_line: line,
  turn_type: 'user',
  kind: 'hook:prompt_submit',
  text,
  timestamp_utc: ts,
  ...extra,
});
const history = (line: number, text: string, ts: number | string | null, extra: TestRow = {}): TestRow => ({
  store: 'input-history',
  session_id: null,
  source_line: line,
  turn_type: 'user',
  kind: 'input_history',
  text,
  timestamp_utc: ts,
  ...extra,
});
const searchDoc = (line: number, text: string, extra: TestRow = {}): TestRow => ({
  store: 'search-index',
  session_id: 's1',
  source_line: line,
  turn_type: 'user',
  kind: 'search_document',
  text,
  timestamp_utc: null,
  ...extra,
});

describe('hook_tool_call', () => {
  const toolRows: TestRow[] = [
    {
      store: 'sdk-sessions',
      session_id: 's1',
      source_line: 2,
      source_seq: 1,
      turn_type: 'tool_use',
      kind: 'tool_use',
      tool_name: 'read_file',
      tool_use_id: 'toolu_1',
      text: '{"path":"a.ts"}',
      timestamp_utc: at(0),
    },
    {
      store: 'sdk-sessions',
      session_id: 's1',
      source_line: 3,
      turn_type: 'tool_result',
      kind: 'tool_result',
      tool_use_id: 'toolu_1',
      text: 'contents of a.ts',
      timestamp_utc: at(5),
    },
    {
      store: 'sdk-sessions',
      session_id: 's1',
      source_line: 4,
      turn_type: 'tool_use',
      kind: 'tool_use',
      tool_use_id: 'toolu_2',
      text: '{"path":"b.ts"}',
      timestamp_utc: at(10),
    },
  ];

  it('pairs a hook tool_use and tool_result with the transcript rows of the same call id and turn type, whatever the text', async () => {
    const db = await open([
      ...toolRows,
      {
        store: 'hooks-log',
        session_id: 's1',
        source_line: 1,
        turn_type: 'tool_use',
        kind: 'hook:tool_call',
        tool_use_id: 'toolu_1',
        text: 'input summarised differently',
        timestamp_utc: at(-2),
      },
      {
        store: 'hooks-log',
        session_id: 's1',
        source_line: 2,
        turn_type: 'tool_result',
        kind: 'hook:tool_result',
        tool_use_id: 'toolu_1',
        text: 'contents of a.ts',
        timestamp_utc: at(4),
      },
      // Same call id but a tool_result hook row has no tool_result twin for toolu_2: stays.
      {
        store: 'hooks-log',
        session_id: 's1',
        source_line: 3,
        turn_type: 'tool_result',
        kind: 'hook:tool_result',
        tool_use_id: 'toolu_2',
        text: 'contents of b.ts',
        timestamp_utc: at(11),
      },
      // No call id: never paired on the id.
      {
        store: 'hooks-log',
        session_id: 's1',
        source_line: 4,
        turn_type: 'tool_use',
        kind: 'hook:tool_call',
        tool_use_id: null,
        text: '{"path":"b.ts"}',
        timestamp_utc: at(10),
      },
    ]);
    expect(await pairs(db)).toEqual([
      ['hook_tool_call', 'hooks-log', 1, SDK, 2],
      ['hook_tool_call', 'hooks-log', 2, SDK, 3],
    ]);
    expect(await keptSecondary(db)).toEqual([
      ['hooks-log', 3, 'contents of b.ts'],
      ['hooks-log', 4, '{"path":"b.ts"}'],
    ]);
  });

  it('pairs at 59 minutes apart and not at 61', async () => {
    const db = await open([
      ...toolRows,
      {
        store: 'hooks-log',
        session_id: 's1',
        source_line: 1,
        turn_type: 'tool_use',
        kind: 'hook:tool_call',
        tool_use_id: 'toolu_1',
        text: 'x',
        timestamp_utc: at(59 * 60),
      },
      {
        store: 'hooks-log',
        session_id: 's1',
        source_line: 2,
        turn_type: 'tool_use',
        kind: 'hook:tool_call',
        tool_use_id: 'toolu_2',
        text: 'y',
        timestamp_utc: at(10 + 61 * 60),
      },
    ]);
    expect(await pairs(db)).toEqual([['hook_tool_call', 'hooks-log', 1, SDK, 2]]);
    expect(await keptSecondary(db)).toEqual([['hooks-log', 2, 'y']]);
  });
});

describe('hook_text', () => {
  it('pairs a hook prompt and a hook reply with the transcript rows of the same turn type and text', async () => {
    const db = await open([
      prompt(1, 'fix the tests', at(0)),
      {
        store: 'sdk-sessions',
        session_id: 's1',
        source_line: 2,
        turn_type: 'assistant',
        kind: 'text',
        text: 'All tests pass.',
        timestamp_utc: at(30),
      },
      hookPrompt(1, 'fix the tests', at(-1)),
      {
        store: 'hooks-log',
        session_id: 's1',
        source_line: 2,
        turn_type: 'assistant',
        kind: 'hook:agent_end',
        text: 'All tests pass.',
        timestamp_utc: at(31),
      },
      // A reply text that is a transcript *user* text: turn types differ, stays.
      {
        store: 'hooks-log',
        session_id: 's1',
        source_line: 3,
        turn_type: 'assistant',
        kind: 'hook:agent_end',
        text: 'fix the tests',
        timestamp_utc: at(32),
      },
      // A hook audit system row has no twin: stays.
      {
        store: 'hooks-log',
        session_id: 's1',
        source_line: 4,
        turn_type: 'system',
        kind: 'hook:agent_start',
        text: 'hook audit: agent_start pid=42',
        timestamp_utc: at(-2),
      },
    ]);
    expect(await pairs(db)).toEqual([
      ['hook_text', 'hooks-log', 1, SDK, 1],
      ['hook_text', 'hooks-log', 2, SDK, 2],
    ]);
    expect(await keptSecondary(db)).toEqual([
      ['hooks-log', 3, 'fix the tests'],
      ['hooks-log', 4, 'hook audit: agent_start pid=42'],
    ]);
  });

  it('pairs at 59 minutes apart and not at 61', async () => {
    const db = await open([
      prompt(1, 'first', at(0)),
      prompt(2, 'second', at(0)),
      hookPrompt(1, 'first', at(59 * 60)),
      hookPrompt(2, 'second', at(61 * 60)),
    ]);
    expect(await pairs(db)).toEqual([['hook_text', 'hooks-log', 1, SDK, 1]]);
    expect(await keptSecondary(db)).toEqual([['hooks-log', 2, 'second']]);
  });

  it('never lets one transcript prompt absorb two identical hook prompts: the nearer is dropped, the other kept', async () => {
    const db = await open([prompt(1, 'continue', at(0)), hookPrompt(1, 'continue', at(-30)), hookPrompt(2, 'continue', at(2))]);
    expect(await pairs(db)).toEqual([['hook_text', 'hooks-log', 2, SDK, 1]]);
    expect(await keptSecondary(db)).toEqual([['hooks-log', 1, 'continue']]);
  });

  it('pairs repeated identical prompts each with its own transcript prompt', async () => {
    const db = await open([
      prompt(1, 'continue', at(0)),
      prompt(5, 'continue', at(600)),
      prompt(9, 'continue', at(1200)),
      hookPrompt(1, 'continue', at(-1)),
      hookPrompt(2, 'continue', at(599)),
      hookPrompt(3, 'continue', at(1199)),
    ]);
    expect(await pairs(db)).toEqual([
      ['hook_text', 'hooks-log', 1, SDK, 1],
      ['hook_text', 'hooks-log', 2, SDK, 5],
      ['hook_text', 'hooks-log', 3, SDK, 9],
    ]);
    expect(await keptSecondary(db)).toEqual([]);
  });

  it('never pairs across hosts', async () => {
    const db = await open([prompt(1, 'fix the tests', at(0)), hookPrompt(1, 'fix the tests', at(0), { host: 'h2' })]);
    expect(await pairs(db)).toEqual([]);
    expect(await db.query(`select host, store from events where source_role = 'secondary'`)).toEqual([
      { host: 'h2', store: 'hooks-log' },
    ]);
  });

  // Every hook prompt below has a free transcript twin within the hour, so the rule drops all six. The gaps
  // shrink along the chain (P1 11 H1 10 P2 9 H2 ... H5 2 P6 1 H6), so only H6 and P6 choose each other
  // (pass 1); the in-order pass pairs H1-P1 ... H5-P5 (rounds of mutual first choice needed six).
  it('pairs every hook prompt of a six-link nearest-neighbour chain', async () => {
    // Times (s): P1 0, H1 11, P2 21, H2 30, P3 38, H3 45, P4 51, H4 56, P5 60, H5 63, P6 65, H6 66.
    const p = [0, 21, 38, 51, 60, 65];
    const h = [11, 30, 45, 56, 63, 66];
    const db = await open([
      ...p.map((s, i) => prompt(i + 1, 'continue', at(s))),
      ...h.map((s, i) => hookPrompt(i + 1, 'continue', at(s))),
    ]);
    expect(await keptSecondary(db)).toEqual([]);
    expect((await db.query(`select count(*)::INTEGER as n from duplicates`))[0].n).toBe(6);
  });
});

describe('groups of identical texts', () => {
  // Issue 9: twelve `continue` prompts whose hook copies form a nearest-neighbour chain (the gaps shrink
  // towards the end: P1 23 H1 22 P2 21 H2 ... P12 1 H12). Mutual first choice pairs one link per round, and
  // ten rounds left H1 and H2 in events with nothing saying so. Every hook copy has its twin within the hour.
  it('drops every hook copy of a twelve-link chain of identical prompts', async () => {
    const times: number[] = [0];
    for (let gap = 23; gap >= 1; gap--) times.push(times[times.length - 1] + gap);
    const db = await open([
      ...Array.from({ length: 12 }, (_, i) => prompt(i + 1, 'continue', at(times[2 * i]))),
      ...Array.from({ length: 12 }, (_, i) => hookPrompt(i + 1, 'continue', at(times[2 * i + 1]))),
    ]);
    expect(await keptSecondary(db)).toEqual([]);
    expect(await pairs(db)).toEqual(Array.from({ length: 12 }, (_, i) => ['hook_text', 'hooks-log', i + 1, SDK, i + 1]));
  });

  // Times (s): P1 3600, H1 5400, H2 5400, P2 6300, H3 6300, H4 8100, P3 9900; window 1 hour. Round 1: H3-P2
  // are nearest (0 s); in order, H1 takes P1 and H2 the next primary left, P3, which is outside its window
  // (4500 s), so no pair, and H4 finds no primary after P3. Round 2 pairs H4-P3 (1800 s, nearest). A single
  // round left H4 in events though its twin was free; H2 stays (4 copies, 3 prompts).
  it('repeats rounds until one pairs nothing: a copy the in-order pass passed over pairs in round 2', async () => {
    const db = await open([
      prompt(1, 'continue', at(3600)),
      prompt(2, 'continue', at(6300)),
      prompt(3, 'continue', at(9900)),
      hookPrompt(1, 'continue', at(5400)),
      hookPrompt(2, 'continue', at(5400)),
      hookPrompt(3, 'continue', at(6300)),
      hookPrompt(4, 'continue', at(8100)),
    ]);
    expect(
      await db.query(
        `select dropped_source_line::INTEGER as h, kept_source_line::INTEGER as p, round_number, rule_pass, rule_round from duplicates order by h`,
      ),
    ).toEqual([
      { h: 1, p: 1, round_number: 1, rule_pass: 'in_order', rule_round: 2 },
      { h: 3, p: 2, round_number: 1, rule_pass: 'nearest', rule_round: 1 },
      { h: 4, p: 3, round_number: 2, rule_pass: 'nearest', rule_round: 1 },
    ]);
    expect(await keptSecondary(db)).toEqual([['hooks-log', 2, 'continue']]);
  });

  it('pairs n hook copies with m transcript prompts, each with its own; the copy without a twin stays', async () => {
    const db = await open([
      prompt(1, 'continue', at(0)),
      prompt(2, 'continue', at(600)),
      prompt(3, 'continue', at(1200)),
      hookPrompt(1, 'continue', at(-1)),
      // No transcript message for this one (e.g. a turn the transcript lost): as far from both neighbours.
      hookPrompt(2, 'continue', at(300)),
      hookPrompt(3, 'continue', at(599)),
      hookPrompt(4, 'continue', at(1201)),
    ]);
    expect(await pairs(db)).toEqual([
      ['hook_text', 'hooks-log', 1, SDK, 1],
      ['hook_text', 'hooks-log', 3, SDK, 2],
      ['hook_text', 'hooks-log', 4, SDK, 3],
    ]);
    expect(await keptSecondary(db)).toEqual([['hooks-log', 2, 'continue']]);
  });

  it('pairs hook copies that start late (hooks turned on mid-session) with their own prompts, not the first ones', async () => {
    const db = await open([
      ...Array.from({ length: 10 }, (_, i) => prompt(i + 1, 'continue', at(i * 60))),
      ...Array.from({ length: 5 }, (_, i) => hookPrompt(i + 1, 'continue', at((i + 5) * 60 + 0.2))),
    ]);
    expect(await pairs(db)).toEqual(Array.from({ length: 5 }, (_, i) => ['hook_text', 'hooks-log', i + 1, SDK, i + 6]));
  });

  it('pairs copies at the same instant first with first, in file order', async () => {
    const db = await open([
      prompt(1, 'continue', at(0)),
      prompt(2, 'continue', at(0)),
      prompt(3, 'continue', at(0)),
      hookPrompt(1, 'continue', at(0)),
      hookPrompt(2, 'continue', at(0)),
      hookPrompt(3, 'continue', at(0)),
    ]);
    expect(await pairs(db)).toEqual([1, 2, 3].map((n) => ['hook_text', 'hooks-log', n, SDK, n]));
  });

  it('never pairs a leftover copy with a prompt outside the window, even when it is the only one left', async () => {
    // H2 and P2 choose each other; H1 is left, and P1, the only prompt left, is 61 minutes before it.
    const db = await open([
      prompt(1, 'continue', at(0)),
      prompt(2, 'continue', at(5000)),
      hookPrompt(1, 'continue', at(3660)),
      hookPrompt(2, 'continue', at(6200)),
    ]);
    expect(await pairs(db)).toEqual([['hook_text', 'hooks-log', 2, SDK, 2]]);
    expect(await keptSecondary(db)).toEqual([['hooks-log', 1, 'continue']]);
  });

  it('never drops a hook copy of a session whose transcript is gone for the same text in another session', async () => {
    const db = await open([prompt(1, 'continue', at(10)), hookPrompt(1, 'continue', at(0), { session_id: 's-gone' })]);
    expect(await pairs(db)).toEqual([]);
    expect(await keptSecondary(db)).toEqual([['hooks-log', 1, 'continue']]);
  });

  // The history holds the newest prompts, oldest first, so undated lines pair with the newest prompts left.
  const s2 = files.sdkMessages('s2');
  const s3 = files.sdkMessages('s3');
  const inSession = (sid: string, line: number, s: number) => prompt(line, 'continue', at(s), { session_id: sid });

  it('pairs 3 undated history lines with the 3 newest of 5 identical prompts, in order', async () => {
    const db = await open([
      inSession('s1', 1, 0),
      inSession('s1', 2, 60),
      inSession('s2', 1, 3600),
      inSession('s2', 2, 3660),
      inSession('s3', 1, 7200),
      history(1, 'continue', null),
      history(2, 'continue', null),
      history(3, 'continue', null),
    ]);
    expect(await pairs(db)).toEqual([
      ['input_history', 'input-history', 1, s2, 1],
      ['input_history', 'input-history', 2, s2, 2],
      ['input_history', 'input-history', 3, s3, 1],
    ]);
    expect(await db.query(`select distinct rule_round, distance_ms::INTEGER as d from duplicates`)).toEqual([
      { rule_round: 2, d: 0 },
    ]);
  });

  it('pairs the 3 newest of 5 undated history lines with 3 identical prompts; the 2 oldest lines (transcripts gone) stay', async () => {
    const db = await open([
      inSession('s1', 1, 0),
      inSession('s2', 1, 60),
      inSession('s3', 1, 120),
      ...[1, 2, 3, 4, 5].map((n) => history(n, 'continue', null)),
    ]);
    expect(await pairs(db)).toEqual([
      ['input_history', 'input-history', 3, SDK, 1],
      ['input_history', 'input-history', 4, s2, 1],
      ['input_history', 'input-history', 5, s3, 1],
    ]);
    expect(await keptSecondary(db)).toEqual([
      ['input-history', 1, 'continue'],
      ['input-history', 2, 'continue'],
    ]);
  });

  it('pairs the dated last history line within 2 s first, then the undated lines with the prompts left', async () => {
    const db = await open([
      inSession('s1', 1, 0),
      inSession('s1', 2, 60),
      inSession('s2', 1, 120),
      inSession('s2', 2, 180),
      history(1, 'continue', null),
      history(2, 'continue', null),
      history(3, 'continue', null),
      history(4, 'continue', at(180.5)),
    ]);
    expect(
      await db.query(
        `select dropped_source_line::INTEGER as line, rule_round, distance_ms::INTEGER as d, kept_session_id as s, kept_source_line::INTEGER as kl from duplicates order by line`,
      ),
    ).toEqual([
      { line: 1, rule_round: 2, d: 0, s: 's1', kl: 1 },
      { line: 2, rule_round: 2, d: 0, s: 's1', kl: 2 },
      { line: 3, rule_round: 2, d: 0, s: 's2', kl: 1 },
      { line: 4, rule_round: 1, d: 500, s: 's2', kl: 2 },
    ]);
  });

  it('pairs search-index copies with the transcript rows of their own line; a copy whose message is gone stays', async () => {
    const db = await open([
      prompt(6, 'continue', at(0)),
      prompt(11, 'continue', at(60)),
      searchDoc(1, 'continue'),
      searchDoc(6, 'continue'),
      searchDoc(11, 'continue'),
    ]);
    expect(await pairs(db)).toEqual([
      ['search_index', 'search-index', 6, SDK, 6],
      ['search_index', 'search-index', 11, SDK, 11],
    ]);
    expect(await keptSecondary(db)).toEqual([['search-index', 1, 'continue']]);
  });

  it('pairs 400 copies of one prompt in each secondary store one-to-one, and each transcript prompt absorbs at most one', async () => {
    const n = 400;
    const db = await open([
      ...Array.from({ length: n }, (_, i) => prompt(i + 1, 'continue', at(i * 30))),
      ...Array.from({ length: n }, (_, i) => hookPrompt(i + 1, 'continue', at(i * 30 + 0.1))),
      ...Array.from({ length: n }, (_, i) => history(i + 1, 'continue', null, { home: 'home/u' })),
      ...Array.from({ length: n }, (_, i) => searchDoc(i + 1, 'continue')),
      // A second home holds the same transcript, so the history lines have prompts left to absorb them.
      ...Array.from({ length: n }, (_, i) => prompt(i + 1, 'continue', at(i * 30), { home: 'home/v', session_id: 's9' })),
      ...Array.from({ length: n }, (_, i) => history(i + 1, 'continue', null, { home: 'home/v' })),
    ]);
    const byRule = await db.query(
      `select rule, count(*)::INTEGER as n, count(distinct kept_source_file || kept_source_line)::INTEGER as kept from duplicates group by all order by rule`,
    );
    // Each rule pairs on its own: every store's 400 copies find the 400 prompts of home/u (the history lines of
    // home/v theirs), and no prompt absorbs two copies of one store.
    expect(byRule).toEqual([
      { rule: 'hook_text', n, kept: n },
      { rule: 'input_history', n: 2 * n, kept: 2 * n },
      { rule: 'search_index', n, kept: n },
    ]);
    expect(
      await db.query(`select count(*)::INTEGER as n from duplicates where rule = 'input_history' and home = 'home/v'`),
    ).toEqual([{ n }]);
    expect(
      await db.query(
        `select count(*)::INTEGER as n from (select rule, kept_row_id from duplicates group by all having count(*) > 1)`,
      ),
    ).toEqual([{ n: 0 }]);
  });
});

describe('input_history', () => {
  it('pairs a dated history line within 2 seconds (1.5 s) and not at 3 s', async () => {
    const db = await open([
      prompt(1, 'add a test', at(0)),
      prompt(2, 'run it', at(100)),
      history(19, 'add a test', at(1.5)),
      history(20, 'run it', at(103)),
    ]);
    expect(await pairs(db)).toEqual([['input_history', 'input-history', 19, SDK, 1]]);
    expect(await keptSecondary(db)).toEqual([['input-history', 20, 'run it']]);
  });

  it('pairs an undated history line on text alone, with a prompt of any session of the same home (legacy tasks too)', async () => {
    const ui = files.uiMessages('1760000000000');
    const db = await open([
      prompt(1, 'add a test', at(0)),
      {
        store: 'vscode-tasks',
        client: 'vscode',
        session_id: '1760000000000',
        source_line: 1,
        turn_type: 'user',
        kind: 'say:task',
        text: 'explain this repo',
        timestamp_utc: at(-86400 * 30),
      },
      history(1, 'explain this repo', null),
      history(2, 'add a test', null),
      // An undated line whose text is only an assistant reply: user rows only.
      {
        store: 'sdk-sessions',
        session_id: 's1',
        source_line: 2,
        turn_type: 'assistant',
        kind: 'text',
        text: 'done',
        timestamp_utc: at(5),
      },
      history(3, 'done', null),
    ]);
    expect(await pairs(db)).toEqual([
      ['input_history', 'input-history', 1, ui, 1],
      ['input_history', 'input-history', 2, SDK, 1],
    ]);
    expect(await keptSecondary(db)).toEqual([['input-history', 3, 'done']]);
  });

  it('does not pair with a prompt of another home or another host', async () => {
    const db = await open([
      prompt(1, 'add a test', at(0)),
      history(1, 'add a test', null, { home: 'home/other' }),
      history(2, 'add a test', null, { host: 'h2' }),
    ]);
    expect(await pairs(db)).toEqual([]);
    expect((await db.query(`select count(*)::INTEGER as n from events where store = 'input-history'`))[0].n).toBe(2);
  });
});

describe('search_index', () => {
  it('pairs a document with the transcript row of the same session and text; other sessions and texts stay', async () => {
    const db = await open([
      prompt(1, 'add a test', at(0)),
      {
        store: 'sdk-sessions',
        session_id: 's1',
        source_line: 2,
        turn_type: 'assistant',
        kind: 'text',
        text: 'Added.',
        timestamp_utc: at(9),
      },
      {
        store: 'search-index',
        session_id: 's1',
        source_line: null,
        turn_type: 'system',
        kind: 'search_index_session',
        text: 'session search index: title=t workspace_root=/w prompt=add a test document_count=2 indexed_at=1',
        timestamp_utc: at(0),
      },
      searchDoc(1, 'add a test'),
      searchDoc(2, 'Added.', { turn_type: 'assistant' }),
      searchDoc(1, 'add a test', { session_id: 's2' }),
      searchDoc(3, '[tool_use toolu_1 read_file]', { turn_type: 'assistant' }),
    ]);
    expect(await pairs(db)).toEqual([
      ['search_index', 'search-index', 1, SDK, 1],
      ['search_index', 'search-index', 2, SDK, 2],
    ]);
    const kept = await db.query(
      `select session_id, kind, source_line::INTEGER as line from events where store = 'search-index' order by session_id, source_line nulls first`,
    );
    expect(kept).toEqual([
      { session_id: 's1', kind: 'search_index_session', line: null },
      { session_id: 's1', kind: 'search_document', line: 3 },
      { session_id: 's2', kind: 'search_document', line: 1 },
    ]);
  });

  // The document's text is the part before its first tool call (the reader's `text\n...\ntool_use\n...`
  // layout): its hash is not that of the whole document text, and sql/20 takes the transcript text's
  // SHA-256 for either.
  it('pairs an assistant document with tool calls with the transcript row of its text before the first call', async () => {
    const db = await open([
      {
        store: 'sdk-sessions',
        session_id: 's1',
        source_line: 4,
        turn_type: 'assistant',
        kind: 'text',
        text: 'Listing.',
        timestamp_utc: at(9),
      },
      searchDoc(4, 'Listing.\ntool_use\ncall_8\nrun_commands\nls', { turn_type: 'assistant' }),
      searchDoc(5, 'Listed.\ntool_use\ncall_9\nrun_commands\nls', { turn_type: 'assistant' }),
    ]);
    expect(await pairs(db)).toEqual([['search_index', 'search-index', 4, SDK, 4]]);
    expect(await keptSecondary(db)).toEqual([['search-index', 5, 'Listed.\ntool_use\ncall_9\nrun_commands\nls']]);
    // sql/20's primary rows are a CTE of its own: no table of them
    expect(await db.query(`select table_name from duckdb_tables() where table_name = 'int_duplicate_primary_rows'`)).toEqual([]);
  });

  it('pairs two copies of a repeated prompt one-to-one', async () => {
    const db = await open([
      prompt(1, 'continue', at(0)),
      prompt(5, 'continue', at(60)),
      searchDoc(1, 'continue'),
      searchDoc(5, 'continue'),
    ]);
    expect(await pairs(db)).toEqual([
      ['search_index', 'search-index', 1, SDK, 1],
      ['search_index', 'search-index', 5, SDK, 5],
    ]);
    // Each document's line is its own message's line: both pair in pass 1 (nearest).
    expect(await db.query(`select rule_round from duplicates order by dropped_source_line`)).toEqual([
      { rule_round: 1 },
      { rule_round: 1 },
    ]);
  });

  // The search index records no time: the record position (document ordinal + 1 = message line) is what
  // pairs each of the 7 documents with its own message (once all 7 chose line 1, and a cap on rounds left
  // documents 6 and 7 in events).
  it('drops every index copy of a prompt typed 7 times in one session', async () => {
    const lines = [1, 6, 11, 16, 21, 26, 31];
    const db = await open([
      ...lines.map((l) => prompt(l, 'continue', at(l * 10))),
      ...lines.map((l) => searchDoc(l, 'continue')),
    ]);
    expect(await keptSecondary(db)).toEqual([]);
    expect((await db.query(`select count(*)::INTEGER as n from duplicates where rule = 'search_index'`))[0].n).toBe(7);
  });
});

describe('rule order', () => {
  it('one transcript prompt absorbs one copy of each store: the input-history and the search-index copies both go', async () => {
    const db = await open([prompt(1, 'add a test', at(0)), history(20, 'add a test', at(1)), searchDoc(1, 'add a test')]);
    expect(await pairs(db)).toEqual([
      ['input_history', 'input-history', 20, SDK, 1],
      ['search_index', 'search-index', 1, SDK, 1],
    ]);
    expect(await keptSecondary(db)).toEqual([]);
  });

  it('two copies of one store need two transcript prompts: the second history line stays', async () => {
    const db = await open([prompt(1, 'add a test', at(0)), history(19, 'add a test', null), history(20, 'add a test', at(1))]);
    expect(await pairs(db)).toEqual([['input_history', 'input-history', 20, SDK, 1]]);
    expect(await keptSecondary(db)).toEqual([['input-history', 19, 'add a test']]);
  });

  it('a prompt in the transcript, the hook log, the input history and the search index: all three copies go', async () => {
    const db = await open([
      prompt(1, 'add a test', at(0)),
      hookPrompt(1, 'add a test', at(0)),
      history(20, 'add a test', null),
      searchDoc(1, 'add a test'),
    ]);
    expect(await pairs(db)).toEqual([
      ['hook_text', 'hooks-log', 1, SDK, 1],
      ['input_history', 'input-history', 20, SDK, 1],
      ['search_index', 'search-index', 1, SDK, 1],
    ]);
    expect(await keptSecondary(db)).toEqual([]);
  });

  it('with two transcript copies of the prompt, each secondary copy absorbs its own', async () => {
    const db = await open([
      prompt(1, 'add a test', at(0)),
      prompt(7, 'add a test', at(500)),
      history(20, 'add a test', at(500.5)),
      searchDoc(1, 'add a test'),
    ]);
    expect(await pairs(db)).toEqual([
      ['input_history', 'input-history', 20, SDK, 7],
      ['search_index', 'search-index', 1, SDK, 1],
    ]);
    expect(await keptSecondary(db)).toEqual([]);
  });
});

describe('duplicates table and events', () => {
  it('names the rule, the dropped row and the kept row', async () => {
    const db = await open([
      prompt(3, 'add a test', '2025-10-09T08:00:00.250Z', { source_seq: 0 }),
      history(20, 'add a test', '2025-10-09T08:00:01.873Z'),
    ]);
    const rows = await db.query(
      `select rule, rule_round, distance_ms::INTEGER as distance_ms, host, home, dropped_store, dropped_source_file,
              dropped_source_line::INTEGER as dropped_source_line, dropped_session_id, dropped_turn_type, dropped_kind,
              strftime(dropped_timestamp_utc, '%Y-%m-%dT%H:%M:%S.%g') as dropped_at, dropped_text,
              kept_store, kept_source_file, kept_source_line::INTEGER as kept_source_line, kept_source_seq, kept_session_id,
              kept_kind, strftime(kept_timestamp_utc, '%Y-%m-%dT%H:%M:%S.%g') as kept_at
       from duplicates`,
    );
    expect(rows).toEqual([
      {
        rule: 'input_history',
        rule_round: 1,
        distance_ms: 1623,
        host: 'h1',
        home: 'home/u',
        dropped_store: 'input-history',
        dropped_source_file: files.inputHistory(),
        dropped_source_line: 20,
        dropped_session_id: null,
        dropped_turn_type: 'user',
        dropped_kind: 'input_history',
        dropped_at: '2025-10-09T08:00:01.873',
        dropped_text: 'add a test',
        kept_store: 'sdk-sessions',
        kept_source_file: SDK,
        kept_source_line: 3,
        kept_source_seq: 0,
        kept_session_id: 's1',
        kept_kind: 'text',
        kept_at: '2025-10-09T08:00:00.250',
      },
    ]);
  });

  it('events = every primary row + every secondary row not dropped + derived rows', async () => {
    const db = await open([
      // Manifest (3 primary rows) and a lead transcript whose 2nd message changes the model (1 derived row).
      {
        store: 'sdk-sessions',
        session_id: 's1',
        source_line: 1,
        source_seq: 0,
        turn_type: 'system',
        kind: 'session_start',
        text: 'session start: source=cli',
        timestamp_utc: at(-5),
      },
      {
        store: 'sdk-sessions',
        session_id: 's1',
        source_line: 1,
        source_seq: 1,
        turn_type: 'system',
        kind: 'model',
        model: 'm-a',
        provider: 'p',
        text: 'model: m-a provider=p',
        timestamp_utc: at(-5),
      },
      prompt(1, 'add a test', at(0), { model: 'm-a', provider: 'p' }),
      {
        store: 'sdk-sessions',
        session_id: 's1',
        source_line: 2,
        turn_type: 'assistant',
        kind: 'text',
        model: 'm-b',
        provider: 'p',
        text: 'Added.',
        timestamp_utc: at(9),
      },
      // Secondary: 3 dropped, 1 kept.
      history(20, 'add a test', null),
      searchDoc(2, 'Added.', { turn_type: 'assistant' }),
      searchDoc(1, 'add a test'),
      hookPrompt(1, 'something else', at(0)),
    ]);
    const [counts] = await db.query(
      `select (select count(*) from events)::INTEGER as events,
              (select count(*) from int_primary_events)::INTEGER as prim,
              (select count(*) from int_secondary_events)::INTEGER as sec,
              (select count(*) from duplicates)::INTEGER as dropped,
              (select count(*) from int_derived_events)::INTEGER as derived`,
    );
    expect(counts).toEqual({ events: 6, prim: 4, sec: 4, dropped: 3, derived: 1 });
    expect(counts.events).toBe(
      (counts.prim as number) + (counts.sec as number) - (counts.dropped as number) + (counts.derived as number),
    );
    expect(await keptSecondary(db)).toEqual([['hooks-log', 1, 'something else']]);
  });

  it('never drops a primary row, even one that is an exact copy of another primary row', async () => {
    const db = await open([
      prompt(1, 'same', at(0)),
      prompt(1, 'same', at(0), { store: 'cline-tasks', session_id: '1761000000000', kind: 'say:task' }),
    ]);
    expect((await db.query(`select count(*)::INTEGER as n from events`))[0].n).toBe(2);
    expect((await db.query(`select count(*)::INTEGER as n from duplicates`))[0].n).toBe(0);
  });

  it('never pairs rows of different agents: a Roo Code prompt is no copy of a Cline history line or hook prompt', async () => {
    const rooPrompt = (agent: AgentId): TestRow => ({
      store: 'roo-tasks',
      session_id: 'r1',
      source_line: 1,
      turn_type: 'user',
      kind: 'say:text',
      text: 'ship it',
      timestamp_utc: at(0),
      agent,
    });
    const cline = [
      history(1, 'ship it', at(0.5), { agent: 'cline' }),
      hookPrompt(1, 'ship it', at(0.5), { agent: 'cline', session_id: 'r1' }),
    ];
    const mixed = await open([rooPrompt('roo-code'), ...cline]);
    expect(await pairs(mixed)).toEqual([]);
    expect(await keptSecondary(mixed)).toEqual([
      ['hooks-log', 1, 'ship it'],
      ['input-history', 1, 'ship it'],
    ]);
    // the same rows of one agent are paired: the agent alone kept them apart
    const same = await open([rooPrompt('cline'), ...cline]);
    expect((await pairs(same)).map(([rule]) => rule).sort()).toEqual(['hook_text', 'input_history']);
  });
});
