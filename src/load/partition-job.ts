/**
 * One job of partitions to write (load/jobs.ts cuts them), what a worker thread posts back, and the
 * writing of a job: the part of the pool that runs inside a worker (load/partition-worker.ts), or in
 * the main thread when no compiled worker exists (load/worker-pool.ts).
 */
import type { Source, StoreId } from '../core/row.js';
import type { DiscoveryProblem } from '../discover/discover.js';
import type { PartitionResult } from './partition.js';
import type { WriterVersion } from './state.js';

export interface PartitionJob {
  out: string;
  host: string;
  store: StoreId;
  sources: Source[];
  problems: DiscoveryProblem[];
  /** `--keep-secrets`: no redaction. */
  keepSecrets?: boolean;
  /** What the partition's manifest records of the writing code (computed once per load). */
  version?: WriterVersion;
}

/** What a worker posts: one `result` per partition written, then `done` or `failed` once per job. */
export type WorkerReply = { kind: 'result'; result: PartitionResult } | { kind: 'done' } | { kind: 'failed'; message: string };

/**
 * Partitions of one job written at once. Small partitions spend much of their time waiting for the
 * file system (mkdir, open, rename), which a few at once overlap; every partition of a shared job
 * is small (load/jobs.ts), so this does not multiply the memory of a big one.
 */
export const JOB_CONCURRENCY = 4;

/**
 * Writes the partitions of one job, up to JOB_CONCURRENCY at once, reporting each result as it is
 * written. After a failure no further partition starts; the first error is thrown once the partitions
 * already started have finished.
 */
export async function writeJob(jobs: PartitionJob[], onResult: (result: PartitionResult) => void): Promise<void> {
  // imported when first used: the main thread of a load big enough for workers, which only hands them
  // jobs, never loads the readers, Arrow and parquet-wasm (~15 MB of RSS)
  const { writePartition } = await import('./partition.js');
  let next = 0;
  let failure: unknown = null;
  const lane = async () => {
    while (failure === null && next < jobs.length) {
      const j = jobs[next++];
      try {
        onResult(
          await writePartition(j.out, j.host, j.store, j.sources, j.problems, { keepSecrets: j.keepSecrets, version: j.version }),
        );
      } catch (err) {
        failure ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(JOB_CONCURRENCY, jobs.length) }, lane));
  if (failure !== null) throw failure;
}
