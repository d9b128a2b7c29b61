/**
 * `row_id` (sql/01_row_macros.sql) on a generated fleet (bench/generate.ts: legacy tasks, SDK sessions,
 * secondary stores, odd images): unique, the same on a second load of the same evidence into another
 * OUT, and the same after that OUT is moved to another path. The demo fleet's check is
 * test/e2e/warehouse-identity.test.ts.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateFleet } from '../../bench/generate.js';
import { runLoad } from '../../src/load/run.js';
import { queryWarehouse } from '../../src/warehouse/build.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-rowid-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const IDS = `select row_id::VARCHAR, host, store, source_file, file_row from raw_events order by all`;
let fleet = '';

beforeAll(async () => {
  fleet = generateFleet({ dir: path.join(work, 'gen'), seed: 11, hosts: 6, mb: 3, bigMb: 0 }).fleet;
});

describe('row_id on a generated fleet', () => {
  it('is unique, the same on a second load, and the same after the warehouse is moved', async () => {
    const [a, b] = [path.join(work, 'out-a'), path.join(work, 'out-b')];
    await runLoad({ fleet, out: a });
    await runLoad({ fleet, out: b });
    const [counts] = (await queryWarehouse(a, 'select count(*)::INTEGER, count(distinct row_id)::INTEGER from raw_events')).rows;
    expect(counts[0]).toBeGreaterThan(1000);
    expect(counts[1]).toBe(counts[0]);
    const ids = (await queryWarehouse(a, IDS)).rows;
    expect((await queryWarehouse(b, IDS)).rows).toEqual(ids);
    const moved = path.join(work, 'moved');
    cpSync(a, moved, { recursive: true });
    rmSync(a, { recursive: true });
    expect((await queryWarehouse(moved, IDS)).rows).toEqual(ids);
  }, 300_000);
});
