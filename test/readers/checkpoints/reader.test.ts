/**
 * The `checkpoints` store (readers/checkpoints/reader.ts) on fixtures/checkpoints/ (three shadow repositories
 * planted by its make-fixture.sh the way Cline writes them: loose objects with a restore, a dangling
 * commit and a damaged object; two packs, OFS_DELTA and REF_DELTA; a Windows workspace) and on broken
 * copies of it. The expected rows are the planted history (README.md of the fixture lists `git log`).
 */
import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { Row, Source } from '../../../src/core/row.js';
import { discoverImage, storeOf } from '../../../src/discover/discover.js';
import { folderDepth } from '../../../src/discover/store-files.js';
import { runLoad } from '../../../src/load/run.js';
import { readCheckpoints } from '../../../src/readers/checkpoints/reader.js';
import { queryWarehouse } from '../../../src/warehouse/build.js';
import { collect, copyImage, fixture, listFiles } from '../../helpers/source.js';

const SHOP = 'home/u/.cline/data/checkpoints/4111403216/.git';
const BIG = 'home/u/.cline/data/checkpoints/1656630246/.git';
const API = 'C/Users/w/AppData/Roaming/Code/User/globalStorage/saoudrizwan.claude-dev/checkpoints/365914948/.git';
const OFS_PACK = `${BIG}/objects/pack/pack-c934bfd7a9bbb4051f74bd39e6bedfebbe0da284`;
const REF_PACK = `${BIG}/objects/pack/pack-db625d19cad4691322c963a2f0eaa5f2211bbafb`;
const DAMAGED = `${SHOP}/objects/de/adbeefdeadbeefdeadbeefdeadbeefdeadbeef`;

/** The planted commits (make-fixture.sh). */
const C = {
  shopInit: '391a33ff1b07409c5a301740691c9f10b541a2da',
  shop1: '1c3dd02defe3bf3ab7ce2d34dd7a5c8346ebcc51',
  shop2: 'f90249ecdd3e65d8e8e970e2fca73f0aecfe776a',
  shop3: 'b4e56361bb705ac3bcd14f1da3e581dd15f92051',
  shop4: 'bcd64fb35361ecf8140538ae2a794b6cd3166e9b',
  shop5: '1939749b86c57c55823be8dcb717899edf990044',
  bigInit: '3dbba30c5b5245ce55d5a323f5ea0461565e5846',
  big1: 'eabb806d9e1dbfd4958e39ee293a03fa3dcf7785',
  big2: 'a9a50c5e95dad2705a4bad21f4f8ec396cbf8c76',
  big3: '0c56a4ab38be83db485b01c986f8ba1b113d61b3',
  big4: 'e64f02e3d6fabe618c924c348d9179e39b775456',
  big5: '30ced041fde114f377e618c2239f87236737e498',
  apiInit: 'bddecd7041735e125630b83b83c37a91af720739',
  api1: 'dcf728d38f09e9a53705df810ad3e84e7958f62e',
};

const loose = (gitDir: string, oid: string) => `${gitDir}/objects/${oid.slice(0, 2)}/${oid.slice(2)}`;

/** A planted commit: its id, parent, committer time, task, the paths it changed, and where it is reachable from. */
type Planted = [oid: string, parent: string | null, at: string, task: string | null, changed: string, reach?: string];

const BIG_INIT = `121 paths changed: ${['A README.md', ...Array.from({ length: 99 }, (_, i) => `A files/f${String(i).padStart(3, '0')}.txt`)].join(', ')} (+21 more)`;

/** Each repository's commits in the order the reader yields them: loose objects by path, then packs in pack order. */
const REPOS: Record<'api' | 'big' | 'shop', { gitDir: string; hash: string; workspace: string; commits: Planted[] }> = {
  api: {
    gitDir: API,
    hash: '365914948',
    workspace: 'C:\\Users\\w\\src\\api',
    commits: [
      [C.apiInit, null, '2026-07-03T12:00:00.000Z', null, '1 path changed: A index.js'],
      [C.api1, C.apiInit, '2026-07-03T12:10:00.000Z', '1783079940000', '1 path changed: A lib/x.js'],
    ],
  },
  big: {
    gitDir: BIG,
    hash: '1656630246',
    workspace: '/home/u/projects/big',
    commits: [
      [C.big5, C.big4, '2026-07-02T09:40:00.000Z', '1782985200000', 'no path changed'],
      [C.big2, C.big1, '2026-07-02T09:01:00.000Z', '1782982810000', '2 paths changed: M README.md, A src/new.py'],
      [C.big1, C.bigInit, '2026-07-02T09:00:20.000Z', '1782982810000', '1 path changed: M files/f001.txt'],
      [C.bigInit, null, '2026-07-02T09:00:00.000Z', null, BIG_INIT],
      [C.big4, C.big3, '2026-07-02T09:31:00.000Z', '1782984590000', '1 path changed: M files/f004.txt'],
      [C.big3, C.big2, '2026-07-02T09:30:00.000Z', '1782984590000', '2 paths changed: M files/f002.txt, D files/f003.txt'],
    ],
  },
  shop: {
    gitDir: SHOP,
    hash: '4111403216',
    workspace: '/home/u/projects/shop',
    commits: [
      [
        C.shop5,
        C.shop4,
        '2026-07-01T10:05:00.000Z',
        '1782900240000',
        '1 path changed: M src/util.py',
        ', on no branch and in no reflog',
      ],
      [C.shop1, C.shopInit, '2026-07-01T10:00:10.000Z', '1782900005000', 'no path changed'],
      [C.shopInit, null, '2026-07-01T10:00:00.000Z', null, '2 paths changed: A README.md, A src/app.py'],
      [
        C.shop3,
        C.shop2,
        '2026-07-01T10:02:00.000Z',
        '1782900005000',
        '2 paths changed: A "docs/notes, v2.txt", D src/app.py',
        ', on no branch: reflog only',
      ],
      [C.shop4, C.shop2, '2026-07-01T10:04:30.000Z', '1782900240000', '1 path changed: M src/util.py'],
      [C.shop2, C.shop1, '2026-07-01T10:01:00.000Z', '1782900005000', '2 paths changed: M README.md, A src/util.py'],
    ],
  },
};

/** The packed commits: the pack and the commit's 1-based place in it (`git verify-pack -v` lists them first, in this order). */
const PACKED: Record<string, [string, number]> = {
  [C.big2]: [OFS_PACK, 1],
  [C.big1]: [OFS_PACK, 2],
  [C.bigInit]: [OFS_PACK, 3],
  [C.big4]: [REF_PACK, 1],
  [C.big3]: [REF_PACK, 2],
};

/** The checkpoint rows of a repository's planted commits, as show() prints them. */
function commitRows(repo: keyof typeof REPOS) {
  const { gitDir, hash, workspace, commits } = REPOS[repo];
  return commits.map(([oid, parent, at, task, changed, reach]) => {
    const message = task === null ? 'initial commit' : `checkpoint-${hash}-${task}`;
    const text = `checkpoint: ${changed} (commit ${oid}, ${parent === null ? 'root commit' : `parent ${parent}`}, message "${message}"${reach ?? ''})`;
    const [file, line] = oid in PACKED ? [`${PACKED[oid][0]}.pack`, PACKED[oid][1]] : [loose(gitDir, oid), null];
    return [file, line, 'checkpoint', at, task, workspace, text];
  });
}

const DAMAGED_ROW = [
  DAMAGED,
  null,
  'parser',
  null,
  null,
  null,
  `parser: ${DAMAGED}: object deadbeefdeadbeefdeadbeefdeadbeefdeadbeef: not a whole zlib stream (incorrect header check)`,
];
const RESTORE_ROW = [
  `${SHOP}/logs/HEAD`,
  5,
  'reflog:reset',
  '2026-07-01T10:03:00.000Z',
  '1782900005000',
  '/home/u/projects/shop',
  `checkpoint restore: HEAD reset from ${C.shop3} to ${C.shop2} "checkpoint-4111403216-1782900005000" (reflog: reset: moving to ${C.shop2})`,
];

const tmpDirs: string[] = [];
afterAll(() => {
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the fixture image with its dot-git folders named .git. */
function image(): string {
  const img = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-checkpoints-'));
  tmpDirs.push(img);
  copyImage(fixture('checkpoints', 'img'), img);
  return img;
}

async function sources(img: string): Promise<Source[]> {
  const found = await discoverImage({ host: 'h', root: img });
  expect(found.problems).toEqual([]);
  return found.sources.filter((s) => s.store === 'checkpoints');
}

async function rowsOf(img: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (const source of await sources(img)) rows.push(...(await collect(readCheckpoints, source)));
  return rows;
}

const show = (r: Row) => [
  r.source_file,
  r.source_line,
  r.kind,
  r.timestamp_utc === null ? null : new Date(r.timestamp_utc).toISOString(),
  r.session_id,
  r.project_path,
  r.text,
];

describe('discovery', () => {
  it.each(['cline-data', 'vscode-globalstorage'] as const)(
    'files every file of a shadow .git under a %s root, 8 levels deep, as checkpoints',
    (kind) => {
      for (const rel of [
        'HEAD',
        'config',
        'hooks/pre-commit.sample',
        'info/exclude',
        'logs/HEAD',
        'logs/refs/heads/master',
        'objects/ab/cdef0123456789abcdef0123456789abcdef01',
        'objects/pack/pack-1.idx',
        'objects/info/commit-graphs/graph-1.graph',
        'refs/heads/a/b/c/d/e/f',
      ]) {
        expect(storeOf(`checkpoints/4111403216/.git/${rel}`, kind), rel).toBe('checkpoints');
      }
      // beyond the globs: under ~/.cline/data such a file is listed (the `unread` store), elsewhere not found
      const other = kind === 'cline-data' ? 'unread' : null;
      expect(storeOf('checkpoints/1/.git/refs/heads/a/b/c/d/e/f/g', kind)).toBe(other);
      expect(storeOf('checkpoints/1/HEAD', kind)).toBe(other);
      expect(storeOf('checkpoints/1/.git_disabled/HEAD', kind)).toBe(other);
      // under ~/.cline/data every folder is listed 16 segments deep (the `unread` store's `**`)
      expect(folderDepth(kind, 'checkpoints')).toBe(kind === 'cline-data' ? 15 : 10);
      expect(folderDepth(kind, 'tasks')).toBe(kind === 'cline-data' ? 15 : 2);
    },
  );

  it('gives one source per store root, holding every file of its .git folders', async () => {
    const img = image();
    const found = await sources(img);
    expect(found.map((s) => [s.home, s.client, s.role, path.relative(img, s.root).split(path.sep).join('/')])).toEqual([
      ['C:/Users/w', 'vscode', 'primary', 'C/Users/w/AppData/Roaming/Code/User/globalStorage/saoudrizwan.claude-dev'],
      ['home/u', 'cline', 'primary', 'home/u/.cline/data'],
    ]);
    const under = (...gitDirs: string[]) => gitDirs.flatMap((d) => listFiles(path.join(img, d))).sort();
    expect(found[0].files).toEqual(under(API));
    expect(found[1].files).toEqual(under(BIG, SHOP));
  });
});

describe('readCheckpoints', () => {
  it('gives one checkpoint row per commit, the restore, and a parser row for the damaged object', async () => {
    const rows = await rowsOf(image());
    expect(rows.map(show)).toEqual([...commitRows('api'), ...commitRows('big'), DAMAGED_ROW, RESTORE_ROW, ...commitRows('shop')]);
    for (const r of rows) {
      expect(r).toMatchObject({
        store: 'checkpoints',
        turn_type: 'system',
        source_role: 'primary',
        git_branch: null,
        model: null,
      });
      expect(r.is_error).toBe(r.kind === 'parser' ? true : null);
    }
  });

  it('reads a pack whose SHA-1 trailer is wrong, and says so', async () => {
    const img = image();
    const pack = path.join(img, `${OFS_PACK}.pack`);
    const bytes = readFileSync(pack);
    bytes[bytes.length - 1] ^= 0xff;
    writeFileSync(pack, bytes);
    const rows = (await rowsOf(img)).map(show);
    expect(rows.filter((r) => r[2] === 'parser')).toEqual([
      [
        `${OFS_PACK}.pack`,
        null,
        'parser',
        null,
        null,
        null,
        `parser: ${OFS_PACK}.pack: SHA-1 trailer does not match the pack bytes: the pack is damaged`,
      ],
      DAMAGED_ROW,
    ]);
    expect(rows.filter((r) => r[2] === 'checkpoint')).toHaveLength(14);
  });

  it('without a pack index, reads the rest, and a commit whose parent was in that pack lists no paths', async () => {
    const img = image();
    truncateSync(path.join(img, `${OFS_PACK}.idx`), 100);
    const rows = (await rowsOf(img)).filter((r) => r.source_file.startsWith(BIG)).map(show);
    const unknown = `paths changed unknown (parent ${C.big2} not found or not readable)`;
    expect(rows).toEqual([
      [
        `${OFS_PACK}.idx`,
        null,
        'parser',
        null,
        null,
        null,
        `parser: ${OFS_PACK}.idx: git pack index: file of 100 bytes is too short: the pack's objects are not read`,
      ],
      commitRows('big')[0],
      commitRows('big')[4],
      commitRows('big')[5].map((v, i) =>
        i === 6 ? (v as string).replace('2 paths changed: M files/f002.txt, D files/f003.txt', unknown) : v,
      ),
      [
        `${REF_PACK}.pack`,
        2,
        'parser',
        null,
        null,
        null,
        `parser: ${REF_PACK}.pack line 2: commit ${C.big3}: parent ${C.big2} not found or not readable`,
      ],
    ]);
  });

  it('makes a pack without its index a parser row', async () => {
    const img = image();
    unlinkSync(path.join(img, `${REF_PACK}.idx`));
    const rows = (await rowsOf(img)).filter((r) => r.kind === 'parser').map((r) => r.text);
    expect(rows).toContain(`parser: ${REF_PACK}.pack: pack without its index (.idx): its objects are not read`);
    expect(rows).toContain(`parser: ${loose(BIG, C.big5)}: commit ${C.big5}: parent ${C.big4} not found or not readable`);
  });

  it('names the missing tree, and still gives the commit', async () => {
    const img = image();
    const commit = inflateSync(readFileSync(path.join(img, loose(SHOP, C.shop4)))).toString('latin1');
    const tree = /tree ([0-9a-f]{40})/.exec(commit)![1];
    unlinkSync(path.join(img, loose(SHOP, tree)));
    const rows = (await rowsOf(img)).filter((r) => r.source_file === loose(SHOP, C.shop4)).map((r) => [r.kind, r.text]);
    expect(rows).toEqual([
      [
        'checkpoint',
        expect.stringMatching(
          new RegExp(`^checkpoint: paths changed unknown \\(tree ${tree} not found\\) \\(commit ${C.shop4}, `),
        ),
      ],
      ['parser', `parser: ${loose(SHOP, C.shop4)}: commit ${C.shop4}: tree ${tree} not found`],
    ]);
  });

  it('gives the reflog line of a commit whose object is gone, with its task', async () => {
    const img = image();
    unlinkSync(path.join(img, loose(SHOP, C.shop3)));
    const rows = (await rowsOf(img)).filter((r) => r.source_file === `${SHOP}/logs/HEAD`).map(show);
    const gone = `checkpoint reflog: HEAD ${C.shop2} -> ${C.shop3} (reflog: commit: checkpoint-4111403216-1782900005000; that commit is not in the object database)`;
    expect(rows).toEqual([
      [`${SHOP}/logs/HEAD`, 4, 'reflog:commit', '2026-07-01T10:02:00.000Z', '1782900005000', '/home/u/projects/shop', gone],
      RESTORE_ROW,
    ]);
  });

  it('makes a bad reflog line and a bad config line parser rows of their line', async () => {
    const img = image();
    const reflog = path.join(img, SHOP, 'logs/HEAD');
    const lines = readFileSync(reflog, 'utf8').split('\n').length;
    appendFileSync(reflog, 'not a reflog line\n');
    appendFileSync(path.join(img, API, 'config'), '\tworktree = "unterminated\n');
    const rows = (await rowsOf(img)).filter((r) => r.kind === 'parser').map((r) => [r.source_file, r.source_line, r.text]);
    expect(rows).toContainEqual([`${SHOP}/logs/HEAD`, lines, expect.stringMatching(/: reflog line not read/)]);
    expect(rows).toContainEqual([
      `${API}/config`,
      12,
      `parser: ${API}/config line 12: config line not read: not a section, key or value git writes`,
    ]);
  });

  it('costs one broken repository its own rows only', async () => {
    const img = image();
    for (const file of listFiles(path.join(img, SHOP))) writeFileSync(file, file.endsWith('HEAD') ? 'garbage' : '');
    const rows = (await rowsOf(img)).map(show);
    expect(rows.filter((r) => !(r[0] as string).startsWith(SHOP))).toEqual([...commitRows('api'), ...commitRows('big')]);
    const shop = rows.filter((r) => (r[0] as string).startsWith(SHOP));
    expect(shop.length).toBeGreaterThan(10);
    expect(shop.every((r) => r[2] === 'parser')).toBe(true);
    expect(shop).toContainEqual([
      `${SHOP}/HEAD`,
      1,
      'parser',
      null,
      null,
      null,
      `parser: ${SHOP}/HEAD line 1: ref not read: neither an object id nor \`ref: <name>\``,
    ]);
    expect(shop).toContainEqual([
      `${SHOP}/logs/HEAD`,
      1,
      'parser',
      null,
      null,
      null,
      expect.stringMatching(/reflog line not read/),
    ]);
  });

  it('says so of a repository whose objects are not SHA-1', async () => {
    const img = image();
    appendFileSync(path.join(img, API, 'config'), '[extensions]\n\tobjectformat = sha256\n');
    const rows = (await rowsOf(img)).filter((r) => r.kind === 'parser').map((r) => r.text);
    expect(rows).toContain(`parser: ${API}/config: object format sha256 is not read`);
  });
});

describe('load', () => {
  it('writes the checkpoint rows to events and every file of the .git folders to files, and leaves the repositories as they were', async () => {
    const img = image();
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'clinetrail-checkpoints-load-')), 'out');
    tmpDirs.push(path.dirname(out));
    const snapshot = () =>
      listFiles(img).map((f) => {
        const st = statSync(f);
        return [f, st.size, st.mtimeMs, st.mode, createHash('sha256').update(readFileSync(f)).digest('hex')];
      });
    const before = snapshot();
    await runLoad({ hosts: [{ host: 'lnx-9', root: img }], out, concurrency: 1 });
    expect(snapshot()).toEqual(before);
    const events = await queryWarehouse(
      out,
      `select kind, count(*)::INTEGER from events where store = 'checkpoints' group by kind order by kind`,
    );
    expect(events.rows).toEqual([
      ['checkpoint', 14],
      ['parser', 1],
      ['reflog:reset', 1],
    ]);
    const files = await queryWarehouse(
      out,
      `select count(*)::INTEGER, sum(count_errors)::INTEGER, sum(count_rows)::INTEGER from files where store = 'checkpoints'`,
    );
    const all = [API, BIG, SHOP].flatMap((d) => listFiles(path.join(img, d)));
    expect(files.rows).toEqual([[all.length, 1, 16]]);
  });
});
