/**
 * Worker thread entry: writes the partitions the main thread sends, one at a time, so reading,
 * Arrow building and Parquet encoding of two partitions run on both cores at once.
 */
import { parentPort } from 'node:worker_threads';
import { writePartition } from './partition.js';
import type { PartitionJob, WorkerReply } from './worker-pool.js';

parentPort?.on('message', async (job: PartitionJob) => {
  let reply: WorkerReply;
  try {
    reply = { ok: true, result: await writePartition(job.out, job.host, job.store, job.sources, job.problems, { keepSecrets: job.keepSecrets }) };
  } catch (err) {
    reply = { ok: false, message: (err as Error).message };
  }
  parentPort?.postMessage(reply);
});
