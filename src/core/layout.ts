/**
 * Where a partition lives under OUT and the names of its files, apart from load/partition.ts so
 * that the main thread of a load (state, warehouse) does not load the readers, Arrow and parquet-wasm
 * (~37 MB of RSS) that only the workers use.
 *
 * A partition has two folders, named alike (`<host>/<store>`, host escaped by hostDirName):
 * - `OUT/parquet/events/<host>/<store>/` holds only its Parquet parts, `part-<gen>-NNNNN.parquet`, so
 *   the dataset folder is plain Parquet that pandas, pyarrow, polars and DuckDB open with their default
 *   calls. The folders are not `host=`/`store=` (hive) names on purpose: those readers infer a hive
 *   key's type from the folder names (`0042` became the integer 42 in polars and pyarrow) or clash it
 *   with the column in the files (pyarrow: "string vs dictionary"); `host` and `store` are columns
 *   of every file instead (docs/ARCHITECTURE.md, "The Parquet dataset").
 * - `OUT/records/<host>/<store>/` holds the commit record `_partition.json` (core/manifest.ts) and
 *   the side files of each generation, `_files.<gen>.jsonl` and `_secrets.<gen>.jsonl`.
 * Each generation is the whole output of one write of that partition, its id in every file name; the
 * manifest names the current one, and older ones stay until the warehouse that reads them has been
 * replaced (load/retire.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, promises as fs, readdirSync } from 'node:fs';
import * as path from 'node:path';

/** Folder of the Parquet dataset: `OUT/parquet/events`, nothing but `<host>/<store>/*.parquet`. */
export function eventsDir(outDir: string): string {
  return path.join(outDir, 'parquet', 'events');
}

/** Folder of the run records (load/run-records.ts), one JSON file per run: `OUT/state/runs`. */
export function runsDir(outDir: string): string {
  return path.join(outDir, 'state', 'runs');
}

/** Folder of the partitions' commit records and side files: `OUT/records`. */
export function recordsDir(outDir: string): string {
  return path.join(outDir, 'records');
}

/**
 * Longest host folder name: room left in NAME_MAX (255 bytes) for the staging folder of a write,
 * `<host folder>__<store>.<generation>` (writeStagingDirOf).
 */
const MAX_HOST_FOLDER = 200;
/** Hex digits of the host's SHA-256 that end a cut host folder name. */
const HOST_HASH_DIGITS = 16;

/**
 * A host's folder name: percent-encoded (so `=`, `/`, `%` and the like never reach a folder name, and
 * no reader takes it for a hive `key=value`), with a leading `.` or `_` encoded too, since pyarrow
 * skips files and folders whose names start with them. `0042` stays `0042`. A name longer than
 * MAX_HOST_FOLDER once encoded (a Hostname of thousands of characters, 30 CJK characters are 270) is cut
 * between two characters, and ends with `+` and the first 16 hex digits of the host's SHA-256: distinct
 * hosts keep distinct folders, and `+`, which encoding always escapes, tells a cut name from any other.
 * The host itself is in every file and manifest of its folders, never read back from the name.
 */
export function hostDirName(host: string): string {
  const enc = encodeURIComponent(host);
  const name =
    enc.startsWith('.') || enc.startsWith('_') ? `%${enc.charCodeAt(0).toString(16).toUpperCase()}${enc.slice(1)}` : enc;
  if (name.length <= MAX_HOST_FOLDER) return name;
  return `${cutAtCharacter(name, MAX_HOST_FOLDER - HOST_HASH_DIGITS - 1)}+${hostHash(host).slice(0, HOST_HASH_DIGITS)}`;
}

/** The longest start of an encoded name within `budget` characters that ends between two characters (never inside an escape or a UTF-8 sequence). */
function cutAtCharacter(name: string, budget: number): string {
  let end = 0;
  let boundary = 0;
  for (const token of name.match(/%[0-9A-F]{2}|[^%]/gs) ?? []) {
    const continuation = token.length === 3 && (Number.parseInt(token.slice(1), 16) & 0xc0) === 0x80;
    if (!continuation) boundary = end;
    if (end + token.length > budget) return name.slice(0, boundary);
    end += token.length;
  }
  return name;
}

function hostHash(host: string): string {
  return createHash('sha256').update(host, 'utf8').digest('hex');
}

/** The partition's folder of records (`OUT/records/<host>/<store>`): its manifest and side files. */
export function partitionDir(outDir: string, host: string, store: string): string {
  return path.join(recordsDir(outDir), hostDirName(host), store);
}

/** The Parquet folder of the partition whose records folder is `dir`: `OUT/parquet/events/<host>/<store>`. */
export function partsDirOf(dir: string): string {
  const out = path.dirname(path.dirname(path.dirname(dir)));
  return path.join(eventsDir(out), path.basename(path.dirname(dir)), path.basename(dir));
}

/** The folder a file of the partition at `dir` lives in: parts in the dataset, the rest beside the manifest. */
export function fileDirOf(dir: string, name: string): string {
  return name.endsWith('.parquet') ? partsDirOf(dir) : dir;
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

/** Folder where partition writes stage their files before they are renamed into place: `OUT/parquet/.tmp`. */
export function writeStagingDir(outDir: string): string {
  return path.join(outDir, 'parquet', '.tmp');
}

/** The staging folder of one write of a partition: `OUT/parquet/.tmp/<host folder>__<store>.<gen>` (hostDirName). */
export function writeStagingDirOf(outDir: string, host: string, store: string, gen: string): string {
  return path.join(writeStagingDir(outDir), `${hostDirName(host)}__${store}.${gen}`);
}

/**
 * The first 4 bytes of the SHA-256 of the host of a staging folder name of writeStagingDirOf (what its
 * shard is computed from, load/shard.ts), as a big-endian number; null when the name is not one. A cut
 * name carries the start of that hash; a whole one, the host.
 */
export function writeStagingHostWord(name: string): number | null {
  const end = name.lastIndexOf('__');
  if (end <= 0) return null;
  const folder = name.slice(0, end);
  const cut = /\+([0-9a-f]{16})$/.exec(folder);
  if (cut) return Number.parseInt(cut[1].slice(0, 8), 16);
  try {
    return Number.parseInt(hostHash(decodeURIComponent(folder)).slice(0, 8), 16);
  } catch {
    return null;
  }
}

/** The store of a partition folder (`.../<host>/<store>`). */
export function partitionStore(dir: string): string {
  return path.basename(dir);
}

/** The `<host>/<store>` folders two levels under `root`, as absolute paths. */
async function twoLevels(root: string): Promise<string[]> {
  const found: string[] = [];
  const list = (d: string) => fs.readdir(d, { withFileTypes: true }).catch(() => []);
  for (const h of await list(root)) {
    if (!h.isDirectory()) continue;
    for (const s of await list(path.join(root, h.name))) if (s.isDirectory()) found.push(path.join(root, h.name, s.name));
  }
  return found.sort();
}

/** Partition folders of records under OUT/records (`<host>/<store>`), as absolute paths. */
export function partitionDirs(outDir: string): Promise<string[]> {
  return twoLevels(recordsDir(outDir));
}

/** Parquet folders under OUT/parquet/events (`<host>/<store>`), as absolute paths. */
export function partsDirs(outDir: string): Promise<string[]> {
  return twoLevels(eventsDir(outDir));
}

/** OUT's warehouse file, built by a load (or `models`) and renamed into place. */
export function warehouseFile(outDir: string): string {
  return path.join(outDir, 'fleet.duckdb');
}

/**
 * The one-line error of a command that reads the warehouse, for an OUT that holds none (no load has
 * built it: a wrong folder, a load not yet done, shard loads before `models`), or null.
 */
export function noWarehouseError(outDir: string): string | null {
  const file = warehouseFile(outDir);
  return existsSync(file) ? null : `no warehouse at ${file}; run clinetrail load --out ${outDir} first`;
}

/**
 * The one-line error of `query` and `export` for an OUT written by clinetrail before this layout
 * (`parquet/events/host=H/store=S` with the manifests and side files beside the parts), or null. The
 * next load moves such an OUT to the current layout (load/migrate-layout.ts); until then its warehouse
 * names the old paths.
 */
export function oldLayoutError(outDir: string): string | null {
  const events = eventsDir(outDir);
  if (!existsSync(events)) return null;
  const old = readdirSync(events).some((name) => name.startsWith('host='));
  if (!old) return null;
  return `${outDir} holds the old parquet/events/host=H/store=S layout; run clinetrail load with this --out once (it moves every partition to the current layout, hosts absent from its input too)`;
}
