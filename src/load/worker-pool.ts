/**
 * A fixed pool of worker threads that write partitions (load/partition-worker.ts). A job is a list
 * of partitions: one big partition, or many small ones (load/jobs.ts), so a fleet of tiny homes
 * does not pay one round trip per partition. Only the jobs (paths and file lists) and the results
 * (counts and fingerprints) cross threads, never rows. When the worker file is not compiled JavaScript
 * (tests run the TypeScript sources), jobs are written in this thread instead, one job at a time per
 * pool slot.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PartitionResult } from './partition.js';
import { writeJob, type PartitionJob, type WorkerReply } from './partition-job.js';

export type { PartitionJob } from './partition-job.js';

/**
 * The young generation of each worker's heap. V8's default lets a thread's new space grow to 32 MB
 * (plus as much again of new large objects), which a worker fills with the garbage of parsed records
 * between two scavenges. A smaller one lowers the bench loads' peak for a little more CPU time
 * (docs/BENCHMARKS.md "Behind the code"). Only the young generation is bounded, not the heap.
 */
const WORKER_YOUNG_MB = 8;

const WORKER_FILE = fileURLToPath(new URL('./partition-worker.js', import.meta.url));

export interface PartitionPool {
  /** Writes every partition of one job; `onResult` is called as each one is written. */
  write(jobs: PartitionJob[], onResult: (result: PartitionResult) => void): Promise<void>;
  close(): Promise<void>;
}

/** A pool of `size` workers, or the in-thread writer when size is 0 or no compiled worker file exists. */
export function createPartitionPool(size: number): PartitionPool {
  if (!existsSync(WORKER_FILE) || size < 1) {
    return { write: writeJob, close: async () => {} };
  }
  const idle: Worker[] = [];
  const all: Worker[] = [];
  const waiting: Array<(w: Worker) => void> = [];
  for (let i = 0; i < size; i++) {
    const worker = new Worker(WORKER_FILE, { resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB } });
    all.push(worker);
    idle.push(worker);
  }
  const take = () => new Promise<Worker>((resolve) => (idle.length ? resolve(idle.pop()!) : waiting.push(resolve)));
  const give = (w: Worker) => (waiting.length ? waiting.shift()!(w) : idle.push(w));
  return {
    async write(jobs, onResult) {
      const worker = await take();
      let dead = false;
      try {
        await new Promise<void>((resolve, reject) => {
          const finish = (err?: Error) => {
            worker.off('message', onMessage);
            worker.off('error', onError);
            if (err) reject(err);
            else resolve();
          };
          const onError = (err: Error) => {
            dead = true;
            const first = jobs[0];
            finish(
              new Error(
                `partition ${first.host}/${first.store}${jobs.length > 1 ? ` (job of ${jobs.length})` : ''}: worker failed: ${err.message}`,
              ),
            );
          };
          const onMessage = (reply: WorkerReply) => {
            if (reply.kind === 'result') onResult(reply.result);
            else finish(reply.kind === 'failed' ? new Error(reply.message) : undefined);
          };
          worker.on('message', onMessage);
          worker.once('error', onError);
          worker.postMessage(jobs);
        });
      } finally {
        // a worker that died is not handed out again
        if (!dead) give(worker);
      }
    },
    async close() {
      await Promise.all(all.map((w) => w.terminate()));
    },
  };
}
