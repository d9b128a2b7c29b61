/**
 * What `clinetrail models` says of the warehouse it built (load/models.ts): the rows the partitions hold,
 * the hosts with any, and the rows of `events`. Counted over `raw_events`, each count opens every part
 * of the fleet, which made `models` on a large fleet take many times its assembly (docs/BENCHMARKS.md,
 * "The model batches of the 6.9 GB fleet"). So the partitions' rows and hosts come from their
 * manifests, which record the rows of the parts `raw_events` reads, and `events` is counted on a plain
 * read-only connection (no question's text runs on it).
 */
import { warehouseFile } from '../core/layout.js';
import { openDuckDB } from './duckdb-open.js';
import { setFleetVariables } from './file-lists.js';
import { hostSources } from './host-models.js';

/** The figures of a built warehouse. */
export interface FleetCounts {
  /** Rows of `raw_events`: of every committed partition. */
  rawRows: number;
  /** Hosts with at least one row in `raw_events`. */
  hosts: number;
  /** Rows of `events`. */
  eventRows: number;
}

/** The figures of OUT's warehouse (see the head of this file). */
export async function fleetCounts(outDir: string): Promise<FleetCounts> {
  const sources = await hostSources(outDir);
  const { instance, conn } = await openDuckDB(warehouseFile(outDir), { access_mode: 'READ_ONLY' });
  try {
    await setFleetVariables(conn, outDir);
    const [[events]] = (await conn.runAndReadAll('select count(*) from events')).getRows();
    return {
      rawRows: sources.reduce((n, h) => n + h.rows, 0),
      hosts: sources.filter((h) => h.rows > 0).length,
      eventRows: Number(events),
    };
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
