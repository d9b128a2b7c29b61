/**
 * The base64 elision of the transcript readers (readers/parse/base64-elision.ts) changes no row: a
 * generated fleet (bench/generate.ts: attached images, browser screenshots, image blocks in SDK and API
 * histories, among everything else) is loaded with the elision and without it (CLINETRAIL_NO_ELISION=1,
 * the full parse of every element), and every table and view of the two warehouses must hash the same.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateFleet } from '../../bench/generate.js';
import { MIN_RUN } from '../../src/readers/parse/base64-elision.js';
import { runLoad } from '../../src/load/run.js';
import { queryWarehouse } from '../../src/warehouse/build.js';
import { differingTables, tableHashes } from '../helpers/table-hashes.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-elision-fleet-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let fleet = '';
let payloads = 0;

/** Base64 payloads the elision cuts in a file: a data URL or a `"data"` value of at least MIN_RUN characters. */
function countPayloads(file: string): number {
  const text = readFileSync(file, 'latin1');
  const runs = text.match(new RegExp(`(;base64,|"data": ?")[A-Za-z0-9+/=]{${MIN_RUN},}`, 'g'));
  return runs?.length ?? 0;
}

beforeAll(() => {
  const manifest = generateFleet({ dir: path.join(work, 'gen'), seed: 14, hosts: 5, mb: 8, bigMb: 0 });
  fleet = manifest.fleet;
  for (const t of manifest.transcripts) payloads += countPayloads(t.path);
});

/** Loads the fleet into a new OUT with the elision on or off. */
async function load(name: string, elision: boolean): Promise<string> {
  const out = path.join(work, name);
  const before = process.env.CLINETRAIL_NO_ELISION;
  if (elision) delete process.env.CLINETRAIL_NO_ELISION;
  else process.env.CLINETRAIL_NO_ELISION = '1';
  try {
    await runLoad({ fleet, out });
  } finally {
    if (before === undefined) delete process.env.CLINETRAIL_NO_ELISION;
    else process.env.CLINETRAIL_NO_ELISION = before;
  }
  return out;
}

describe('base64 elision on a generated fleet', () => {
  it('gives the same rows in every table and view as the full parse', async () => {
    expect(payloads).toBeGreaterThan(50);
    const cut = await load('out-elided', true);
    const full = await load('out-full', false);
    const [a, b] = [await tableHashes(cut), await tableHashes(full)];
    expect(a.get('raw_events')?.rows).toBeGreaterThan(2000);
    expect(a.size).toBeGreaterThan(15);
    expect(differingTables(a, b)).toEqual([]);
    const [[images]] = (await queryWarehouse(cut, "select count(*)::INTEGER from raw_events where text like '%image(s)]%'")).rows;
    expect(images).toBeGreaterThan(20);
  }, 300_000);
});
