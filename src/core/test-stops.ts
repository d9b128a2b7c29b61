/**
 * TEST-ONLY hook, not a user option: `CLINETRAIL_TEST_STOP_AT=<point>` or `<point>:<n>` makes a load
 * SIGKILL itself the n-th time (default the first) it reaches that named point, so the crash tests stop
 * a load where they mean to instead of at a guessed time, and know it got there (killed by SIGKILL =
 * reached; a normal exit = the point never came). Read once at start-up; unset, a stop costs one
 * comparison. A worker thread reads the same variable and kills the whole process too.
 * `CLINETRAIL_TEST_STOP_SIGNAL=SIGSTOP` stops the process there instead of killing it: it keeps every
 * lock it holds until the test sends SIGCONT (or kills it), so a test can hold a load at a point
 * (test/e2e/shards.test.ts runs a second load beside one held), or change what a held export is about
 * to write over (test/hostile/output-targets.test.ts).
 */

/** The named points of a load, in the order a load reaches them, and of an export or report. */
export type StopPoint =
  | 'after-discovery' // partitions grouped, nothing written (load/run.ts)
  | 'partition-staged' // a partition's generation staged in OUT/parquet/.tmp, not committed (load/partition.ts, worker thread)
  | 'partition-written' // a partition committed and reported to the main thread (load/run.ts)
  | 'before-models' // every partition written, the run record on disk, no model built (load/run.ts)
  | 'during-models' // the new database half-built: the first model file has run (warehouse/build.ts)
  | 'models-built' // fleet.duckdb replaced, the models' version and stale marker not yet updated (load/run.ts)
  | 'before-retire' // the files no manifest names not yet deleted (load/run.ts)
  | 'output-staged'; // an export's or report's file written in its staging folder, not yet put at --to (cli/output-file.ts)

const wanted = parseStop(process.env.CLINETRAIL_TEST_STOP_AT);
const signal: NodeJS.Signals = process.env.CLINETRAIL_TEST_STOP_SIGNAL === 'SIGSTOP' ? 'SIGSTOP' : 'SIGKILL';
let reached = 0;

function parseStop(value: string | undefined): { point: string; nth: number } | null {
  if (!value) return null;
  const [point, nth] = value.split(':');
  return { point, nth: nth === undefined ? 1 : Number(nth) };
}

/** Kills (or stops, see above) this process when CLINETRAIL_TEST_STOP_AT names `point` and this is its n-th arrival. */
export function testStop(point: StopPoint): void {
  if (wanted === null || wanted.point !== point) return;
  reached += 1;
  if (reached === wanted.nth) process.kill(process.pid, signal);
}
