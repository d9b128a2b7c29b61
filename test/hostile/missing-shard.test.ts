/**
 * `clinetrail models` after a split in three whose shard 2/3 was killed half-way (SIGKILLed by the test
 * stop `partition-written`, core/test-stops.ts, after its first partition) or never ran, shards 1/3 and
 * 3/3 loaded: it builds the
 * warehouse for the hosts that loaded, but never reports success silently (load/split-check.ts). Exit
 * 6, one stderr line naming the shard and its hosts, `hosts` rows `shard not loaded` for them, and a
 * `load_runs` row for the shard (`not finished`, `not run`). Once the shard has run, `models` exits 0
 * and the warehouse is the one a plain load of the fleet gives, every table hashed. Then the nightly
 * case: the next round runs shards 1 and 3 only, and `models` says shard 2 did not run again, its
 * hosts keeping their earlier rows. The hosts whose partitions the killed shard committed before it
 * could build their models (load/models.ts buildShardModels) are built by `models` and named in a warning.
 *
 * Every command is the built CLI in a process of its own (dist/src/cli/main.js). On main, `models`
 * exited 0 in every case, with the hosts of the missing shard absent from `hosts`.
 */
import { readdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSplitFleet, shardOf, splitFleetHosts } from '../helpers/split-fleet.js';
import { tableHashes } from '../helpers/table-hashes.js';
import { assertBuilt, type CliOptions, type CliRun, describeRun, lit, query, runCli, snapshotTree, workDir } from './harness.js';

const N = 3;
/** The shard killed or left out: the one of the most partitions in this fleet (see the killed case). */
const LAST = 2;
const OTHERS = [1, 3];
const work = workDir('missing-shard');
const fleet = path.join(work, 'fleet');
const plain = path.join(work, 'out-plain');
// two hosts at least in each shard: the killed shard has a partition left to write when it is killed
const HOSTS = splitFleetHosts(N, 2);
const hostsOf = (k: number) => [...HOSTS.keys()].filter((h) => shardOf(h, N) === k).sort();
const inList = (hosts: string[]) => `(${hosts.map(lit).join(', ')})`;

const shard = (out: string, k: number, options: CliOptions = {}) =>
  runCli(['load', '--fleet', fleet, '--out', out, '--quiet', '--shard', `${k}/${N}`], { child: true, ...options });
const models = (out: string) => runCli(['models', '--out', out], { child: true });

/** The shards of the split but LAST, together, each exiting 0. */
async function others(out: string): Promise<void> {
  for (const run of await Promise.all(OTHERS.map((k) => shard(out, k)))) expect(run.code, describeRun(run)).toBe(0);
}

/** The stderr lines of a run. */
const lines = (run: CliRun) => run.stderr.split('\n').filter((l) => l !== '');

/** The `hosts` rows (host, status) of OUT. */
const statuses = (out: string) => query(out, 'select host, status from hosts order by host');

/** What every host's status is when shard LAST did not load its hosts. */
const lastNotLoaded = () => [...HOSTS.keys()].sort().map((h) => [h, shardOf(h, N) === LAST ? 'shard not loaded' : 'loaded']);

/** `models` built the warehouse and said that shard LAST did not load its hosts, in one line. */
function expectShardNamed(run: CliRun, state: 'did not run' | 'did not finish', unbuilt: string[] = []): void {
  const account = describeRun(run);
  expect(run.code, account).toBe(6);
  expect(run.stdout, account).toBe('');
  const [built, ...others] = lines(run);
  expect(built, account).toMatch(/^clinetrail: models built: \d+ host\(s\), \d+ row\(s\), /);
  // the hosts whose partitions the killed shard committed but whose models it never built: models built them
  if (unbuilt.length > 0)
    expect(others.shift(), account).toBe(
      `clinetrail: warning: models built the models of ${unbuilt.length} host(s) no load had built (a shard killed after its partitions, or run by another clinetrail): ${unbuilt.join(', ')}`,
    );
  const [warning, ...rest] = others;
  const again = state === 'did not run' ? '' : ' again';
  const why = state === 'did not run' ? 'did not run' : 'did not finish \\(its run started \\S+Z was killed or failed\\)';
  expect(warning, account).toMatch(
    new RegExp(
      `^clinetrail: warning: shard ${LAST}/${N} ${why}: ${hostsOf(LAST).length} host\\(s\\) not loaded, their earlier data kept if any: ${hostsOf(LAST).join(', ')}; run load --shard ${LAST}/${N}${again}, then models$`,
    ),
  );
  expect(rest, account).toEqual([]);
}

/** `models` exits 0 with its one line, and the warehouse is the plain load's, every table hashed. */
async function expectAsPlain(out: string): Promise<void> {
  const run = await models(out);
  expect(run.code, describeRun(run)).toBe(0);
  expect(lines(run), describeRun(run)).toHaveLength(1);
  // the run records differ by design: shard runs (one killed, one not run) against one plain run
  const skip = ['raw_runs', 'load_runs'];
  expect(Object.fromEntries(await tableHashes(out, { skip }))).toEqual(Object.fromEntries(await tableHashes(plain, { skip })));
}

let fleetBefore: Record<string, string>;

beforeAll(async () => {
  assertBuilt();
  makeSplitFleet(fleet, HOSTS);
  fleetBefore = snapshotTree(fleet);
  for (let k = 1; k <= N; k++) expect(hostsOf(k).length, `shard ${k}`).toBeGreaterThanOrEqual(2);
  const whole = await runCli(['load', '--fleet', fleet, '--out', plain, '--quiet'], { child: true });
  expect(whole.code, describeRun(whole)).toBe(0);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a split whose shard 2/3 is killed half-way', () => {
  const out = path.join(work, 'out-killed');
  let built: CliRun;

  beforeAll(async () => {
    await others(out);
    const killed = await shard(out, LAST, { env: { CLINETRAIL_TEST_STOP_AT: 'partition-written' } });
    // killed by SIGKILL = it got to its first committed partition
    expect(killed.signal, describeRun(killed)).toBe('SIGKILL');
    built = await models(out);
  });

  it('is built for the hosts that loaded, with exit 6 and the shard and its hosts named', async () => {
    const committed = await query(
      out,
      `select distinct host from raw_files where host in ${inList(hostsOf(LAST))} order by host`,
    );
    expectShardNamed(
      built,
      'did not finish',
      committed.map(([h]) => String(h)),
    );
    // half-way: the killed shard committed some of its partitions, not all. It writes them in one job,
    // four at a time (load/partition-job.ts JOB_CONCURRENCY), and is killed at the first one's report:
    // with more than four, some were never started
    const partitions = `select count(distinct (host, store)) from raw_files where host in ${inList(hostsOf(LAST))}`;
    const [[wrote]] = await query(out, partitions);
    const [[all]] = await query(plain, partitions);
    expect(Number(all)).toBeGreaterThan(4);
    expect(Number(wrote)).toBeGreaterThan(0);
    expect(Number(wrote)).toBeLessThan(Number(all));
  });

  it("lists the shard's hosts as shard not loaded in hosts, and its run as not finished in load_runs", async () => {
    expect(await statuses(out)).toEqual(lastNotLoaded());
    expect(
      await query(
        out,
        'select shard, status, ended_at_utc is null, count_rows_written, count_hosts from load_runs order by shard',
      ),
    ).toEqual([
      ['1/3', 'finished', false, expect.any(String), String(hostsOf(1).length)],
      ['2/3', 'not finished', true, null, String(hostsOf(LAST).length)],
      ['3/3', 'finished', false, expect.any(String), String(hostsOf(3).length)],
    ]);
  });

  it('once the shard has run, exits 0 and gives the warehouse of a plain load, the killed run kept', async () => {
    const again = await shard(out, LAST);
    expect(again.code, describeRun(again)).toBe(0);
    await expectAsPlain(out);
    expect(await query(out, "select count(*) from hosts where status <> 'loaded'")).toEqual([['0']]);
    expect(await query(out, 'select shard, status from load_runs order by started_at_utc')).toEqual(
      expect.arrayContaining([
        ['2/3', 'not finished'],
        ['2/3', 'finished'],
      ]),
    );
  });
});

describe('a split whose shard 2/3 never runs', () => {
  const out = path.join(work, 'out-missing');
  let built: CliRun;

  beforeAll(async () => {
    await others(out);
    built = await models(out);
  });

  it('is built for the hosts that loaded, with exit 6 and the shard and its hosts named', async () => {
    expectShardNamed(built, 'did not run');
    expect(Number((await query(out, 'select count(distinct host) from raw_events'))[0][0])).toBe(
      hostsOf(1).length + hostsOf(3).length,
    );
  });

  it("lists the shard's hosts from the split's input as shard not loaded, and a not run row in load_runs", async () => {
    expect(await statuses(out)).toEqual(lastNotLoaded());
    expect(
      await query(
        out,
        `select host, image_path, count_rows, first_seen_at_utc from hosts where host in ${inList(hostsOf(LAST))} order by host`,
      ),
    ).toEqual(hostsOf(LAST).map((h) => [h, path.join(fleet, h), '0', null]));
    expect(await query(out, 'select shard, status, count_hosts from load_runs order by shard')).toEqual([
      ['1/3', 'finished', String(hostsOf(1).length)],
      ['2/3', 'not run', String(hostsOf(LAST).length)],
      ['3/3', 'finished', String(hostsOf(3).length)],
    ]);
  });

  it('says so again at the next models, recording the shard once', async () => {
    expectShardNamed(await models(out), 'did not run');
    expect(await query(out, "select count(*) from load_runs where status = 'not run'")).toEqual([['1']]);
  });

  it('once the shard has run, exits 0 and gives the warehouse of a plain load', async () => {
    const late = await shard(out, LAST);
    expect(late.code, describeRun(late)).toBe(0);
    await expectAsPlain(out);
  });

  it('in the next round (a nightly job) without the shard, says it did not run, its hosts keeping their rows', async () => {
    await others(out);
    expectShardNamed(await models(out), 'did not run');
    expect(await statuses(out)).toEqual(lastNotLoaded());
    const rows = `select host, count_rows from hosts where host in ${inList(hostsOf(LAST))} order by host`;
    expect(await query(out, rows)).toEqual(await query(plain, rows));
    expect(await query(out, "select count(*) from load_runs where status = 'not run'")).toEqual([['2']]);
    const late = await shard(out, LAST);
    expect(late.code, describeRun(late)).toBe(0);
    await expectAsPlain(out);
  });
});

describe('the evidence', () => {
  it('is unchanged after every load and models run', () => {
    expect(snapshotTree(fleet)).toEqual(fleetBefore);
    expect(readdirSync(fleet).sort()).toEqual([...HOSTS.keys()].sort());
  });
});
