/**
 * End to end, through the real CLI: the model build as a map over hosts (issue 26,
 * warehouse/host-models.ts). Every table and view of fleet.duckdb equals what the model files give when
 * they run over the whole fleet in one DuckDB as written (the build before the map, rebuilt here beside
 * it from the same partitions); an unchanged load builds no host's models; a load that changes one host
 * builds that host's models only, and afterwards OUT/models holds only files the hosts' records name.
 *
 * The fleet: the demo fleet (fixtures/fleet) and a control host with every reader fixture (duplicates,
 * search-index and history rows) and a real Cline home whose tasks report failed tools, so every
 * per-host table has rows.
 */
import { appendFileSync, cpSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostModelsRecordsDir, modelsDir } from '../../src/core/model-layout.js';
import { setOutStatement } from '../../src/warehouse/build.js';
import { batches, type HostSources, MODEL_BATCH } from '../../src/warehouse/host-models.js';
import { partitionFiles, placeholders, runModels } from '../../src/warehouse/model-run.js';
import { replaceWarehouse } from '../../src/warehouse/warehouse-swap.js';
import { REPO } from '../helpers/source.js';
import { differingTables, tableHashes } from '../helpers/table-hashes.js';
import { assertBuilt, describeRun, makeControlHost, query, runCli, workDir } from '../hostile/harness.js';

const work = workDir('host-models');
const fleet = path.join(work, 'fleet');
const out = path.join(work, 'out');
const CHANGED = 'lnx-u01';
/** A real Cline home whose legacy tasks report failed tools (int_legacy_failed_rows). */
const REAL_HOST = 'cline-2.18.0';

/** The load runs the hunt pack on the new warehouse after its models; the one-DuckDB reference builds models only. */
const MODELS_ONLY = { skip: ['findings', 'hunt_runs'] } as const;

/** `load` without --full: what a nightly load runs. */
async function nightlyLoad(): Promise<void> {
  const run = await runCli(['load', '--fleet', fleet, '--out', out, '--quiet']);
  expect(run.code, describeRun(run)).toBe(0);
}

/** The generation of each host's models, by host (OUT/models/_hosts). */
function generations(): Map<string, string> {
  const dir = hostModelsRecordsDir(out);
  const found = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const r = JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as { host: string; generation: string };
    found.set(r.host, r.generation);
  }
  return found;
}

/**
 * The warehouse of a copy of OUT rebuilt the way it was built before the map: every model file run as
 * written, in one DuckDB, over every partition.
 */
async function oneDuckDBWarehouse(tag: string): Promise<string> {
  const copy = path.join(work, `one-duckdb-${tag}`);
  rmSync(copy, { recursive: true, force: true });
  cpSync(out, copy, { recursive: true });
  await replaceWarehouse(copy, 'fleet', 'empty', async (conn) => {
    await conn.run(setOutStatement(copy));
    await runModels(conn, placeholders(copy, await partitionFiles(copy), true));
  });
  return copy;
}

/** Every Parquet file under OUT/models, relative to it. */
function modelFiles(): string[] {
  const root = modelsDir(out);
  return (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.parquet')).sort();
}

beforeAll(async () => {
  assertBuilt();
  cpSync(path.join(REPO, 'fixtures', 'fleet'), fleet, { recursive: true });
  rmSync(path.join(fleet, 'README.md'));
  makeControlHost(fleet);
  cpSync(path.join(REPO, 'fixtures', 'real-producer', REAL_HOST), path.join(fleet, REAL_HOST), { recursive: true });
  await nightlyLoad();
}, 300_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the model build as a map over hosts', () => {
  it('gives every table and view the one-DuckDB build gives', async () => {
    const hashes = await tableHashes(out, MODELS_ONLY);
    for (const table of ['duplicates', 'int_duplicate_pairs', 'int_legacy_failed_rows', 'sessions', 'files', 'events'])
      expect(hashes.get(table)?.rows, table).toBeGreaterThan(0);
    expect(differingTables(hashes, await tableHashes(await oneDuckDBWarehouse('first'), MODELS_ONLY))).toEqual([]);
  }, 300_000);

  it('stores the timeline of each host, which events then reads instead of the partitions', async () => {
    const timelineHosts = modelFiles()
      .filter((f) => f.split(path.sep)[0] === 'int_timeline')
      .map((f) => f.split(path.sep)[1]);
    expect([...new Set(timelineHosts)].sort()).toEqual([...generations().keys()].sort());
    // the view of fleet.duckdb names the per-host files' list, not the partitions' (warehouse/file-lists.ts)
    const [[sql]] = await query(out, `select sql from duckdb_views() where view_name = 'int_timeline'`);
    expect(String(sql)).toContain('models.int_timeline');
    expect(String(sql)).not.toContain('raw_events');
  }, 300_000);

  it('builds no host again on an unchanged load', async () => {
    const before = generations();
    expect([...before.keys()].sort()).toEqual(['0042', 'WIN-ALICE01', REAL_HOST, 'control', 'lnx-u01', 'mac-bob']);
    const files = modelFiles();
    await nightlyLoad();
    expect(generations()).toEqual(before);
    expect(modelFiles()).toEqual(files);
  }, 300_000);

  it('builds only the changed host again, and keeps no file of its old models', async () => {
    const before = generations();
    const history = path.join(fleet, CHANGED, 'home', 'u', '.cline', 'data', 'cache', 'user_input_history.jsonl');
    appendFileSync(history, '{"prompt":"a prompt added since the last load","ts":1760000000001}\n');
    await nightlyLoad();
    const after = generations();
    for (const [host, gen] of before) {
      if (host === CHANGED) expect(after.get(host), host).not.toBe(gen);
      else expect(after.get(host), host).toBe(gen);
    }
    expect(await query(out, `select count(*)::INTEGER from events where text = 'a prompt added since the last load'`)).toEqual([
      [1],
    ]);
    // the retired generation's files are gone: every file is one a host's record names
    const named = [...after.entries()].flatMap(([host, gen]) =>
      modelFiles().filter((f) => f.includes(`-${gen}-`) && f.split(path.sep)[1] === host),
    );
    expect(modelFiles()).toEqual(named.sort());
    const reference = await tableHashes(await oneDuckDBWarehouse('changed'), MODELS_ONLY);
    expect(differingTables(await tableHashes(out, MODELS_ONLY), reference)).toEqual([]);
  }, 300_000);
});

describe('the batches of the map over hosts', () => {
  const host = (name: string, rows: number, partBytes: number): HostSources => ({
    host: name,
    files: { parquet: [], inventory: [], secrets: [] },
    sha256: '',
    rows,
    partBytes,
  });
  const sizes = (hosts: HostSources[]) => batches(hosts).map((b) => b.length);
  const MB = 1024 * 1024;

  it('cuts at 64 hosts, 200,000 rows or 28 MB of parts, and puts a bigger host in a batch alone', () => {
    expect(sizes(Array.from({ length: 130 }, (_, i) => host(`t${i}`, 68, 60_000)))).toEqual([64, 64, 2]);
    expect(sizes(Array.from({ length: 10 }, (_, i) => host(`r${i}`, 45_000, MB)))).toEqual([4, 4, 2]);
    // hosts of long texts: few rows, many bytes (the generated fleet: ~5,000 rows and 1.7 MB a host)
    expect(sizes(Array.from({ length: 50 }, (_, i) => host(`g${i}`, 5_000, 1.7 * MB)))).toEqual([16, 16, 16, 2]);
    expect(sizes([host('a', 10, MB), host('big', 10, 30 * MB), host('b', 10, MB)])).toEqual([1, 1, 1]);
  });

  it('cuts at the limits it is given: 40 MB of parts, as a hunt does', () => {
    const long = Array.from({ length: 50 }, (_, i) => host(`g${i}`, 5_000, 1.7 * MB));
    expect(batches(long, { ...MODEL_BATCH, partBytes: 40 * MB }).map((b) => b.length)).toEqual([23, 23, 4]);
  });
});
