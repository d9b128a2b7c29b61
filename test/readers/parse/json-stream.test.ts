/**
 * The JSON array splitter (readers/parse/json-elements.ts) and streamJson's fast path: the same values as
 * JSON.parse and as the token parser on real and tricky documents, whatever the chunk boundaries, and
 * the token parser's answer wherever the fast path gives up.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ELIDED } from '../../../src/readers/parse/base64-elision.js';
import { ArraySplitter, GROUP_BYTES, MAX_ELEMENT_BYTES } from '../../../src/readers/parse/json-elements.js';
import { streamJson, streamJsonTokens, type JsonEvent } from '../../../src/readers/parse/json-stream.js';

const REAL = path.resolve(__dirname, '../../../../shared/real-cline');
const REAL_FILES = ['messages_success.messages.json', 'session_session.messages.json'];
/** The real transcripts are beside the repository on the team's machines, not in a fresh clone. */
const HAS_REAL = REAL_FILES.every((name) => existsSync(path.join(REAL, name)));
const dir = mkdtempSync(path.join(tmpdir(), 'clinetrail-json-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let fileNo = 0;
function file(content: string | Buffer): string {
  const f = path.join(dir, `f${fileNo++}.json`);
  writeFileSync(f, content);
  return f;
}

async function events(gen: AsyncGenerator<JsonEvent>): Promise<JsonEvent[]> {
  const out: JsonEvent[] = [];
  for await (const e of gen) out.push(e);
  return out;
}

/** Every value the splitter gives for `doc` pushed in the pieces cut at `cuts`, and its end state. */
function split(doc: Buffer, key: string | null, cuts: number[]) {
  const s = new ArraySplitter(key);
  const values: unknown[] = [];
  let from = 0;
  for (const at of [...cuts, doc.length]) {
    values.push(...s.push(doc.subarray(from, at)).map((e) => e.value));
    from = at;
  }
  const end = s.end();
  values.push(...end.values.map((e) => e.value));
  return { values, truncated: end.truncated, giveUp: s.giveUp };
}

const TRICKY = [
  { text: 'a "quoted" word, a comma, ] a bracket } and {braces}' },
  { text: 'backslashes \\\\ and \\" and a trailing one \\\\' },
  { text: '\\\\\\\\\\\\"' },
  { say: 'tool', text: JSON.stringify({ tool: 'editedExistingFile', content: '[1, 2, {"a": "b"}]' }) },
  { text: 'émoji 🚀, 中文, Ωmega', images: ['data:image/png;base64,iVBORw0KGgo='] },
  { nested: [[1, [2, [3, []]]], { a: { b: { c: ',' } } }], n: -1.5e3, t: true, f: false, z: null },
  'a bare string',
  42,
  [],
  {},
];

describe('ArraySplitter', () => {
  const doc = Buffer.from(` \n[ ${TRICKY.map((v) => JSON.stringify(v)).join(' ,\n')} ]\n`);

  it('gives the same values as JSON.parse wherever one chunk boundary falls', () => {
    for (let at = 0; at <= doc.length; at++) {
      const r = split(doc, null, [at]);
      expect(r.giveUp, `cut at ${at}`).toBeNull();
      expect(r.truncated).toBe(false);
      expect(r.values, `cut at ${at}`).toEqual(TRICKY);
    }
  });

  it('gives the same values when every byte is its own chunk', () => {
    const cuts = Array.from({ length: doc.length - 1 }, (_, i) => i + 1);
    expect(split(doc, null, cuts).values).toEqual(TRICKY);
  });

  it('splits the array under a key of the root object and checks the rest of the document', () => {
    const obj = Buffer.from(JSON.stringify({ version: 1, meta: { messages: [9] }, messages: TRICKY, after: 'x' }));
    for (const at of [0, 10, 30, 60, obj.length - 5]) {
      const r = split(obj, 'messages', [at]);
      expect(r.giveUp).toBeNull();
      expect(r.values).toEqual(TRICKY);
    }
  });

  it('reads an empty array as no values', () => {
    expect(split(Buffer.from('[ ]'), null, [])).toEqual({ values: [], truncated: false, giveUp: null });
    expect(split(Buffer.from('{"messages":[]}'), 'messages', [5])).toEqual({ values: [], truncated: false, giveUp: null });
  });

  it('keeps the complete elements of a truncated array and says it is truncated', () => {
    const whole = '[{"a":1},{"b":"x,y"},{"c":[1,2';
    for (let at = 0; at <= whole.length; at++) {
      const r = split(Buffer.from(whole), null, [at]);
      expect(r.giveUp).toBeNull();
      expect(r.truncated).toBe(true);
      expect(r.values).toEqual([{ a: 1 }, { b: 'x,y' }]);
    }
    expect(split(Buffer.from('[{"a":1},{"b":2}'), null, []).values).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('gives up on what it cannot vouch for', () => {
    const cases: Array<[string, string | null]> = [
      ['[1,,2]', null],
      ['[1,2,]', null],
      ['[1 2]', null],
      ['[{"a":1}}', null],
      ['[1] [2]', null],
      ['[1] x', null],
      ['{"a":1}', null],
      ['x[1]', null],
      ['[1]', 'messages'],
      ['{"messages":{"a":1}}', 'messages'],
      ['{"messages":[1],"messages":[2]}', 'messages'],
      ['{"a" 1,"messages":[1]}', 'messages'],
      ['', null],
    ];
    for (const [doc, key] of cases) expect(split(Buffer.from(doc), key, []).giveUp, doc).not.toBeNull();
  });

  // issue 30: a chunk's elements are parsed in groups of about GROUP_BYTES, never as one large string
  const MANY = Array.from({ length: 1200 }, (_, i) => ({
    ...(TRICKY[i % TRICKY.length] as object),
    i,
    big: i % 97 === 0 ? `long ${'é,]"\\'.repeat(GROUP_BYTES)}` : null,
    images: i % 41 === 0 ? [`data:image/png;base64,${'QUJD'.repeat(600)}`] : [],
  }));
  const manyDoc = Buffer.from(`[${MANY.map((v) => JSON.stringify(v)).join(',\n')}]`);

  it('parses a chunk of many elements in groups, with the values JSON.parse gives wherever chunks are cut', () => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const one = split(manyDoc, null, []);
      expect(one.giveUp).toBeNull();
      expect(one.values).toEqual(MANY);
      // one call per group, not one for the whole chunk: an element over GROUP_BYTES ends its group
      const calls = parse.mock.calls.length;
      expect(calls).toBeGreaterThanOrEqual(MANY.filter((v) => v.big !== null).length);
      expect(calls).toBeLessThan(MANY.length / 4);
    } finally {
      parse.mockRestore();
    }
    for (const cuts of [[1], [GROUP_BYTES - 3], [100_000, 100_001, 300_000], [manyDoc.length - 2]]) {
      const r = split(manyDoc, null, cuts);
      expect(r.giveUp, `cuts ${cuts}`).toBeNull();
      expect(r.values, `cuts ${cuts}`).toEqual(MANY);
    }
  });

  it('elides payloads group by group, and gives each element as written', () => {
    const s = new ArraySplitter(null, true);
    const elements = [...s.push(manyDoc.subarray(0, 400_000)), ...s.push(manyDoc.subarray(400_000))];
    expect(s.end().truncated).toBe(false);
    expect(elements).toHaveLength(MANY.length);
    for (const [i, e] of elements.entries()) {
      const hadImage = MANY[i].images.length > 0;
      // an element of a group with payloads cut comes with its original, whether its own were cut or not
      if (e.original !== null) expect(e.original(), `element ${i}`).toEqual(MANY[i]);
      if (hadImage) {
        expect(e.original, `element ${i}`).not.toBeNull();
        expect((e.value as { images: string[] }).images[0]).toBe(`data:image/png;base64,${ELIDED}`);
      } else expect(e.value, `element ${i}`).toEqual(MANY[i]);
    }
  });

  it('gives up on a group that does not parse, after the groups before it', () => {
    const bad = Buffer.concat([manyDoc.subarray(0, manyDoc.length - 1), Buffer.from(',{"x" 1}]')]);
    const r = split(bad, null, []);
    expect(r.giveUp).toMatch(/^element after #/);
    expect(MANY.slice(0, r.values.length)).toEqual(r.values);
  });
});

describe('streamJson', () => {
  const compare = async (f: string, paths: string[], root: '[' | '{') => {
    const fast = await events(streamJson(f, paths, root));
    const tokens = await events(streamJsonTokens(f, paths, root));
    return { fast, tokens };
  };

  it('yields what the token parser yields on the real Cline transcripts', async (ctx) => {
    if (!HAS_REAL) return ctx.skip(`the real transcripts are not here: ${REAL} is absent (a fresh clone has no ../shared)`);
    for (const name of REAL_FILES) {
      const f = path.join(REAL, name);
      const { fast, tokens } = await compare(f, ['$.messages.*'], '{');
      expect(fast.length).toBeGreaterThan(0);
      expect(fast).toEqual(tokens);
      expect(fast.map((e) => (e.type === 'value' ? e.value : null))).toEqual(
        (JSON.parse(readFileSync(f, 'utf8')) as { messages: unknown[] }).messages,
      );
    }
  });

  it('yields what the token parser yields on a file over several chunks, BOM first', async () => {
    const many = Array.from({ length: 3000 }, (_, i) => ({
      ts: i,
      type: 'say',
      say: 'text',
      text: `${'ü\\"'.repeat(i % 200)} #${i}`,
    }));
    const f = file(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(many))]));
    const { fast, tokens } = await compare(f, ['$.*'], '[');
    expect(fast).toEqual(tokens);
    expect(fast.map((e) => (e.type === 'value' ? e.value : null))).toEqual(many);
  });

  it('falls back to the token parser on a syntax error, keeping the values before it', async () => {
    const f = file('[{"a":1},{"b":2},{"c":3 "d":4},{"e":5}]');
    const { fast, tokens } = await compare(f, ['$.*'], '[');
    expect(fast).toEqual(tokens);
    expect(fast.filter((e) => e.type === 'value')).toHaveLength(2);
    expect(fast.at(-1)).toMatchObject({ type: 'error', valuesBefore: 2 });
  });

  it('falls back for trailing data, a wrong root and an empty file, with the token parser errors', async () => {
    for (const [doc, root] of [
      ['[1,2] [3]', '['],
      ['{"a":1}', '['],
      ['', '['],
      ['[1,2]', '{'],
    ] as const) {
      const f = file(doc);
      const paths = root === '[' ? ['$.*'] : ['$.messages.*'];
      const { fast, tokens } = await compare(f, paths, root);
      expect(fast, doc).toEqual(tokens);
      expect(fast.at(-1)?.type, doc).toBe('error');
    }
  });

  it('hands an element over MAX_ELEMENT_BYTES to the token parser and loses no value', async () => {
    const big = 'x'.repeat(MAX_ELEMENT_BYTES + 1024);
    const f = file(`[{"n":1},{"text":"${big}"},{"n":3}]`);
    const got = await events(streamJson(f, ['$.*'], '['));
    expect(got.map((e) => (e.type === 'value' ? e.key : e.message))).toEqual([0, 1, 2]);
    expect((got[1] as { value: { text: string } }).value.text.length).toBe(big.length);
  });

  it('reports a truncated array after its complete elements', async () => {
    const f = file('[{"a":1},{"b":2},{"c":"cut here');
    const got = await events(streamJson(f, ['$.*'], '['));
    expect(got).toEqual([
      { type: 'value', key: 0, value: { a: 1 } },
      { type: 'value', key: 1, value: { b: 2 } },
      { type: 'error', message: 'file ends inside the JSON document (truncated)', valuesBefore: 2 },
    ]);
  });

  it('reads invalid UTF-8 as U+FFFD and reports it after the last value', async () => {
    const f = file(Buffer.concat([Buffer.from('[{"t":"a'), Buffer.from([0xff, 0xfe]), Buffer.from('b"},{"t":"c"}]')]));
    const got = await events(streamJson(f, ['$.*'], '['));
    expect(got.slice(0, 2)).toEqual([
      { type: 'value', key: 0, value: { t: 'a\ufffd\ufffdb' } },
      { type: 'value', key: 1, value: { t: 'c' } },
    ]);
    expect(got[2]).toMatchObject({ type: 'error', valuesBefore: 2 });
    expect((got[2] as { message: string }).message).toMatch(/invalid UTF-8 byte sequence\(s\) read as U\+FFFD, first at byte 8$/);
  });

  it('reads a FIFO (a file replaced after discovery) as an empty file instead of blocking', async () => {
    const fifo = path.join(dir, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    expect(await events(streamJson(fifo, ['$.*'], '['))).toEqual([{ type: 'error', message: 'empty file', valuesBefore: 0 }]);
  });
});
