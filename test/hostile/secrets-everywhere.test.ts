/**
 * The secrets issue 24 found in clear (tokens glued to a word, environment-style names, known prefixes
 * under any name), planted in every store: one host per store fixture (fixtures/<store>/img) and the
 * homes the released CLIs 1.0.10 and 3.0.65 wrote, each planted with its own values
 * (test/helpers/plant-secrets.ts: transcripts, logs and the 1.x environment dump, every SQLite store,
 * checkpoint file names and commit messages, settings, hooks log, input history, search index, ...),
 * loaded through the real CLI. No planted value, nor its first or last 24 characters, is in any file
 * under OUT (raw bytes), any Parquet row or any table or view of fleet.duckdb (decompressed); each value a
 * store keeps as text is in `secrets`. The detectors one by one are in test/write/redact.test.ts.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES } from '../../src/core/stores.js';
import { secretFingerprint } from '../../src/write/redact.js';
import { issue24Secrets, type Planted } from '../helpers/fake-secrets.js';
import { hasGit, plantImage } from '../helpers/plant-secrets.js';
import { REAL_1X_IMAGE, REAL_3X_IMAGE } from '../helpers/side-store-tests.js';
import { copyImage, fixture } from '../helpers/source.js';
import { queryOut, whereFound } from '../helpers/warehouse-search.js';
import { assertBuilt, type CliRun, describeRun, load, workDir } from './harness.js';

const work = workDir('secrets-everywhere');
const fleet = path.join(work, 'fleet');
const out = path.join(work, 'out');

/** Each host and the image it is a planted copy of: a store's fixture, or a real home. */
const HOSTS: Array<[string, string]> = [
  ...STORES.map((s) => s.id)
    .filter((s) => existsSync(fixture(s, 'img')))
    .map((s): [string, string] => [s, fixture(s, 'img')]),
  ['real-1x', REAL_1X_IMAGE],
  ['real-3x', REAL_3X_IMAGE],
];

/**
 * Hosts whose store keeps no free text of its files, so no planted value reaches a row (it must still be
 * nowhere under OUT): credential files and connectors.db give key names only, the sync queue never prints
 * an item's data or error, locks give holders and paths, cli-notices and workspace-state their fields by
 * name, and `unread` files give no row.
 */
const NO_TEXT = new Set(['credentials', 'connectors-db', 'sync-queue', 'locks', 'cli-notices', 'workspace-state', 'unread']);

const planted = new Map(HOSTS.map(([host]) => [host, issue24Secrets(host)]));
/** Which host and case a searched string belongs to. */
const owner = new Map<string, string>();
for (const [host, list] of planted) {
  for (const p of list) {
    owner.set(p.secret, `${host}: ${p.what}`);
    owner.set(p.secret.slice(0, 24), `${host}: ${p.what} (first 24 characters)`);
    owner.set(p.secret.slice(-24), `${host}: ${p.what} (last 24 characters)`);
  }
}

let run: CliRun;

beforeAll(async () => {
  assertBuilt();
  mkdirSync(fleet, { recursive: true });
  for (const [host, image] of HOSTS) {
    const root = path.join(fleet, host);
    copyImage(image, root);
    const list = planted.get(host)!;
    const glued = list.find((p) => p.what === 'gho_ in a file name')!;
    plantImage(root, {
      lines: list.map((p) => p.line),
      env: Object.fromEntries(list.filter((p) => p.env).map((p) => [p.env!, p.secret])),
      fileName: `token-${glued.secret}.txt`,
      everyString: host === 'settings',
    });
  }
  run = await load(fleet, out, { timeoutMs: 600_000 });
}, 620_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('secrets of issue 24 planted in every store (points 2 and 3)', () => {
  it('the load exits 0', () => {
    expect(run.code, describeRun(run)).toBe(0);
  });

  it('no planted value, nor its first or last 24 characters, is in any file, Parquet row, table or view of OUT', async () => {
    const found = await whereFound(out, [...owner.keys()]);
    const leaks = found.map((f) => `${owner.get(f.slice(0, f.indexOf(': ')))} -> ${f.slice(f.indexOf(': ') + 2)}`);
    expect(leaks.sort()).toEqual([]);
  });

  it('every value a store keeps as text is in secrets, with its host and kind', async () => {
    const rows = await queryOut(out, 'select distinct host, kind, fingerprint from secrets');
    const listed = new Set(rows.map(([h, k, f]) => `${h} ${k} ${f}`));
    const missing = (host: string, list: Planted[]) =>
      list.filter((p) => !listed.has(`${host} ${p.kind} ${secretFingerprint(p.secret)}`)).map((p) => `${host}: ${p.what}`);
    const hostsWithText = HOSTS.map(([h]) => h).filter((h) => !NO_TEXT.has(h) && (h !== 'checkpoints' || hasGit));
    expect(hostsWithText.flatMap((h) => missing(h, planted.get(h)!))).toEqual([]);
  });

  it.skipIf(!hasGit)('a checkpoint file named token-gho_....txt is listed with the token redacted', async () => {
    const gho = planted.get('checkpoints')!.find((p) => p.what === 'gho_ in a file name')!.secret;
    const rows = await queryOut(
      out,
      `select count(*) from raw_events where host = 'checkpoints' and kind = 'checkpoint' and contains(text, 'A token-[REDACTED:github:${secretFingerprint(gho)}].txt')`,
    );
    expect(Number(rows[0][0])).toBeGreaterThan(0);
  });

  it('the 1.x environment dump keeps its ordinary variables and names, with each value redacted', async () => {
    const rows = await queryOut(
      out,
      "select text from raw_events where host = 'real-1x' and store = 'cline-logs' and text like 'Environment variables: {%' order by source_file limit 1",
    );
    const text = String(rows[0][0]);
    expect(text).toContain('"npm_config_update_notifier":"false"');
    for (const p of planted.get('real-1x')!.filter((p) => p.env)) {
      expect(text).toContain(`"${p.env}":"[REDACTED:${p.kind}:${secretFingerprint(p.secret)}]"`);
    }
  });
});
