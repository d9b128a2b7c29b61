/**
 * The hunt pack run as part of a model build (issue 27: findings always current): the load hands this to the
 * build, which calls it on the new warehouse file before renaming it over `fleet.duckdb`, so no query ever meets
 * a warehouse whose `findings` name rows of another build, or none at all. Each hunt passes the statement check
 * of the query sandbox (hunt/run.ts) as `clinetrail hunt` runs it. A pack that fails leaves empty `findings` and a
 * `hunt_runs` row saying so; `load --no-hunts` one saying that: the build itself never fails for a hunt.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { writeFindingsTables } from './findings-table.js';
import { loadHuntPack } from './pack.js';
import { type HuntRun, selectFindings } from './run.js';

/** What the hunts of a build did, for the load's progress. */
export interface BuildHunts {
  hunts: number;
  findings: number;
  /** Why no hunt ran (`--no-hunts`, or the pack's error); null when they ran. */
  notRun: string | null;
  ms: number;
}

/** Why a build's hunts did not run when the load was told not to run them. */
export const NO_HUNTS = 'not run: load --no-hunts; run clinetrail hunt --out OUT';

/**
 * Runs the pack on the warehouse of `outDir` (its `fleet` hunts on `conn`, the build's connection to the new
 * warehouse file; the hosts' models it reads are committed) and writes `findings` and `hunt_runs` there;
 * with `skip`, writes them empty with `skip` as the reason.
 */
export async function runHuntsInBuild(outDir: string, conn: DuckDBConnection, skip: string | null): Promise<BuildHunts> {
  const t0 = Date.now();
  if (skip !== null) {
    await writeFindingsTables(conn, [], [], new Date(), skip);
    return { hunts: 0, findings: 0, notRun: skip, ms: Date.now() - t0 };
  }
  const runs: HuntRun[] = [];
  try {
    const findings = await selectFindings(outDir, conn, await loadHuntPack(), { onHunt: (run) => runs.push(run) });
    await writeFindingsTables(conn, runs, findings, new Date());
    return { hunts: runs.length, findings: findings.length, notRun: null, ms: Date.now() - t0 };
  } catch (err) {
    const why = `failed: ${(err as Error).message.split('\n')[0]}`;
    await conn.run('rollback').catch(() => {});
    await writeFindingsTables(conn, [], [], new Date(), why);
    return { hunts: 0, findings: 0, notRun: why, ms: Date.now() - t0 };
  }
}
