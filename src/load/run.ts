/**
 * `clinetrail load`: discover every host image, write one Parquet partition per (host, store), remove
 * the partitions of sources that are gone, record the run, and rebuild the warehouse models. A shard
 * load (`--shard K/N`, load/shard.ts) does the same for the hosts of its shard only, beside the other
 * shards, and leaves the models and the removal of old files to `clinetrail models` (load/models.ts).
 */
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { removeStaleCopies } from '../evidence/private-folders.js';
import type { RunRecord, RunStart } from '../core/records.js';
import { releaseStaging } from './collections.js';
import { acquireLock, acquireShardLock } from './lock.js';
import { inShard, shardText } from './shard.js';
import { oldLayoutError } from '../core/layout.js';
import { migrateOldLayout } from './migrate-layout.js';
import { writePartitions } from './write-partitions.js';
import { buildShardModels, refreshModels } from './models.js';
import { clinetrailVersion, STALE_MARKER } from './state.js';
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
    const record: RunRecord = { ...begun, ...(await writePartitions(out, options, opened, shard, zones, emit)) };
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
