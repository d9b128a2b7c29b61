/**
 * Where a partition lives under OUT and the names of its files, apart from load/partition.ts so
 * that the main thread of a load (state, warehouse) does not load the readers, Arrow and parquet-wasm
 * (~37 MB of RSS) that only the workers use.
 *
 * A partition folder holds one or more generations of files, each generation the whole output of one
 * write of that partition, its id in every file name: `part-<gen>-NNNNN.parquet`, `_files.<gen>.jsonl`
 * and `_secrets.<gen>.jsonl`. `_partition.json` (core/manifest.ts) names the current generation;
 * older ones stay until the warehouse that reads them has been replaced (load/retire.ts).
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** Folder of every partition folder: `OUT/parquet/events`. */
export function eventsDir(outDir: string): string {
  return path.join(outDir, 'parquet', 'events');
}

/** Folder of a partition under `OUT/parquet/events`; host names are percent-encoded. */
export function partitionDir(outDir: string, host: string, store: string): string {
  return path.join(eventsDir(outDir), `host=${encodeURIComponent(host)}`, `store=${store}`);
}

/** The partition's commit record, naming its current generation (core/manifest.ts). */
export const MANIFEST_FILE = '_partition.json';

/** Name of Parquet part `n` of generation `gen`. */
export function partFileName(gen: string, n: number): string {
  return `part-${gen}-${String(n).padStart(5, '0')}.parquet`;
}

/** Name of the inventory of generation `gen`: one FileRecord line per evidence file it read. */
export function inventoryFileName(gen: string): string {
  return `_files.${gen}.jsonl`;
}

/** Name of the file of generation `gen`'s redacted secrets (SecretRecord lines). */
export function secretsFileName(gen: string): string {
  return `_secrets.${gen}.jsonl`;
}

/** The host of a partition folder (`.../host=<H>/store=<S>`), decoded. */
export function partitionHost(dir: string): string {
  return decodeURIComponent(path.basename(path.dirname(dir)).slice('host='.length));
}

/** The store of a partition folder (`.../host=<H>/store=<S>`). */
export function partitionStore(dir: string): string {
  return path.basename(dir).slice('store='.length);
}

/** Partition folders under OUT/parquet/events: `host=H/store=S`, as absolute paths. */
export async function partitionFolders(outDir: string): Promise<string[]> {
  const events = eventsDir(outDir);
  const found: string[] = [];
  const list = (d: string) => fs.readdir(d, { withFileTypes: true }).catch(() => []);
  for (const h of await list(events)) {
    if (!h.isDirectory() || !h.name.startsWith('host=')) continue;
    for (const s of await list(path.join(events, h.name))) {
      if (s.isDirectory() && s.name.startsWith('store=')) found.push(path.join(events, h.name, s.name));
    }
  }
  return found.sort();
}
