/**
 * How the partitions to write are cut into worker jobs (load/worker-pool.ts): biggest first, so the
 * longest partition starts at once and the small ones fill the other workers around it; a partition of
 * at least JOB_BYTES is a job of its own, the smaller ones are packed into jobs of up to JOB_BYTES and
 * JOB_PARTITIONS partitions. A fleet of a thousand tiny homes is then ~30 jobs, not 1,000.
 */

/** Input bytes of one job of small partitions. */
export const JOB_BYTES = 8 * 1024 * 1024;
/** Partitions of one job: enough jobs remain to keep every worker busy until the end. */
export const JOB_PARTITIONS = 32;

/** Jobs of items with their input bytes, biggest first; ties keep their order. */
export function planJobs<T>(items: ReadonlyArray<{ item: T; bytes: number }>): T[][] {
  const sorted = items.map((x, i) => ({ ...x, i })).sort((a, b) => b.bytes - a.bytes || a.i - b.i);
  const jobs: T[][] = [];
  let open: T[] = [];
  let openBytes = 0;
  for (const { item, bytes } of sorted) {
    if (bytes >= JOB_BYTES) {
      jobs.push([item]);
      continue;
    }
    if (open.length > 0 && (openBytes + bytes > JOB_BYTES || open.length >= JOB_PARTITIONS)) {
      jobs.push(open);
      open = [];
      openBytes = 0;
    }
    open.push(item);
    openBytes += bytes;
  }
  if (open.length > 0) jobs.push(open);
  return jobs;
}
