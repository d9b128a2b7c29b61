/**
 * Worker thread entry: writes the jobs the main thread sends (load/worker-pool.ts), one job at a
 * time, so reading, Arrow building and Parquet encoding run on both cores at once. Each partition's
 * result is posted as soon as it is written, then `done` (or `failed`) ends the job.
 */
import { parentPort } from 'node:worker_threads';
import { writeJob, type PartitionJob, type WorkerReply } from './partition-job.js';

parentPort?.on('message', async (jobs: PartitionJob[]) => {
  const post = (reply: WorkerReply) => parentPort?.postMessage(reply);
  try {
    await writeJob(jobs, (result) => post({ kind: 'result', result }));
    post({ kind: 'done' });
  } catch (err) {
    post({ kind: 'failed', message: (err as Error).message });
  }
});
