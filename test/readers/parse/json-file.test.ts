/** Whole-file JSON: invalid UTF-8 is read as U+FFFD and said, and a reader turns that into a parser row. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJsonFile } from '../../../src/readers/parse/json-file.js';
import { readSettings } from '../../../src/readers/settings/reader.js';
import { collect, makeSource } from '../../helpers/source.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-json-file-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function put(name: string, bytes: Buffer): string {
  const file = path.join(work, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, bytes);
  return file;
}

describe('readJsonFile', () => {
  it('parses valid UTF-8 with a BOM and says nothing was repaired', async () => {
    const file = put('bom.json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"mode":"act","t":"é"}')]));
    expect(await readJsonFile(file)).toEqual({ ok: true, value: { mode: 'act', t: 'é' }, repair: null });
  });

  it('reads invalid UTF-8 bytes as U+FFFD and says so', async () => {
    const file = put('bad.json', Buffer.concat([Buffer.from('{"mode":"a'), Buffer.from([0xff, 0xfe]), Buffer.from('ct"}')]));
    expect(await readJsonFile(file)).toEqual({
      ok: true,
      value: { mode: 'a\ufffd\ufffdct' },
      repair: 'invalid UTF-8 bytes read as U+FFFD',
    });
  });

  it('is not ok for an empty file or a file that is not JSON', async () => {
    expect(await readJsonFile(put('empty.json', Buffer.alloc(0)))).toEqual({ ok: false, message: 'empty file' });
    expect((await readJsonFile(put('text.json', Buffer.from('mode=act')))).ok).toBe(false);
  });
});

describe('a settings file with invalid UTF-8', () => {
  it('keeps its rows and adds one parser row naming the file', async () => {
    const root = path.join(work, 'img', 'home', 'u', '.cline', 'data');
    const file = put(
      path.join('img', 'home', 'u', '.cline', 'data', 'globalState.json'),
      Buffer.concat([Buffer.from('{"mode":"act","note":"'), Buffer.from([0xc3]), Buffer.from('"}')]),
    );
    const rows = await collect(
      readSettings,
      makeSource({ store: 'settings', imageRoot: path.join(work, 'img'), root, files: [file] }),
    );
    expect(rows.map((r) => [r.kind, r.text])).toEqual([
      ['parser', 'parser: home/u/.cline/data/globalState.json: invalid UTF-8 bytes read as U+FFFD'],
      ['permission', 'permission setting: mode=act (from .cline/data/globalState.json, file mtime)'],
    ]);
  });
});
