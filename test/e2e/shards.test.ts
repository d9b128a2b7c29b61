/**
 * A fleet split in four (`load --shard K/4`, load/shard.ts): four real `node dist/src/cli/main.js`
 * processes load it at the same time into one OUT, so the locks (load/lock.ts) are really contended,
 * then `clinetrail models` builds the warehouse once; a plain load of the same fleet into another OUT
 * gives the same warehouse, every table hashed (test/helpers/table-hashes.ts). Then, on that OUT: a
 * second process of a shard that runs is refused, so are a plain load and `models`, while another shard
 * runs beside it; an unchanged shard rewrites nothing; `--prune` in a shard withdraws only its own hosts.
 *
 * The fleet: the demo fleet's hosts plus copies of two of them, named so that each of the four shards
 * gets a host (test/helpers/split-fleet.ts).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSplitFleet, shardOf, splitFleetHosts } from '../helpers/split-fleet.js';
import { differingTables, tableHashes } from '../helpers/table-hashes.js';
import {
  assertBuilt,
  type CliRun,
  describeRun,
  query,
  runCli,
  snapshotTree,
  waitUntilStopped,
  workDir,
} from '../hostile/harness.js';

const N = 4;
const work = workDir('shards');
const fleet = path.join(work, 'fleet');
const sharded = path.join(work, 'out-sharded');
const plain = path.join(work, 'out-plain');

const HOSTS = splitFleetHosts(N);
const loadArgs = (out: string, ...more: string[]) => ['load', '--fleet', fleet, '--out', out, '--quiet', ...more];
const shardRun = (out: string, k: number, options: Parameters<typeof runCli>[1] = {}, ...more: string[]) =>
  runCli([...loadArgs(out, '--shard', `${k}/${N}`), ...more], { child: true, timeoutMs: 240_000, ...options });

/** The run records of OUT, oldest first. */
function runRecords(
  out: string,
): Array<{ shard_index: number | null; host_images: Array<{ host: string }>; finished_at: string | null }> {
  const dir = path.join(out, 'state', 'runs');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')));
}

/** The partitions' files (parquet/ and records/) with their size, mtime and hash. */
const partitionFiles = (out: string) => ({
  parquet: snapshotTree(path.join(out, 'parquet')),
  records: snapshotTree(path.join(out, 'records')),
});

let shardRuns: CliRun[] = [];
let models: CliRun;

beforeAll(async () => {
  assertBuilt();
  makeSplitFleet(fleet, HOSTS);
  shardRuns = await Promise.all(Array.from({ length: N }, (_, i) => shardRun(sharded, i + 1)));
  models = await runCli(['models', '--out', sharded], { child: true });
  const whole = await runCli(loadArgs(plain));
  expect(whole.code, describeRun(whole)).toBe(0);
}, 600_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a fleet loaded in four concurrent shards, then models', () => {
  it('puts every host in exactly one shard, and each shard got one at least', () => {
    for (const run of shardRuns) expect(run.code, describeRun(run)).toBe(0);
    const records = runRecords(sharded);
    expect(records.map((r) => r.shard_index).sort()).toEqual([1, 2, 3, 4]);
    const seen = records.flatMap((r) => r.host_images.map((h) => [h.host, r.shard_index] as const));
    expect(seen.map(([h]) => h).sort()).toEqual([...HOSTS.keys()].sort());
    for (const [host, k] of seen) expect(k, host).toBe(shardOf(host, N));
    for (const r of records) expect(r.host_images.length, `shard ${r.shard_index}`).toBeGreaterThan(0);
  });

  it("builds its hosts' models in each shard, and no fleet.duckdb: its summary says to run models", () => {
    for (const [i, run] of shardRuns.entries())
      expect(run.stdout).toMatch(
        new RegExp(`- duplicate\\(s\\) dropped.*; shard ${i + 1}/4: warehouse not assembled, run clinetrail models --out `),
      );
    expect(models.code, describeRun(models)).toBe(0);
    // every host's models were built by its shard: models only assembled (it names any host it built)
    expect(models.stderr).not.toMatch(/no load had built/);
    expect(models.stderr).toMatch(
      new RegExp(
        `^clinetrail: models built: ${HOSTS.size} host\\(s\\), \\d+ row\\(s\\), \\d+ duplicate\\(s\\) dropped, \\d+ event\\(s\\) in `,
      ),
    );
    expect(existsSync(path.join(sharded, 'state', 'models.stale'))).toBe(false);
  });

  it('gives the warehouse one plain load gives, every table hashed', async () => {
    // the run records differ by design: four shard runs against one plain run
    const skip = ['raw_runs', 'load_runs'];
    const a = await tableHashes(plain, { skip });
    expect(a.get('events')?.rows).toBeGreaterThan(100);
    expect(a.size).toBeGreaterThan(15);
    expect(Object.fromEntries(await tableHashes(sharded, { skip }))).toEqual(Object.fromEntries(a));
    expect(await query(sharded, 'select shard from load_runs order by shard')).toEqual([['1/4'], ['2/4'], ['3/4'], ['4/4']]);
    expect(await query(plain, 'select shard from load_runs')).toEqual([[null]]);
    expect(await query(sharded, "select count(*) from hosts where status <> 'loaded'")).toEqual([['0']]);
  });
});

describe.skipIf(process.platform !== 'linux')('a shard that runs (stopped at a test stop, holding its locks)', () => {
  it('refuses the same shard, a plain load and models (exit 3), lets another shard run, and finishes', async () => {
    let held: number | undefined;
    const first = shardRun(sharded, 3, {
      env: { CLINETRAIL_TEST_STOP_AT: 'after-discovery', CLINETRAIL_TEST_STOP_SIGNAL: 'SIGSTOP' },
      onSpawn: (child) => {
        held = child.pid;
      },
    });
    await waitUntilStopped(held!);
    try {
      const again = await shardRun(sharded, 3);
      expect(again.code, describeRun(again)).toBe(3);
      expect(again.stderr).toMatch(
        new RegExp(`^clinetrail: load --shard 3/4: shard 3/4 is already being loaded into .* \\(pid ${held} on `),
      );
      const whole = await runCli(loadArgs(sharded), { child: true });
      expect(whole.code, describeRun(whole)).toBe(3);
      expect(whole.stderr).toMatch(new RegExp(`^clinetrail: load: shard loads are writing .*shard 3/4: pid ${held} `));
      const build = await runCli(['models', '--out', sharded], { child: true });
      expect(build.code, describeRun(build)).toBe(3);
      expect(build.stderr).toMatch(/^clinetrail: models: shard loads are writing /);
      const other = await shardRun(sharded, 1);
      expect(other.code, describeRun(other)).toBe(0);
    } finally {
      process.kill(held!, 'SIGCONT'); // whatever failed above, the held load goes on and ends
    }
    const done = await first;
    expect(done.code, describeRun(done)).toBe(0);
  });
});

describe('a shard run again', () => {
  it('rewrites nothing when nothing changed', async () => {
    const before = partitionFiles(sharded);
    const again = await shardRun(sharded, 2);
    expect(again.code, describeRun(again)).toBe(0);
    expect(again.stdout).toMatch(/: 0 partition\(s\) written, [1-9]\d* unchanged, 0 removed; /);
    expect(partitionFiles(sharded)).toEqual(before);
    expect(existsSync(path.join(sharded, 'state', 'models.stale'))).toBe(false);
  });

  it('with --prune withdraws the absent hosts of its own shard only', async () => {
    const hosts = [...HOSTS.keys()];
    const mine = hosts.find((h) => shardOf(h, N) === 1)!;
    const other = hosts.find((h) => shardOf(h, N) !== 1)!;
    // models wants every shard of the split run since its last complete build (test/hostile/missing-shard.test.ts):
    // the other shards run, unchanged, before the fleet loses its two hosts
    for (const run of await Promise.all([2, 3, 4].map((k) => shardRun(sharded, k)))) expect(run.code, describeRun(run)).toBe(0);
    // the input lacks a host of shard 1 and a host of another shard: only the first is this shard's
    rmSync(path.join(fleet, mine), { recursive: true });
    rmSync(path.join(fleet, other), { recursive: true });
    const pruned = await shardRun(sharded, 1, {}, '--prune');
    expect(pruned.code, describeRun(pruned)).toBe(0);
    expect(pruned.stdout).toMatch(new RegExp(`host\\(s\\) not in this input withdrawn \\(--prune\\): ${mine}(;|$)`, 'm'));
    expect(pruned.stdout).not.toMatch(/not in this input kept/);
    const build = await runCli(['models', '--out', sharded], { child: true });
    expect(build.code, describeRun(build)).toBe(0);
    const left = (await query(sharded, 'select distinct host from raw_events order by 1')).map((r) => r[0]);
    expect(left).toEqual(hosts.filter((h) => h !== mine).sort());
    // and the fingerprint sees it: the tables of rows now differ from the plain load's
    const skip = ['raw_runs', 'load_runs'];
    expect(differingTables(await tableHashes(plain, { skip }), await tableHashes(sharded, { skip }))).toEqual(
      expect.arrayContaining(['raw_events', 'events', 'files', 'hosts', 'sessions']),
    );
    // the shard's run covered its own hosts only: the other shard's host missing from its input is not absent
    expect(await query(sharded, `select host, status from hosts where host in ('${mine}', '${other}') order by host`)).toEqual(
      [
        [mine, 'absent from last input'],
        [other, 'loaded'],
      ].sort(),
    );
  });

  it("removes a killed write's staging folders of its own hosts only", async () => {
    const tmp = path.join(sharded, 'parquet', '.tmp');
    const host = (k: number) => [...HOSTS.keys()].find((h) => shardOf(h, N) === k && existsSync(path.join(fleet, h)))!;
    const mine = path.join(tmp, `${encodeURIComponent(host(2))}__cline-tasks.1700000000000`);
    const theirs = path.join(tmp, `${encodeURIComponent(host(4))}__cline-tasks.1700000000000`);
    for (const dir of [mine, theirs]) mkdirSync(dir, { recursive: true });
    const run = await shardRun(sharded, 2);
    expect(run.code, describeRun(run)).toBe(0);
    expect([existsSync(mine), existsSync(theirs)]).toEqual([false, true]);
  });
});
