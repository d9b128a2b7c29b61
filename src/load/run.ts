/**
 * `clinetrail load`: discover every host image, write one Parquet partition per (host, store), remove
 * the partitions of sources that are gone, record the run, and rebuild the warehouse models. A shard
 * load (`--shard K/N`, load/shard.ts) does the same for the hosts of its shard only, beside the other
 * shards, and leaves the models and the removal of old files to `clinetrail models` (load/models.ts).
 */
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import pLimit from 'p-limit';
import { removeStaleCopies } from '../evidence/private-folders.js';
import type { RunRecord, RunStart } from '../core/records.js';
import { discoverOrReport, groupByPartition, problemEvent } from './groups.js';
import { makeStagingFolders, releaseStaging, saveListings } from './collections.js';
import { HostStaging } from './staging.js';
import { stagingLimits } from '../evidence/staging-limits.js';
import { acquireLock, acquireShardLock } from './lock.js';
import { inShard, type Shard, shardOfWord, shardText } from './shard.js';
import { testStop } from '../core/test-stops.js';
import type { PartitionResult } from './partition.js';
import { JOB_BYTES, planJobs } from './jobs.js';
import { oldLayoutError, partitionDir, writeStagingDir, writeStagingHostWord } from '../core/layout.js';
import { migrateOldLayout } from './migrate-layout.js';
import { hostStatus, planMembership } from './membership.js';
import { withdrawPartition } from './retire.js';
import { buildShardModels, refreshModels } from './models.js';
import { clinetrailVersion, currentInputs, rereadReason, STALE_MARKER, writerVersion } from './state.js';
import { createPartitionPool, type PartitionJob } from './worker-pool.js';
import { recordRun } from './run-records.js';
import { recordShardStart } from './split-check.js';

import { checkLoadOptions, type LoadOptions, resolveImages, UsageError } from './load-inputs.js';

export type { LoadOptions } from './load-inputs.js';
export { UsageError } from './load-inputs.js';

export type { RunRecord } from '../core/records.js';

/**
 * mkdir -p one level at a time. Node 20's recursive mkdir loops forever where a file system answers
 * ENOENT for a child of an existing folder (procfs, e.g. `--out /proc/x`); this fails instead.
 */
async function makeFolder(dir: string): Promise<void> {
  const st = await fs.stat(dir).catch(() => null);
  if (st?.isDirectory()) return;
  if (st) throw new Error('exists and is not a folder');
  const parent = path.dirname(dir);
  if (parent !== dir) await makeFolder(parent);
  await fs.mkdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
}

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

/** Runs a whole load; returns the run record it wrote to OUT/state/runs/. */
export async function runLoad(options: LoadOptions): Promise<RunRecord> {
  const emit = options.onEvent ?? (() => {});
  const started = new Date();
  await checkLoadOptions(options);
  const shard = options.shard ?? null;
  const resolved = await resolveImages(options);
  if (resolved.length === 0) throw new UsageError('load: no host image to load (give --fleet DIR or --host NAME=PATH)');
  // a shard resolves every image as a plain load does (names come from the collections), keeps its own
  const zones = options.hostTimeZones ?? new Map<string, string>();
  const given = new Set(resolved.map((o) => o.image.host));
  for (const host of zones.keys())
    if (!given.has(host)) throw new UsageError(`load: --host-tz names host ${host}, which is not in the input`);
  const opened = resolved.filter((o) => inShard(o.image.host, shard));
  const images = opened.map((o) => o.image);
  const out = path.resolve(options.out);
  if (shard !== null) {
    const old = oldLayoutError(out);
    if (old !== null) throw new UsageError(`load --shard ${shardText(shard)}: ${old}`);
  }
  try {
    await makeFolder(out);
  } catch (err) {
    throw new UsageError(`load: cannot create output folder ${out}: ${(err as Error).message}`);
  }
  const release = shard === null ? await acquireLock(out) : await acquireShardLock(out, shard);
  try {
    const begun: RunStart = {
      run_id: randomUUID(),
      clinetrail_version: await clinetrailVersion(),
      started_at: started.toISOString(),
      hosts: images.length,
      shard_index: shard?.index ?? null,
      shard_count: shard?.count ?? null,
      secrets_redacted: options.keepSecrets !== true,
      duplicates_dropped: null,
      finished_at: null,
      prune: options.prune === true,
      fleet: options.fleet === undefined ? null : path.resolve(options.fleet),
      shard_missing: false,
    };
    // what `models` needs to tell a shard killed or never started (load/split-check.ts)
    if (shard !== null)
      await recordShardStart(
        out,
        begun,
        resolved.map((o) => o.image),
        images,
      );
    removeStaleCopies(); // private SQLite copies and staged members of killed loads (evidence/private-folders.ts)
    if (shard === null) {
      const migrated = await migrateOldLayout(out);
      if (migrated > 0) {
        await fs.writeFile(path.join(out, STALE_MARKER), ''); // fleet.duckdb names the old paths: built again
        emit({ event: 'migrated', partitions: migrated });
      }
    }
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
    const results: PartitionResult[] = [];
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
            results.push(result);
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
    const record: RunRecord = {
      ...begun,
      ended_at: new Date().toISOString(),
      partitions_written: results.length,
      partitions_unchanged: unchanged,
      partitions_removed: removed,
      files_read: results.reduce((n, r) => n + r.files.length, 0),
      files_unchanged: filesUnchanged,
      rows_written: results.reduce((n, r) => n + r.rows, 0),
      parser_errors: results.reduce((n, r) => n + r.errors, 0),
      discovery_problems: discoveries.reduce((n, d) => n + d.problems.length, 0),
      is_full_load: options.full === true || unchanged === 0,
      secrets_found: results.reduce((n, r) => n + r.secrets, 0),
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
    // written before the build, which reads the runs folder; taken back if the build fails
    const runFile = await recordRun(out, record);
    // A shard builds its own hosts' models but not fleet.duckdb, and deletes nothing: fleet.duckdb, which
    // the other shards' runs and any query may be reading, still names the old generations and withdrawn
    // partitions until `models` assembles the new one.
    if (shard !== null) await buildShardModels(out, (host) => inShard(host, shard), emit);
    else {
      const { duplicates } = await refreshModels(out, emit, {
        onBuildFailed: () => fs.rm(runFile, { force: true }),
        hunts: options.noHunts !== true,
      });
      record.duplicates_dropped = Number.isFinite(duplicates) ? duplicates : null;
    }
    // the record is completed by rename: a run killed before keeps its record with these two null
    record.finished_at = new Date().toISOString();
    await recordRun(out, record);
    await fs.rm(path.join(out, 'state', 'loader.json'), { force: true });
    return record;
  } finally {
    for (const image of images) releaseStaging(image);
    await release();
  }
}
