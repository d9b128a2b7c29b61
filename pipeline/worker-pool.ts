/**
 * A fixed pool of worker threads that write partitions (pipeline/partition-worker.ts). Only the job
 * (paths and file lists) and the result (counts and fingerprints) cross threads, never rows. When the
 * worker file is not compiled JavaScript (tests run the TypeScript sources), partitions are written in
 * this thread instead, one call at a time per pool slot.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Source, StoreId } from '../readers/row.js';
import type { DiscoveryProblem } from './discover.js';
import { writePartition, type PartitionResult } from './partition.js';

export interface PartitionJob {
  out: string;
  host: string;
  store: StoreId;
  sources: Source[];
  problems: DiscoveryProblem[];
  /** `--keep-secrets`: no redaction. */
  keepSecrets?: boolean;
}

export type WorkerReply = { ok: true; result: PartitionResult } | { ok: false; message: string };

const WORKER_FILE = fileURLToPath(new URL('./partition-worker.js', import.meta.url));

export interface PartitionPool {
  write(job: PartitionJob): Promise<PartitionResult>;
  close(): Promise<void>;
}

/** A pool of `size` workers, or the in-thread writer when no compiled worker file exists. */
export function createPartitionPool(size: number): PartitionPool {
  if (!existsSync(WORKER_FILE) || size < 1) {
    return { write: (j) => writePartition(j.out, j.host, j.store, j.sources, j.problems, { keepSecrets: j.keepSecrets }), close: async () => {} };
  }
  const idle: Worker[] = [];
  const all: Worker[] = [];
  const waiting: Array<(w: Worker) => void> = [];
  for (let i = 0; i < size; i++) {
    const worker = new Worker(WORKER_FILE);
    all.push(worker);
    idle.push(worker);
  }
  const take = () => new Promise<Worker>((resolve) => (idle.length ? resolve(idle.pop()!) : waiting.push(resolve)));
  const give = (w: Worker) => (waiting.length ? waiting.shift()!(w) : idle.push(w));
  return {
    async write(job) {
      const worker = await take();
      try {
        return await new Promise<PartitionResult>((resolve, reject) => {
          const onError = (err: Error) => {
            worker.off('message', onMessage);
            reject(new Error(`partition ${job.host}/${job.store}: worker failed: ${err.message}`));
          };
          const onMessage = (reply: WorkerReply) => {
            worker.off('error', onError);
            if (reply.ok) resolve(reply.result);
            else reject(new Error(reply.message));
          };
          worker.once('message', onMessage);
          worker.once('error', onError);
          worker.postMessage(job);
        });
      } finally {
        give(worker);
      }
    },
    async close() {
      await Promise.all(all.map((w) => w.terminate()));
    },
  };
}
