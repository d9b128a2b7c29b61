/**
 * The warehouse side of a run: bring `fleet.duckdb` up to the manifests, then delete what no manifest
 * names. A plain load does it at its end (keeping fleet.duckdb when nothing changed); `clinetrail models`
 * does it alone, under the OUT lock, after the shard loads of a split (load/shard.ts) have written their
 * partitions and marked the warehouse stale.
 */
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { testStop } from '../core/test-stops.js';
import { oldLayoutError, runsDir } from '../core/layout.js';
import { modelsVersion } from '../warehouse/models-version.js';
import { acquireLock } from './lock.js';
import type { LoadEvent } from './progress.js';
import { removeUnreferenced, RETIRE_GRACE_MS } from './retire.js';
import { clinetrailVersion, recordedModels, recordModels, RETIRED_MARKER, STALE_MARKER } from './state.js';
import { UsageError } from './load-inputs.js';
import { checkSplit, markSplitComplete, recordShardsNotRun, type ShardGap } from './split-check.js';

/**
 * A full collection of the JS heap before the models are built: discovery and the partitions leave their
 * garbage in V8's old generation (a reload of 5,000 hosts held 155 MB of heap, 46 MB of it live), which
 * V8 frees only once the heap grows again, while the build allocates outside the heap, in DuckDB
 * (docs/BENCHMARKS.md, "The assembly binds on the first files"). It takes some 20 ms.
 */
function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

/** What a refresh of the models did. */
export interface ModelsResult {
  rebuilt: boolean;
  /** Rows of `duplicates`, NaN when the build could not count them. */
  duplicates: number;
  /** The hosts whose models this refresh built: none current on disk (warehouse/host-models.ts). */
  hostsBuilt: string[];
}

/**
 * Builds fleet.duckdb unless it is current (`force` builds it anyway), then removes the files no manifest
 * names: after the grace period when a new warehouse replaced one that queries may still read. The
 * caller holds the OUT lock EXCLUSIVE. `onBuildFailed` runs before a failed build's error is rethrown. A build
 * runs the hunt pack into the new warehouse before it replaces the old one (hunt/build-hunts.ts), unless
 * `hunts` is false (`--no-hunts`): then `findings` is empty and `hunt_runs` says so.
 */
export async function refreshModels(
  out: string,
  emit: (event: LoadEvent) => void,
  options: { force?: boolean; onBuildFailed?: () => Promise<void>; hunts?: boolean } = {},
): Promise<ModelsResult> {
  const staleMarker = path.join(out, STALE_MARKER);
  const retiredMarker = path.join(out, RETIRED_MARKER);
  const models = await modelsVersion();
  const recorded = await recordedModels(out);
  // kept only with its recorded duplicate count, so a kept warehouse never needs DuckDB opened to count
  const current =
    options.force !== true &&
    existsSync(path.join(out, 'fleet.duckdb')) &&
    !existsSync(staleMarker) &&
    recorded.version === models &&
    recorded.duplicates !== null;
  let grace = 0;
  let duplicates: number;
  let hostsBuilt: string[] = [];
  // the warehouse module loads DuckDB: an unchanged run, which keeps fleet.duckdb, need not (0.5-1 s)
  if (current) {
    emit({ event: 'models', rebuilt: false });
    duplicates = recorded.duplicates ?? Number.NaN;
  } else {
    emit({ event: 'models', rebuilt: true });
    testStop('before-models');
    await fs.rm(retiredMarker, { force: true });
    collectGarbage();
    const { buildWarehouse } = await import('../warehouse/build.js');
    const { NO_HUNTS, runHuntsInBuild } = await import('../hunt/build-hunts.js');
    const skip = options.hunts === false ? NO_HUNTS.replace('OUT', out) : null;
    ({ duplicatesDropped: duplicates, hostsBuilt } = await buildWarehouse(
      out,
      async (conn) => {
        const hunts = await runHuntsInBuild(out, conn, skip);
        emit({ event: 'hunts', hunts: hunts.hunts, findings: hunts.findings, not_run: hunts.notRun, ms: hunts.ms });
      },
      (built, ms) => emit({ event: 'host-models', hosts: built.length, ms }),
    ).catch(async (err: unknown) => {
      await options.onBuildFailed?.();
      throw err;
    }));
    testStop('models-built');
    await recordModels(out, models, duplicates);
    await fs.rm(staleMarker, { force: true });
    grace = RETIRE_GRACE_MS;
  }
  // fleet.duckdb now reads the current manifests: older generations and withdrawn partitions can go
  testStop('before-retire');
  if (!current || !existsSync(retiredMarker)) {
    await removeUnreferenced(out, grace);
    await fs.writeFile(retiredMarker, '');
  }
  return { rebuilt: !current, duplicates, hostsBuilt };
}

/** What `clinetrail models` reports. */
export interface ModelsRun {
  duplicates_dropped: number;
  /** Rows of raw_events (every partition's rows) and of events (after the duplicate rule). */
  raw_rows: number;
  event_rows: number;
  hosts: number;
  /** The shards of the split that did not load their hosts (load/split-check.ts): the CLI names them and exits 6. */
  shards_not_loaded: ShardGap[];
  /**
   * The hosts whose models `models` had to build: no load built them under this models version (a shard
   * killed after its partitions, or run by another version). The CLI names them in a warning.
   */
  hosts_built: string[];
}

/** The warning of `models` that it built hosts' models no load built (the first 10 named). */
export function hostsBuiltText(hosts: readonly string[]): string {
  const named = hosts.slice(0, 10).join(', ') + (hosts.length > 10 ? `, ... (+${hosts.length - 10})` : '');
  return `models built the models of ${hosts.length} host(s) no load had built (a shard killed after its partitions, or run by another clinetrail): ${named}`;
}

/**
 * The map step of a shard load (`load --shard K/N`): builds the models of its own hosts whose
 * partitions changed, each into its folders under OUT/models, so that `clinetrail models` only
 * assembles. fleet.duckdb is not touched: it names only the files of older generations, which stay until
 * `models` replaces it.
 */
export async function buildShardModels(
  out: string,
  mine: (host: string) => boolean,
  emit: (event: LoadEvent) => void,
): Promise<void> {
  const { buildHostModels, hostSources } = await import('../warehouse/host-models.js');
  collectGarbage();
  const t0 = Date.now();
  const hosts = (await hostSources(out)).filter((h) => mine(h.host));
  const { built } = await buildHostModels(out, hosts, await modelsVersion());
  emit({ event: 'host-models', hosts: built.length, ms: Date.now() - t0 });
}

/**
 * `clinetrail models --out OUT`: takes the OUT lock EXCLUSIVE (refused while any load or shard runs),
 * builds fleet.duckdb from the manifests and removes what no manifest names. Works on any OUT a load
 * wrote: rebuilding a current warehouse gives the same one. A split whose shards did not all finish is
 * built all the same, for the hosts that did load, with the others recorded `shard not loaded`
 * (load/split-check.ts) and returned, so the scheduler sees a failure and the warehouse says which.
 */
export async function runModelsCommand(outArg: string, options: { noHunts?: boolean } = {}): Promise<ModelsRun> {
  if (outArg === '') throw new UsageError("models: --out wants the output folder of a load, got ''");
  const out = path.resolve(outArg);
  const st = await fs.stat(out).catch(() => null);
  if (st === null) throw new UsageError(`models: --out ${outArg} not found`);
  if (!st.isDirectory()) throw new UsageError(`models: --out ${outArg} is not a folder`);
  const old = oldLayoutError(out);
  if (old !== null) throw new UsageError(`models: ${old}`);
  // a folder no load wrote is a wrong --out: models would build an empty warehouse in it
  if (!existsSync(runsDir(out)))
    throw new UsageError(`models: --out ${outArg} holds no load (no state/runs); run clinetrail load --out ${outArg} first`);
  const release = await acquireLock(out, 'models');
  try {
    const { fleetCounts } = await import('../warehouse/fleet-counts.js');
    const split = await checkSplit(out);
    await recordShardsNotRun(out, split, await clinetrailVersion());
    const { duplicates, hostsBuilt } = await refreshModels(out, () => {}, { force: true, hunts: options.noHunts !== true });
    await markSplitComplete(out, split);
    const counts = await fleetCounts(out);
    return {
      duplicates_dropped: duplicates,
      raw_rows: counts.rawRows,
      event_rows: counts.eventRows,
      hosts: counts.hosts,
      shards_not_loaded: split.gaps,
      hosts_built: hostsBuilt,
    };
  } finally {
    await release();
  }
}
