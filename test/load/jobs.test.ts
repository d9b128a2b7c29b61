/** Partitions cut into worker jobs (load/jobs.ts) and written a few at once (worker-pool writeJob). */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_BYTES, JOB_PARTITIONS, planJobs } from '../../src/load/jobs.js';
import { runLoad } from '../../src/load/run.js';
import { readManifest } from '../../src/core/manifest.js';
import { partsDirOf } from '../../src/core/layout.js';
import { partitionDir } from '../../src/load/partition.js';
import { queryWarehouse } from '../../src/warehouse/build.js';
import { JOB_CONCURRENCY, writeJob, type PartitionJob } from '../../src/load/partition-job.js';
import { fixture, makeSource } from '../helpers/source.js';

const MB = 1024 * 1024;

describe('planJobs', () => {
  it('puts the biggest partitions first, each big one alone, and packs the small ones by bytes', () => {
    const items = [
      { item: 'small-a', bytes: 3 * MB },
      { item: 'big', bytes: 900 * MB },
      { item: 'small-b', bytes: 3 * MB },
      { item: 'edge', bytes: JOB_BYTES },
      { item: 'small-c', bytes: 3 * MB },
      { item: 'tiny', bytes: 10 },
    ];
    expect(planJobs(items)).toEqual([['big'], ['edge'], ['small-a', 'small-b'], ['small-c', 'tiny']]);
  });

  it('caps the partitions of one job, and lists every partition exactly once', () => {
    const items = Array.from({ length: 2 * JOB_PARTITIONS + 5 }, (_, i) => ({ item: i, bytes: 3000 }));
    const jobs = planJobs(items);
    expect(jobs.map((j) => j.length)).toEqual([JOB_PARTITIONS, JOB_PARTITIONS, 5]);
    expect(jobs.flat()).toEqual(items.map((x) => x.item));
    expect(planJobs([])).toEqual([]);
  });
});

const work = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-jobs-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('writeJob', () => {
  it('starts no partition after a failure and throws the first error', async () => {
    const out = path.join(work, 'out-fail');
    const failing = (i: number): PartitionJob => ({
      out,
      host: `bad-${i}`,
      store: 'hooks-log',
      sources: [],
      problems: [{ host: `bad-${i}`, store: 'hooks-log', file: '/nowhere', message: 'x' }],
    });
    const root = fixture('hooks-log', 'img');
    const good = (i: number): PartitionJob => ({
      out,
      host: `good-${i}`,
      store: 'hooks-log',
      sources: [makeSource({ host: `good-${i}`, store: 'hooks-log', imageRoot: root, root, home: '', client: '-', files: [] })],
      problems: [],
    });
    const written: string[] = [];
    // every lane's first partition fails, so none of the good ones after them may start
    const jobs = [...Array.from({ length: JOB_CONCURRENCY }, (_, i) => failing(i)), good(0), good(1)];
    await expect(writeJob(jobs, (r) => written.push(r.host))).rejects.toThrow(
      /partition bad-\d\/hooks-log: a discovery problem without a source/,
    );
    expect(written).toEqual([]);
    expect(existsSync(path.join(out, 'parquet', 'events'))).toBe(false);
    await writeJob([good(0), good(1)], (r) => written.push(r.host));
    expect(written.sort()).toEqual(['good-0', 'good-1']);
  });
});

describe('a load of many small hosts, written as grouped jobs', () => {
  const KINDS = ['vscode-tasks', 'sdk-sessions', 'hooks-log'] as const;
  const HOSTS = 40;
  const fleet = path.join(work, 'fleet');
  const host = (i: number) => `h-${String(i).padStart(2, '0')}`;

  beforeAll(() => {
    for (let i = 0; i < HOSTS; i++) cpSync(fixture(KINDS[i % 3], 'img'), path.join(fleet, host(i)), { recursive: true });
  });

  it('gives one partition per (host, store) with its own inventory, and the rows of each host loaded alone', async () => {
    const out = path.join(work, 'out-fleet');
    const run = await runLoad({ fleet, out });
    const partitions = await queryWarehouse(out, 'select distinct host, store from raw_files order by all');
    expect(run.partitions_written).toBe(partitions.rows.length);
    expect(run.partitions_written).toBeGreaterThan(JOB_PARTITIONS);
    for (const [h, s] of partitions.rows as string[][]) {
      const dir = partitionDir(out, h, s);
      // every partition holds rows but `unread`'s (the sdk-sessions image's compaction sidecar), which lists files only
      // a partition without rows has no Parquet folder
      const parquet = (existsSync(partsDirOf(dir)) ? readdirSync(partsDirOf(dir)) : []).filter((n) =>
        n.endsWith('.parquet'),
      ).length;
      if (s === 'unread') expect(parquet).toBe(0);
      else expect(parquet).toBeGreaterThan(0);
      const inventory = readFileSync(path.join(dir, readManifest(dir)!.inventory.name), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(inventory.every((f: { host: string; store: string }) => f.host === h && f.store === s)).toBe(true);
    }
    const rowsOf = (o: string, h: string) =>
      queryWarehouse(o, `select * exclude (host, row_id) from raw_events where host = '${h}' order by all`).then((r) => r.rows);
    // one host of each kind; the others hold the rows of the host copied from the same image (below)
    for (const i of [0, 1, 2]) {
      const alone = path.join(work, `out-${host(i)}`);
      await runLoad({ hosts: [{ host: host(i), root: path.join(fleet, host(i)) }], out: alone });
      const expected = await rowsOf(alone, host(i));
      expect(expected.length).toBeGreaterThan(0);
      expect(await rowsOf(out, host(i))).toEqual(expected);
    }
    // hosts copied from the same image hold the same rows, so no row went to another host's partition,
    // the last host's (in the last job) included
    for (const i of [3, 39]) expect(await rowsOf(out, host(i))).toEqual(await rowsOf(out, host(i % 3)));
    const perHost = await queryWarehouse(out, 'select count(distinct host) from raw_events');
    expect(perHost.rows).toEqual([[String(HOSTS)]]);
  });
});
