/**
 * sql/14_int_derived_events.sql on hand-made rows: the `model:` change rows of SDK transcripts and the
 * `model:` / `permission mode:` rows of legacy task_metadata.json model_usage facts (spec 002 "Model rows",
 * "Permission rows"), and where they sort in events.
 */
import { describe, expect, it } from 'vitest';
import { COLUMNS } from '../../src/core/records.js';
import { files, useModelDbs, type TestRow } from '../helpers/models.js';

const T0 = Date.parse('2025-10-09T08:00:00.000Z');
const at = (s: number): number => T0 + s * 1000;

const open = useModelDbs();

/** Manifest rows of SDK session `sid`: session start and `model: <model> provider=<provider>`. */
function manifest(sid: string, model: string, provider: string): TestRow[] {
  const common: TestRow = {
    store: 'sdk-sessions',
    session_id: sid,
    source_line: 1,
    timestamp_utc: at(0),
    turn_type: 'system',
    model,
    provider,
  };
  return [
    {
      ...common,
      source_seq: 0,
      kind: 'session_start',
      text: 'session start: source=cli status=completed pid=1 cwd=/w workspace_root=/w title=-',
    },
    { ...common, source_seq: 1, kind: 'model', text: `model: ${model} provider=${provider}` },
  ];
}

/** A transcript row: messages-file line `line`, block `seq`, with the model in force as the reader stamps it. */
function msg(sid: string, line: number, seq: number, model: string | null, extra: TestRow = {}): TestRow {
  return {
    store: 'sdk-sessions',
    session_id: sid,
    source_line: line,
    source_seq: seq,
    timestamp_utc: at(line * 10),
    turn_type: line % 2 === 1 ? 'user' : 'assistant',
    kind: 'text',
    text: `message ${line}.${seq}`,
    model,
    provider: model === null ? null : 'anthropic',
    ...extra,
  };
}

const DERIVED = `select source_file, source_line::INTEGER as line, source_seq as seq, epoch_ms(timestamp_utc)::DOUBLE as ms,
  session_id, turn_type, kind, model, text from int_derived_events order by source_file, source_line, source_seq`;

describe('SDK model change rows', () => {
  it('compare the lead transcript with the manifest model and sort just before the row that changed it', async () => {
    const lead = files.sdkMessages('s1');
    const db = await open([
      ...manifest('s1', 'claude-sonnet-4', 'anthropic'),
      msg('s1', 1, 0, 'claude-sonnet-4'),
      msg('s1', 2, 0, 'claude-opus-4'),
      msg('s1', 2, 1, 'claude-opus-4', {
        turn_type: 'tool_use',
        kind: 'tool_use',
        tool_use_id: 'toolu_1',
        tool_name: 'read_file',
      }),
      msg('s1', 3, 0, 'claude-opus-4'),
      msg('s1', 4, 0, 'gpt-5', { provider: 'openai' }),
    ]);
    expect(await db.query(DERIVED)).toEqual([
      {
        source_file: lead,
        line: 2,
        seq: -1,
        ms: at(20),
        session_id: 's1',
        turn_type: 'system',
        kind: 'model',
        model: 'claude-opus-4',
        text: 'model: claude-sonnet-4 -> claude-opus-4 provider=anthropic',
      },
      {
        source_file: lead,
        line: 4,
        seq: -1,
        ms: at(40),
        session_id: 's1',
        turn_type: 'system',
        kind: 'model',
        model: 'gpt-5',
        text: 'model: claude-opus-4 -> gpt-5 provider=openai',
      },
    ]);
    const timeline = await db.query(
      `select source_line::INTEGER as line, source_seq as seq, kind from events where source_file = '${lead}'`,
    );
    expect(timeline).toEqual([
      { line: 1, seq: 0, kind: 'text' },
      { line: 2, seq: -1, kind: 'model' },
      { line: 2, seq: 0, kind: 'text' },
      { line: 2, seq: 1, kind: 'tool_use' },
      { line: 3, seq: 0, kind: 'text' },
      { line: 4, seq: -1, kind: 'model' },
      { line: 4, seq: 0, kind: 'text' },
    ]);
    // The derived row carries none of the changing block's tool or usage columns.
    const [derived] = await db.query(
      `select tool_name, tool_use_id, tokens_in, is_error, provider, store, source_role from int_derived_events where source_line = 2`,
    );
    expect(derived).toEqual({
      tool_name: null,
      tool_use_id: null,
      tokens_in: null,
      is_error: null,
      provider: 'anthropic',
      store: 'sdk-sessions',
      source_role: 'primary',
    });
  });

  it("give a row at the lead transcript's first message when it already differs from the manifest", async () => {
    const db = await open([
      ...manifest('s1', 'claude-sonnet-4', 'anthropic'),
      msg('s1', 1, 0, 'claude-haiku-4'),
      msg('s1', 2, 0, 'claude-haiku-4'),
    ]);
    expect((await db.query(DERIVED)).map((r) => [r.line, r.seq, r.text])).toEqual([
      [1, -1, 'model: claude-sonnet-4 -> claude-haiku-4 provider=anthropic'],
    ]);
  });

  it('start a subagent transcript from its own first model, not the manifest model', async () => {
    const agent = files.sdkMessages('s1', 'agent_1760000002500_q7w8e9');
    const db = await open([
      ...manifest('s1', 'claude-sonnet-4', 'anthropic'),
      msg('s1', 1, 0, 'claude-sonnet-4'),
      msg('s1', 1, 0, 'claude-haiku-4', { source_file: agent }),
      msg('s1', 2, 0, 'claude-haiku-4', { source_file: agent }),
      msg('s1', 3, 0, 'claude-opus-4', { source_file: agent }),
    ]);
    expect((await db.query(DERIVED)).map((r) => [r.source_file, r.line, r.seq, r.text])).toEqual([
      [agent, 3, -1, 'model: claude-haiku-4 -> claude-opus-4 provider=anthropic'],
    ]);
  });

  it('give no row when the model never changes, nor for a transcript without a manifest until its model changes', async () => {
    const db = await open([
      ...manifest('s1', 'claude-sonnet-4', 'anthropic'),
      msg('s1', 1, 0, 'claude-sonnet-4'),
      msg('s1', 2, 0, 'claude-sonnet-4'),
      // s2: manifest gone; the first model is its own.
      msg('s2', 1, 0, 'claude-haiku-4'),
      msg('s2', 2, 0, 'claude-opus-4'),
    ]);
    expect((await db.query(DERIVED)).map((r) => [r.session_id, r.line, r.text])).toEqual([
      ['s2', 2, 'model: claude-haiku-4 -> claude-opus-4 provider=anthropic'],
    ]);
  });

  it('compare rows of one file only: the same session on another host has its own manifest', async () => {
    const db = await open([
      ...manifest('s1', 'claude-sonnet-4', 'anthropic'),
      ...manifest('s1', 'claude-opus-4', 'anthropic').map((r) => ({ ...r, host: 'h2' })),
      msg('s1', 1, 0, 'claude-opus-4', { host: 'h2' }),
      msg('s1', 1, 0, 'claude-sonnet-4'),
    ]);
    expect(await db.query(`select count(*)::INTEGER as n from int_derived_events`)).toEqual([{ n: 0 }]);
  });
});

describe('legacy model_usage rows', () => {
  const usage = (line: number, model: string | null, provider: string | null, mode: string | null, s: number): TestRow => ({
    store: 'vscode-tasks',
    client: 'vscode',
    session_id: '1760000000000',
    source_line: line,
    turn_type: 'system',
    kind: 'model_usage',
    model,
    provider,
    timestamp_utc: at(s),
    permission_mode: mode,
    text: `model usage: model_id=${model ?? '-'} model_provider_id=${provider ?? '-'} mode=${mode ?? '-'}`,
  });
  const META = files.taskMetadata('1760000000000');

  it('give model: and permission mode: rows for the first entry and for each change', async () => {
    const db = await open([
      usage(1, 'claude-3-5-sonnet', 'anthropic', 'act', 0),
      usage(2, 'claude-3-5-sonnet', 'anthropic', 'act', 60), // no change: nothing
      usage(3, 'claude-3-5-sonnet', 'anthropic', 'plan', 120), // mode only
      usage(4, 'gpt-4o', 'openai', 'plan', 180), // model only
      usage(5, 'claude-3-7-sonnet', 'anthropic', 'act', 240), // both
    ]);
    expect(await db.query(DERIVED)).toEqual([
      {
        source_file: META,
        line: 1,
        seq: 0,
        ms: at(0),
        session_id: '1760000000000',
        turn_type: 'system',
        kind: 'model',
        model: 'claude-3-5-sonnet',
        text: 'model: claude-3-5-sonnet model_provider_id=anthropic mode=act',
      },
      {
        source_file: META,
        line: 1,
        seq: 1,
        ms: at(0),
        session_id: '1760000000000',
        turn_type: 'system',
        kind: 'permission',
        model: 'claude-3-5-sonnet',
        text: 'permission mode: act',
      },
      {
        source_file: META,
        line: 3,
        seq: 1,
        ms: at(120),
        session_id: '1760000000000',
        turn_type: 'system',
        kind: 'permission',
        model: 'claude-3-5-sonnet',
        text: 'permission mode: act -> plan',
      },
      {
        source_file: META,
        line: 4,
        seq: 0,
        ms: at(180),
        session_id: '1760000000000',
        turn_type: 'system',
        kind: 'model',
        model: 'gpt-4o',
        text: 'model: claude-3-5-sonnet -> gpt-4o model_provider_id=openai mode=plan',
      },
      {
        source_file: META,
        line: 5,
        seq: 0,
        ms: at(240),
        session_id: '1760000000000',
        turn_type: 'system',
        kind: 'model',
        model: 'claude-3-7-sonnet',
        text: 'model: gpt-4o -> claude-3-7-sonnet model_provider_id=anthropic mode=act',
      },
      {
        source_file: META,
        line: 5,
        seq: 1,
        ms: at(240),
        session_id: '1760000000000',
        turn_type: 'system',
        kind: 'permission',
        model: 'claude-3-7-sonnet',
        text: 'permission mode: plan -> act',
      },
    ]);
  });

  it('give no permission row for an entry without a mode, and write - for absent values in the model row', async () => {
    const db = await open([usage(1, 'claude-3-5-sonnet', null, null, 0)]);
    expect((await db.query(DERIVED)).map((r) => [r.kind, r.text])).toEqual([
      ['model', 'model: claude-3-5-sonnet model_provider_id=- mode=-'],
    ]);
  });

  it('restart per task file', async () => {
    const other = files.taskMetadata('1760000100000');
    const db = await open([
      usage(1, 'claude-3-5-sonnet', 'anthropic', 'act', 0),
      { ...usage(1, 'gpt-4o', 'openai', 'plan', 10), session_id: '1760000100000', source_file: other },
    ]);
    expect((await db.query(DERIVED)).map((r) => [r.source_file, r.text])).toEqual([
      [META, 'model: claude-3-5-sonnet model_provider_id=anthropic mode=act'],
      [META, 'permission mode: act'],
      [other, 'model: gpt-4o model_provider_id=openai mode=plan'],
      [other, 'permission mode: plan'],
    ]);
  });
});

describe('SDK permission mode rows (the 3.x prompt wrapper)', () => {
  /** A prompt of session `sid` in its lead transcript, typed in `mode` (null: no wrapper). */
  const prompt = (sid: string, line: number, mode: string | null): TestRow =>
    msg(sid, line, 0, 'claude-sonnet-4', { turn_type: 'user', permission_mode: mode, text: `prompt ${line}` });

  it("give the first prompt's mode and each change, just before the prompt; none for a prompt without a mode", async () => {
    const lead = files.sdkMessages('s1');
    const db = await open([
      ...manifest('s1', 'claude-sonnet-4', 'anthropic'),
      prompt('s1', 1, 'plan'),
      msg('s1', 2, 0, 'claude-sonnet-4'),
      prompt('s1', 3, 'plan'),
      prompt('s1', 5, 'act'),
      prompt('s1', 7, null),
      prompt('s1', 9, 'act'),
    ]);
    expect(await db.query(DERIVED)).toEqual(
      [
        [1, at(10), 'permission mode: plan'],
        [5, at(50), 'permission mode: plan -> act'],
      ].map(([line, ms, text]) => ({
        source_file: lead,
        line,
        seq: -1,
        ms,
        session_id: 's1',
        turn_type: 'system',
        kind: 'permission',
        model: 'claude-sonnet-4',
        text,
      })),
    );
    const timeline = await db.query(
      `select source_line::INTEGER as line, source_seq as seq, kind from events where source_file = '${lead}' and source_line in (5, 6)`,
    );
    expect(timeline).toEqual([
      { line: 5, seq: -1, kind: 'permission' },
      { line: 5, seq: 0, kind: 'text' },
    ]);
  });

  it('restart per session', async () => {
    const db = await open([prompt('s1', 1, 'act'), prompt('s2', 1, 'act')]);
    expect((await db.query(DERIVED)).map((r) => [r.session_id, r.text])).toEqual([
      ['s1', 'permission mode: act'],
      ['s2', 'permission mode: act'],
    ]);
  });
});

describe('columns', () => {
  // Regression: at 8523229 sdk_model_rows kept sdk_changes' old_model column, so int_derived_events and,
  // through `union all by name`, events had an extra old_model column (fixed in 1016728).
  it('int_derived_events and events have exactly the raw_events columns: row_id and the Parquet columns', async () => {
    const db = await open([...manifest('s1', 'claude-sonnet-4', 'anthropic'), msg('s1', 1, 0, 'claude-opus-4')]);
    const names = ['row_id', ...COLUMNS.map((c) => c.name as string)].sort();
    const columnsOf = async (table: string): Promise<string[]> =>
      (
        await db.query(`select column_name from information_schema.columns where table_name = '${table}' order by column_name`)
      ).map((r) => r.column_name as string);
    expect(await columnsOf('raw_events')).toEqual(names);
    expect(await columnsOf('int_derived_events')).toEqual(names);
    expect(await columnsOf('events')).toEqual(names);
  });
});
