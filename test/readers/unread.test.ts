/**
 * The `unread` store (core/stores.ts): every file under `~/.cline` that no reader parses is still listed,
 * so an analyst sees all that the folder held. fixtures/unread plants such files beside one the
 * `cli-notices` store reads, and a task worktree (a checkout of the user's repository, not inventoried).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverImage } from '../../src/discover/discover.js';
import { runLoad } from '../../src/load/run.js';
import { READERS } from '../../src/readers/registry.js';
import { queryWarehouse } from '../../src/warehouse/build.js';
import { collect, fixture, makeSource } from '../helpers/source.js';

const IMG = fixture('unread', 'img');
const CLINE = 'home/u/.cline';
const UNREAD = [
  `${CLINE}/.ca-api-warned-20.20.2`,
  `${CLINE}/data/cache/feature-flags.json`,
  `${CLINE}/data/checkpoint-scratch/0a1b/pathspec`,
  `${CLINE}/logs/notes.txt`,
];

const tmpDirs: string[] = [];
afterAll(() => {
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});

const rel = (file: string): string => path.relative(IMG, file).split(path.sep).join('/');

describe('the unread store', () => {
  it('takes every file under ~/.cline that no other store claims, from both roots; never a worktree', async () => {
    const { sources, problems } = await discoverImage({ host: 'lnx-u01', root: IMG });
    expect(problems).toEqual([]);
    const byStore = sources.map((s) => [
      s.store,
      s.root === path.join(IMG, CLINE) ? 'cline-home' : 'cline-data',
      s.files.map(rel),
    ]);
    expect(byStore.sort()).toEqual([
      ['cli-notices', 'cline-data', [`${CLINE}/data/settings/cli-notices.json`]],
      ['unread', 'cline-data', UNREAD.filter((f) => f.includes('/data/'))],
      ['unread', 'cline-home', UNREAD.filter((f) => !f.includes('/data/'))],
    ]);
    expect(sources.flatMap((s) => s.files).some((f) => f.includes('worktrees'))).toBe(false);
  });

  it('gives no row', async () => {
    const source = makeSource({ store: 'unread', imageRoot: IMG, root: path.join(IMG, CLINE, 'data') });
    expect(await collect(READERS.unread, source)).toEqual([]);
  });

  it('puts each file in the files table with its size and SHA-256 and no rows', async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-unread-'));
    tmpDirs.push(out);
    await runLoad({ hosts: [{ host: 'lnx-u01', root: IMG }], out, concurrency: 1 });
    const files = await queryWarehouse(
      out,
      `select source_file, size_bytes::INTEGER, sha256, count_rows::INTEGER from files where store = 'unread' order by source_file`,
    );
    expect(files.rows).toEqual(
      UNREAD.map((f) => {
        const bytes = readFileSync(path.join(IMG, f));
        return [f, bytes.length, createHash('sha256').update(bytes).digest('hex'), 0];
      }),
    );
    expect((await queryWarehouse(out, `select count(*)::INTEGER from raw_events where store = 'unread'`)).rows).toEqual([[0]]);
  });
});
