/**
 * The `cli-notices` store (readers/cli-notices/reader.ts) on fixtures/cli-notices/ (the file as Cline's CLI writes
 * it) and broken copies written here: discovery files it under its own store, the reader gives one
 * `notice` row per shown entry at the file's mtime, and a load puts it in the warehouse.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverImage, storeOf } from '../../../src/discover/discover.js';
import { runLoad } from '../../../src/load/run.js';
import { readCliNotices } from '../../../src/readers/cli-notices/reader.js';
import { queryWarehouse } from '../../../src/warehouse/build.js';
import { collect, fixture, makeSource } from '../../helpers/source.js';

const DATA = 'home/u/.cline/data';
const FILE = `${DATA}/settings/cli-notices.json`;
const FROM = '(from .cline/data/settings/cli-notices.json, file mtime)';
/** The mtime each test image's file is given. */
const MTIME = Date.parse('2026-07-01T10:00:00.000Z');

const tmpDirs: string[] = [];
afterAll(() => {
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the fixture image whose cli-notices.json holds `content` (the fixture's when null), with mtime MTIME. */
function image(content: string | null): string {
  const img = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-cli-notices-'));
  tmpDirs.push(img);
  cpSync(fixture('cli-notices', 'img'), img, { recursive: true });
  const file = path.join(img, FILE);
  mkdirSync(path.dirname(file), { recursive: true });
  if (content !== null) writeFileSync(file, content);
  utimesSync(file, MTIME / 1000, MTIME / 1000);
  return img;
}

async function rowsOf(img: string) {
  return collect(readCliNotices, makeSource({ store: 'cli-notices', imageRoot: img, root: path.join(img, DATA) }));
}

describe('discovery', () => {
  it('files settings/cli-notices.json under ~/.cline/data, and nowhere else, as cli-notices', async () => {
    expect(storeOf('settings/cli-notices.json', 'cline-data')).toBe('cli-notices');
    expect(storeOf('settings/cli-notices.json', 'vscode-globalstorage')).toBe(null);
    const found = await discoverImage({ host: 'h', root: fixture('cli-notices', 'img') });
    expect(found.problems).toEqual([]);
    expect(
      found.sources.map((s) => [
        s.store,
        s.role,
        s.home,
        s.client,
        s.files.map((f) => path.relative(fixture('cli-notices', 'img'), f)),
      ]),
    ).toEqual([['cli-notices', 'primary', 'home/u', 'cline', [FILE]]]);
  });
});

describe('readCliNotices', () => {
  it('gives one notice row per shown entry at the file mtime', async () => {
    const rows = await rowsOf(image(null));
    expect(rows.map((r) => [r.source_file, r.source_line, r.turn_type, r.kind, r.timestamp_utc, r.text, r.is_error])).toEqual([
      [FILE, 1, 'system', 'notice', MTIME, `cli notice: cline-cli-cline-pass-intro shown=true ${FROM}`, null],
    ]);
  });

  it('keeps every entry in key order, and makes a value that is not a boolean a parser row', async () => {
    const rows = await rowsOf(image(JSON.stringify({ shown: { a: true, b: 'yes', c: false }, other: 1 })));
    expect(rows.map((r) => [r.source_line, r.kind, r.text])).toEqual([
      [1, 'notice', `cli notice: a shown=true ${FROM}`],
      [2, 'parser', `parser: ${FILE}: notice b: yes is not true or false`],
      [3, 'notice', `cli notice: c shown=false ${FROM}`],
    ]);
  });

  it.each([
    ['not JSON', '{"shown": {', /^parser: home\/u\/\.cline\/data\/settings\/cli-notices\.json: .*JSON/],
    ['an array', '[]', /: not a JSON object with a shown object$/],
    ['shown not an object', '{"shown": ["cline-cli-cline-pass-intro"]}', /: not a JSON object with a shown object$/],
    ['empty', '', /: empty file$/],
  ])('a file that is %s is one parser row', async (_name, content, text) => {
    const rows = await rowsOf(image(content));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'parser', turn_type: 'system', is_error: true, source_file: FILE });
    expect(rows[0].text).toMatch(text);
  });

  it('gives no row for an empty shown object', async () => {
    expect(await rowsOf(image('{"shown": {}}'))).toEqual([]);
  });
});

describe('load', () => {
  it('writes a cli-notices partition whose row is in events and whose store is in stores', async () => {
    const work = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-cli-notices-load-'));
    tmpDirs.push(work);
    const out = path.join(work, 'out');
    await runLoad({ hosts: [{ host: 'lnx-9', root: image(null) }], out, concurrency: 1 });
    const events = await queryWarehouse(
      out,
      `select host, store, home, client, source_role, kind, epoch_ms(timestamp_utc)::DOUBLE, text from events`,
    );
    expect(events.rows).toEqual([
      [
        'lnx-9',
        'cli-notices',
        'home/u',
        'cline',
        'primary',
        'notice',
        MTIME,
        `cli notice: cline-cli-cline-pass-intro shown=true ${FROM}`,
      ],
    ]);
    const stores = await queryWarehouse(out, `select role, files from stores where store = 'cli-notices'`);
    expect(stores.rows).toEqual([['primary', [{ root_kind: 'cline-data', pattern: 'settings/cli-notices.json' }]]]);
  });
});
