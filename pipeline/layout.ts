/**
 * Where a partition lives under OUT and the names of its files, apart from pipeline/partition.ts so
 * that the main thread of a load (state, warehouse) does not load the readers, Arrow and parquet-wasm
 * (~37 MB of RSS) that only the workers use.
 */
import * as path from 'node:path';

/** Folder of a partition under `OUT/parquet/events`; host names are percent-encoded. */
export function partitionDir(outDir: string, host: string, store: string): string {
  return path.join(outDir, 'parquet', 'events', `host=${encodeURIComponent(host)}`, `store=${store}`);
}

/** Name of the inventory file that lists a partition's evidence files, beside its Parquet parts. */
export const INVENTORY_FILE = '_files.jsonl';

/** Name of the file of a partition's redacted secrets (SecretRecord lines), beside its inventory. */
export const SECRETS_FILE = '_secrets.jsonl';
