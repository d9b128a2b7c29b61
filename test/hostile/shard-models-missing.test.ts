/**
 * The map over hosts in a split (issue 26 point 2): each `load --shard K/N` builds its own hosts' models
 * (OUT/models/_hosts/<host>.json and their files), so `clinetrail models` only assembles. When a host's
 * models are missing all the same (here its commit record deleted, as a shard killed between its
 * partitions and its models leaves it), `models` builds them, so the warehouse misses no row, and names the
 * host in a warning, never silently.
 *
 * Every command is the built CLI in a process of its own. On main, a shard built no model and `models`
 * built every host's models without a word.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostDirName } from '../../src/core/layout.js';
import { hostModelsRecordFile } from '../../src/core/model-layout.js';
import { makeSplitFleet, shardOf, splitFleetHosts } from '../helpers/split-fleet.js';
import { assertBuilt, type CliRun, describeRun, lit, query, runCli, workDir } from './harness.js';

const N = 2;
const work = workDir('shard-models');
const fleet = path.join(work, 'fleet');
const out = path.join(work, 'out');
const HOSTS = splitFleetHosts(N, 2);
/** The host whose models go missing: the first of shard 1. */
const LOST = [...HOSTS.keys()].filter((h) => shardOf(h, N) === 1).sort()[0];

let shards: CliRun[] = [];
let models: CliRun;

beforeAll(async () => {
  assertBuilt();
  makeSplitFleet(fleet, HOSTS);
  shards = await Promise.all(
    [1, 2].map((k) => runCli(['load', '--fleet', fleet, '--out', out, '--quiet', '--shard', `${k}/${N}`], { child: true })),
  );
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("a split whose shards build their hosts' models", () => {
  it("leaves every host's models committed and no fleet.duckdb", () => {
    for (const run of shards) expect(run.code, describeRun(run)).toBe(0);
    expect(existsSync(path.join(out, 'fleet.duckdb'))).toBe(false);
    const records = readdirSync(path.join(out, 'models', '_hosts')).filter((f) => f.endsWith('.json'));
    expect(records.sort()).toEqual([...HOSTS.keys()].map((h) => `${hostDirName(h)}.json`).sort());
  });

  it('names the host whose models models had to build, and gives it its rows', async () => {
    rmSync(hostModelsRecordFile(out, LOST));
    models = await runCli(['models', '--out', out], { child: true });
    expect(models.code, describeRun(models)).toBe(0);
    const warning = models.stderr.split('\n').find((l) => l.includes('no load had built'));
    expect(warning, models.stderr).toBe(
      `clinetrail: warning: models built the models of 1 host(s) no load had built (a shard killed after its partitions, or run by another clinetrail): ${LOST}`,
    );
    const [[sessions]] = await query(out, `select count(*) from sessions where host = ${lit(LOST)}`);
    expect(Number(sessions)).toBeGreaterThan(0);
    expect(existsSync(hostModelsRecordFile(out, LOST))).toBe(true);
  }, 300_000);

  it('builds no host again and says nothing when every shard built its hosts', async () => {
    const again = await runCli(['models', '--out', out], { child: true });
    expect(again.code, describeRun(again)).toBe(0);
    expect(again.stderr).not.toMatch(/no load had built/);
  }, 300_000);
});
