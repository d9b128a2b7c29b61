/**
 * The base64 payloads of a ui_messages.json are cut out before parsing (readers/parse/base64-elision.ts),
 * and a row that would keep any of it is built from the message as written. The task below plants each
 * case: attached images and a browser screenshot (counted only), a data URL pasted into a prompt, a
 * browser result whose text is not JSON, a message that is a bare data URL, a short data URL. Every row
 * must be what the planted message says, and the same as with the elision turned off.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ELIDED, elideBase64, MIN_RUN } from '../../../src/readers/parse/base64-elision.js';
import { readLegacyTasks } from '../../../src/readers/legacy-tasks/reader.js';
import { readSdkMessages } from '../../../src/readers/shapes/sdk-messages.js';
import type { Row } from '../../../src/core/row.js';
import { collect, makeSource } from '../../helpers/source.js';

/** A base64 run of `n` characters (no padding). */
const b64 = (n: number, seed = 'iVBORw0KGgoAAAANSUhEUg') => seed.repeat(Math.ceil(n / seed.length)).slice(0, n);
const PNG = `data:image/png;base64,${b64(3 * MIN_RUN)}`;
const WEBP = `data:image/webp;base64,${b64(5 * MIN_RUN, 'UklGRiQAAABXRUJQVlA4')}`;
const SHORT = `data:image/png;base64,${b64(MIN_RUN - 1)}`;
const PASTED = `what is in ${PNG} ? it came with the report`;
const NOT_JSON = `{"screenshot":"${WEBP}","logs":"cut off`;

const MESSAGES = [
  { ts: 1760000000000, type: 'say', say: 'task', text: 'check the page' },
  { ts: 1760000001000, type: 'say', say: 'user_feedback', text: 'look', images: [PNG, PNG] },
  {
    ts: 1760000002000,
    type: 'say',
    say: 'browser_action_result',
    text: JSON.stringify({ screenshot: WEBP, logs: 'ok', currentUrl: 'http://localhost:3000/' }),
  },
  { ts: 1760000003000, type: 'say', say: 'text', text: PASTED },
  { ts: 1760000004000, type: 'say', say: 'browser_action_result', text: NOT_JSON },
  PNG,
  { ts: 1760000005000, type: 'say', say: 'user_feedback', text: SHORT },
  { ts: 1760000006000, type: 'ask', ask: 'tool', text: JSON.stringify({ tool: 'readFile', path: 'a.png', content: PNG }) },
];

/** An API history (a task without ui_messages.json) and an SDK transcript: image blocks and a pasted data URL. */
const IMAGE_BLOCK = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: b64(4 * MIN_RUN) } };
const API_HISTORY = [
  { role: 'user', ts: 1760000100000, content: [{ type: 'text', text: 'what is this' }, IMAGE_BLOCK] },
  { role: 'assistant', ts: 1760000101000, content: [{ type: 'text', text: 'a chart' }] },
  { role: 'user', ts: 1760000102000, content: PASTED },
];
const SDK_MESSAGES = {
  version: 1,
  messages: [
    { role: 'user', ts: 1760000200000, content: [{ type: 'text', text: 'see attached' }, IMAGE_BLOCK] },
    {
      role: 'user',
      ts: 1760000201000,
      content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: PASTED }, IMAGE_BLOCK] }],
    },
  ],
};

let tmp = '';
let root = '';
let sdkFile = '';

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'clinetrail-elision-'));
  root = path.join(tmp, 'img', 'store');
  fs.mkdirSync(path.join(root, 'tasks', '1760000000000'), { recursive: true });
  fs.writeFileSync(path.join(root, 'tasks', '1760000000000', 'ui_messages.json'), JSON.stringify(MESSAGES));
  fs.mkdirSync(path.join(root, 'tasks', '1760000100000'), { recursive: true });
  fs.writeFileSync(path.join(root, 'tasks', '1760000100000', 'api_conversation_history.json'), JSON.stringify(API_HISTORY));
  sdkFile = path.join(tmp, 'sdk', 'sess_1.messages.json');
  fs.mkdirSync(path.dirname(sdkFile), { recursive: true });
  fs.writeFileSync(sdkFile, JSON.stringify(SDK_MESSAGES, null, 2));
});

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** `read()` with the elision on or off (CLINETRAIL_NO_ELISION, read when a file is opened). */
async function withElision(on: boolean, read: () => Promise<Row[]>): Promise<Row[]> {
  const before = process.env.CLINETRAIL_NO_ELISION;
  if (on) delete process.env.CLINETRAIL_NO_ELISION;
  else process.env.CLINETRAIL_NO_ELISION = '1';
  try {
    return await read();
  } finally {
    if (before === undefined) delete process.env.CLINETRAIL_NO_ELISION;
    else process.env.CLINETRAIL_NO_ELISION = before;
  }
}

/** The rows of the legacy task `id`. */
function readTask(on: boolean, id: string): Promise<Row[]> {
  return withElision(on, async () => {
    const source = makeSource({
      store: 'vscode-tasks',
      imageRoot: path.join(tmp, 'img'),
      root,
      home: 'home/u',
      client: 'vscode',
    });
    return (await collect(readLegacyTasks, source)).filter((r) => r.session_id === id);
  });
}

const read = (on: boolean) => readTask(on, '1760000000000');
const readApi = (on: boolean) => readTask(on, '1760000100000');

/** The rows of the SDK transcript. */
function readSdk(on: boolean): Promise<Row[]> {
  return withElision(on, async () => {
    const source = makeSource({ store: 'sdk-sessions', imageRoot: tmp, root: path.join(tmp, 'sdk') });
    const context = { session_id: 'sess_1', project_path: null, started_ms: null, model: null, provider: null, git_branch: null };
    const rows: Row[] = [];
    for await (const row of readSdkMessages(source, sdkFile, context)) rows.push(row);
    return rows;
  });
}

describe('elideBase64', () => {
  it('cuts data URLs at any depth of quoting and data values, and keeps the JSON valid', () => {
    const doc = JSON.stringify([MESSAGES[1], MESSAGES[2], { type: 'image', source: { type: 'base64', data: b64(2 * MIN_RUN) } }]);
    const cut = elideBase64(Buffer.from(doc));
    expect(cut).not.toBeNull();
    expect(cut!.length).toBeLessThan(400);
    const [feedback, browser, block] = JSON.parse(cut!.toString()) as Array<Record<string, unknown>>;
    expect(feedback.images).toEqual([`data:image/png;base64,${ELIDED}`, `data:image/png;base64,${ELIDED}`]);
    expect(JSON.parse(browser.text as string)).toEqual({
      screenshot: `data:image/webp;base64,${ELIDED}`,
      logs: 'ok',
      currentUrl: 'http://localhost:3000/',
    });
    expect(block).toEqual({ type: 'image', source: { type: 'base64', data: ELIDED } });
  });

  it('leaves short runs, data values with an escape before their end, and documents without payloads alone', () => {
    expect(elideBase64(Buffer.from(JSON.stringify({ text: SHORT })))).toBeNull();
    expect(elideBase64(Buffer.from(JSON.stringify({ data: `${b64(2 * MIN_RUN)}"quoted"` })))).toBeNull();
    expect(elideBase64(Buffer.from(JSON.stringify(MESSAGES[0])))).toBeNull();
    // a run followed by more text, or holding a raw line break (invalid JSON, for JSON.parse to refuse as written)
    expect(elideBase64(Buffer.from(JSON.stringify({ text: PASTED })))).toBeNull();
    expect(elideBase64(Buffer.from(`{"text":"x;base64,${b64(2 * MIN_RUN)}\n${b64(8)}"}`))).toBeNull();
  });
});

describe('ui_messages.json read with base64 elision', () => {
  it('gives the rows the planted messages say, and the same rows as the full parse', async () => {
    const rows = await read(true);
    expect(rows).toEqual(await read(false));
    expect(rows.map((r) => [r.source_line, r.kind, r.text])).toEqual([
      [1, 'say:task', 'check the page'],
      [2, 'say:user_feedback', 'look | [2 image(s)]'],
      [3, 'say:browser_action_result', '{"logs":"ok","currentUrl":"http://localhost:3000/"} | [1 image(s)]'],
      [4, 'say:text', PASTED],
      [5, 'say:browser_action_result', NOT_JSON],
      [
        6,
        'parser',
        expect.stringMatching(
          /^parser: store\/tasks\/1760000000000\/ui_messages\.json line 6: message is not a JSON object: data:image\/png;base64,\.\.\.$/,
        ),
      ],
      [7, 'say:user_feedback', SHORT],
      [8, 'ask:tool', (MESSAGES[7] as { text: string }).text],
    ]);
    expect(rows[7].tool_name).toBe('readFile');
  });

  it('lets no elided payload reach a row', async () => {
    for (const row of [...(await read(true)), ...(await readApi(true)), ...(await readSdk(true))])
      for (const value of Object.values(row)) if (typeof value === 'string') expect(value).not.toContain(ELIDED);
  });
});

describe('API histories and SDK transcripts read with base64 elision', () => {
  it('counts image blocks and keeps a pasted data URL whole, as the full parse does', async () => {
    const rows = await readApi(true);
    expect(rows).toEqual(await readApi(false));
    expect(rows.map((r) => [r.source_line, r.source_seq, r.kind, r.text])).toEqual([
      [1, 0, 'text', 'what is this'],
      [1, 1, 'image', '[1 image(s)]'],
      [2, 0, 'text', 'a chart'],
      [3, 0, 'text', PASTED],
    ]);
  });

  it('does the same for a pretty SDK messages file, tool results included', async () => {
    const rows = await readSdk(true);
    expect(rows).toEqual(await readSdk(false));
    expect(rows.map((r) => [r.source_line, r.source_seq, r.kind])).toEqual([
      [1, 0, 'text'],
      [1, 1, 'image'],
      [2, 0, 'tool_result'],
    ]);
    expect(rows[1].text).toBe('[1 image(s)]');
    expect(rows[2].text).toContain(PASTED);
  });
});
