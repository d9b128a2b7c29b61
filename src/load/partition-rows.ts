/**
 * Rows per (host, store) of the partitions OUT holds, read from their manifests: what
 * `select host, store, count(*) from raw_events group by all order by all` gives on the warehouse the
 * manifests describe, without opening DuckDB. `make load` prints it after every load: two queries cost a
 * nightly re-run of an unchanged fleet more than the load itself.
 */
import { partitionDirs } from '../core/layout.js';
import { readManifest } from '../core/manifest.js';

export interface PartitionRows {
  host: string;
  store: string;
  rows: number;
}

/** Byte order of the UTF-8 texts, as DuckDB sorts VARCHAR. */
function utf8Order(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Every committed partition of OUT with its row count, sorted by host then store. */
export async function partitionRows(outDir: string): Promise<PartitionRows[]> {
  const found: PartitionRows[] = [];
  for (const dir of await partitionDirs(outDir)) {
    const m = readManifest(dir);
    if (m !== null) found.push({ host: m.host, store: m.store, rows: m.rows });
  }
  return found.sort((a, b) => utf8Order(a.host, b.host) || utf8Order(a.store, b.store));
}
