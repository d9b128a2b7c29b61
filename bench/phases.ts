/**
 * Where a load's wall time went, from its own progress log (`load --log-format json` on stderr): discovery,
 * the partitions, the host models, the hunt pack. The ratios of issue 30 set the whole load against DuckDB
 * converting the same files, which builds no model and runs no hunt; these phases show that comparison per
 * part in every `make bench`, not only in hand-runs (docs/BENCHMARKS.md).
 */
import type { LoadEvent } from '../src/load/progress.js';

/** Seconds of each phase of one load; null where its log lacks the event (a load that rebuilt nothing). */
export interface LoadPhases {
  /** From the run's start (`done`'s run.started_at) to `discovered`. */
  discovery_s: number | null;
  /** From `discovered` to `models`: every partition read and written. */
  partitions_s: number | null;
  /** `host-models`' own ms: every host's models built and copied. */
  host_models_s: number | null;
  /** `hunts`' own ms: the hunt pack over the fleet. */
  hunts_s: number | null;
}

/** A progress line as logged; the names are those of load/progress.ts, so a rename there fails here. */
interface LogLine {
  ts?: string;
  event?: LoadEvent['event'];
  ms?: number;
  run?: { started_at?: string };
}

/** The phases of the load whose JSON progress lines are `stderr` (other lines are skipped). */
export function loadPhases(stderr: string): LoadPhases {
  const events = new Map<LoadEvent['event'], LogLine>();
  for (const line of stderr.split('\n')) {
    if (!line.startsWith('{')) continue;
    let parsed: LogLine;
    try {
      parsed = JSON.parse(line) as LogLine;
    } catch {
      continue;
    }
    // the first of each event: a load logs `models` once, `host-models` once per build
    if (parsed.event && !events.has(parsed.event)) events.set(parsed.event, parsed);
  }
  const time = (ts: string | undefined) => (ts === undefined ? null : Date.parse(ts));
  const at = (event: LoadEvent['event']) => time(events.get(event)?.ts);
  const between = (from: number | null, to: number | null) => (from === null || to === null ? null : (to - from) / 1000);
  const ms = (event: LoadEvent['event']) => {
    const v = events.get(event)?.ms;
    return typeof v === 'number' ? v / 1000 : null;
  };
  return {
    discovery_s: between(time(events.get('done')?.run?.started_at), at('discovered')),
    partitions_s: between(at('discovered'), at('models')),
    host_models_s: ms('host-models'),
    hunts_s: ms('hunts'),
  };
}
