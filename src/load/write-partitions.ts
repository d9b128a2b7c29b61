/**
 * The partition phase of `clinetrail load` (load/run.ts): discover each host image, write one Parquet
 * partition per (host, store) whose inputs changed, withdraw the partitions of sources that are gone, and
 * return the run record's figures. Its own module and function so that what it holds per host, partition
 * and file (the discoveries, the partitions' sources, the jobs) is garbage once it returns: the model
 * build that follows holds nothing of it, and the phase itself keeps totals, never the written
 * partitions' results (issue 26 point 4).
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import pLimit from 'p-limit';
import type { RunRecord, RunStart } from '../core/records.js';
import { partitionDir, writeStagingDir, writeStagingHostWord } from '../core/layout.js';
import { testStop } from '../core/test-stops.js';
import { stagingLimits } from '../evidence/staging-limits.js';
import { makeStagingFolders, saveListings } from './collections.js';
import { discoverOrReport, groupByPartition, problemEvent } from './groups.js';
import { JOB_BYTES, planJobs } from './jobs.js';
import type { LoadOptions, resolveImages } from './load-inputs.js';
import { hostStatus, planMembership } from './membership.js';
import type { LoadEvent } from './progress.js';
import { withdrawPartition } from './retire.js';
import { inShard, type Shard, shardOfWord } from './shard.js';
import { HostStaging } from './staging.js';
import { currentInputs, rereadReason, STALE_MARKER, writerVersion } from './state.js';
import { createPartitionPool, type PartitionJob } from './worker-pool.js';

/**
 * Removes the staging folders of partition writes a killed load left in OUT/parquet/.tmp
 * (core/layout.ts writeStagingDirOf). A shard removes only its own hosts' folders: the other shards
 * may be writing theirs now.
 */
async function removeStagedWrites(out: string, shard: Shard | null): Promise<void> {
  const dir = writeStagingDir(out);
  for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
    const word = writeStagingHostWord(name);
    if (shard === null || (word !== null && shardOfWord(word, shard.count) === shard.index))
      await fs.rm(path.join(dir, name), { recursive: true, force: true });
  }
}

/**
 * Writes the partitions of `opened` that changed (and withdraws those gone): returns the run record's
 * figures and its hosts' statuses. Its own function so that what it holds per host, partition and file
 * (discoveries, the partitions' sources, the jobs) is garbage once it returns: the model build that follows
 * holds nothing of it (issue 26 point 4).
 */
export async function writePartitions(
  out: string,
  options: LoadOptions,
  opened: Awaited<ReturnType<typeof resolveImages>>,
  shard: Shard | null,
  zones: ReadonlyMap<string, string>,
  emit: (event: LoadEvent) => void,
): Promise<Omit<RunRecord, keyof RunStart>> {
  const images = opened.map((o) => o.image);
  await saveListings(out, opened);
  makeStagingFolders(images);
  await removeStagedWrites(out, shard);
  const concurrency = options.concurrency ?? 2;
  const limit = pLimit(Math.max(concurrency, 4));
  const discoveries = await Promise.all(images.map((image) => limit(() => discoverOrReport(image))));
  const groups = groupByPartition(images, discoveries, emit);
  emit({ event: 'discovered', hosts: images.length, partitions: groups.size });
  testStop('after-discovery');
  // A partition is read again when its manifest disagrees with the inputs, the code or the redaction
  // setting of this load, or its own files are not as written (load/state.ts rereadReason).
  const keepSecrets = options.keepSecrets === true;
  const version = await writerVersion(keepSecrets);
  const staleMarker = path.join(out, STALE_MARKER);
  let stale: Promise<void> | null = null;
  const markStale = () => (stale ??= fs.writeFile(staleMarker, ''));
  let unchanged = 0;
  let filesUnchanged = 0;
  const planned: Array<{ item: PartitionJob; bytes: number }> = [];
  const reasons = new Map<string, string>();
  for (const g of groups.values()) {
    // the host's zone is read with its sources, and is part of their input signature (load/state.ts)
    const zone = zones.get(g.host);
    if (zone !== undefined) for (const source of g.sources) source.timeZone = zone;
    const now = currentInputs(g.sources, g.problems);
    const reason = options.full === true ? 'full load' : rereadReason(out, g.host, g.store, now.inputs_sha256, version);
    if (reason === null) {
      unchanged += 1;
      filesUnchanged += now.files;
      emit({
        event: 'partition',
        host: g.host,
        store: g.store,
        unchanged: true,
        rows: 0,
        files: 0,
        bytes: 0,
        parser_errors: 0,
      });
      continue;
    }
    reasons.set(`${g.host}\0${g.store}`, reason);
    planned.push({
      item: { out, host: g.host, store: g.store, sources: g.sources, problems: g.problems, keepSecrets, version },
      bytes: now.bytes,
    });
  }
  // a collection's members are copied out only for its partitions read again (load/staging.ts)
  const staging = new HostStaging(
    images,
    planned.map((p) => p.item),
    stagingLimits(),
    (image, problem) => emit(problemEvent(image, problem)),
  );
  // totals, not the results: a result names every file its partition read
  const written = { partitions: 0, files: 0, rows: 0, errors: 0, secrets: 0 };
  const jobs = planJobs(planned);
  // no more workers than jobs: an unchanged run starts none, a run with one changed partition one; and
  // none for at most one job's worth of input (JOB_BYTES, 8 MiB), which this thread reads faster than
  // two workers start (each compiles its own parquet-wasm; docs/BENCHMARKS.md "Behind the code")
  const inputBytes = planned.reduce((n, p) => n + p.bytes, 0);
  const pool = createPartitionPool(inputBytes <= JOB_BYTES ? 0 : Math.min(concurrency, jobs.length));
  const writeLimit = pLimit(concurrency);
  await Promise.all(
    jobs.map((job) =>
      writeLimit(async () => {
        await markStale();
        await staging.stage(job);
        await pool.write(job, (result) => {
          written.partitions += 1;
          written.files += result.files.length;
          written.rows += result.rows;
          written.errors += result.errors;
          written.secrets += result.secrets;
          staging.written(result.host);
          const bytes = result.files.reduce((n, f) => n + (f.size ?? 0), 0);
          const reason = reasons.get(`${result.host}\0${result.store}`);
          emit({
            event: 'partition',
            host: result.host,
            store: result.store,
            unchanged: false,
            reason,
            rows: result.rows,
            files: result.files.length,
            bytes,
            parser_errors: result.errors,
          });
          testStop('partition-written');
        });
      }),
    ),
  ).finally(() => pool.close());
  // Partitions withdrawn leave the next warehouse (load/membership.ts); their files stay until it
  // replaces the current one, which still reads them.
  const found = new Set([...groups.values()].filter((g) => g.store !== 'discovery').map((g) => g.host));
  const unread = new Set(images.filter((_, i) => discoveries[i].fault !== undefined).map((i) => i.host));
  const membership = await planMembership({
    out,
    given: images.map((i) => i.host),
    current: new Set([...groups.values()].map((g) => partitionDir(out, g.host, g.store))),
    found,
    unread,
    prune: options.prune === true,
    acceptEmpty: new Set(options.acceptEmpty ?? []),
    mine: (host) => inShard(host, shard),
  });
  let removed = 0;
  for (const dir of membership.withdraw) {
    await markStale();
    if (await withdrawPartition(dir)) removed += 1;
  }
  for (const host of membership.keptEmpty) emit({ event: 'kept-empty', host });
  return {
    ended_at: new Date().toISOString(),
    partitions_written: written.partitions,
    partitions_unchanged: unchanged,
    partitions_removed: removed,
    files_read: written.files,
    files_unchanged: filesUnchanged,
    rows_written: written.rows,
    parser_errors: written.errors,
    discovery_problems: discoveries.reduce((n, d) => n + d.problems.length, 0),
    is_full_load: options.full === true || unchanged === 0,
    secrets_found: written.secrets,
    hosts_absent: membership.absent,
    hosts_kept_empty: membership.keptEmpty,
    host_images: images.map((image, i) => ({
      host: image.host,
      image_path: image.root,
      status: hostStatus(image.host, found, membership.keptEmpty, discoveries[i].problems.length > 0, discoveries[i].fault),
      hostname: image.hostname ?? image.host,
      collection: image.collection?.folder ?? null,
      time_zone: zones.get(image.host) ?? null,
    })),
    hosts_renamed: images.filter((i) => i.hostname !== undefined && i.hostname !== i.host).map((i) => i.host),
  };
}
