/**
 * Incremental runs: a partition is read again only when something about it differs from what its
 * manifest (`_partition.json`, core/manifest.ts) records: its inputs (the size and mtime of every
 * evidence file), the version of the reader code, the redaction setting and code, or its own files (a
 * part missing or not as written). The manifest is committed with the data, so the state can never
 * describe data that is not there, and each partition carries its own state: a load killed half-way
 * through, or run with the other `--keep-secrets` setting, leaves exactly the partitions it did not
 * reach to be read again.
 */
import { promises as fs, statSync, type Stats } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { imagePath, type Source } from '../core/row.js';
import type { DiscoveryProblem } from '../discover/discover.js';
import { partitionDir } from '../core/layout.js';
import { readManifest, sha256Text, tamperedFile } from '../core/manifest.js';
import { moduleGraphVersion } from '../core/code-version.js';

/** `src/` (or `dist/src/`): the root the code version names its modules from. */
const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The modules that shape the rows of a partition: what reads and writes one (load/partition.ts) and
 * what finds its files and names its home and client (discover/discover.ts), with everything they
 * import, in whatever folder it sits (core/code-version.ts).
 */
export const ROW_SHAPING_ENTRIES = ['load/partition.js', 'discover/discover.js'];

/** Hash of the row-shaping modules this process runs: a change means old partitions may be wrong. */
export function loaderVersion(): Promise<string> {
  return moduleGraphVersion(SRC, ROW_SHAPING_ENTRIES);
}

/** package.json's version, read once: from src/ or from dist/src/. */
async function packageVersion(): Promise<string> {
  for (const dir of [path.resolve(SRC, '..'), path.resolve(SRC, '..', '..')]) {
    const text = await fs.readFile(path.join(dir, 'package.json'), 'utf8').catch(() => null);
    if (text !== null) return (JSON.parse(text) as { version?: string }).version ?? 'unknown';
  }
  return 'unknown';
}

/** What a run records as the clinetrail that wrote it: `0.1.0+<loader version>`. */
export async function clinetrailVersion(): Promise<string> {
  return `${await packageVersion()}+${await loaderVersion()}`;
}

/** Hash of the redaction code (write/redact-row.ts and what it imports): new detectors mean new texts. */
export function redactionVersion(): Promise<string> {
  return moduleGraphVersion(SRC, ['write/redact-row.js']);
}

/** What a partition written now would record: the partition is unchanged only if its manifest agrees. */
export interface WriterVersion {
  loader_version: string;
  secrets_redacted: boolean;
  /** null when secrets are kept. */
  redaction_version: string | null;
}

/** The writer version of this process for a load that keeps secrets or not. */
export async function writerVersion(keepSecrets: boolean): Promise<WriterVersion> {
  return {
    loader_version: await loaderVersion(),
    secrets_redacted: !keepSecrets,
    redaction_version: keepSecrets ? null : await redactionVersion(),
  };
}

/** What `OUT/state/models.json` records of the build of fleet.duckdb. */
export interface ModelsRecord {
  /** Version of the model files and build code that built it (warehouse/models-version.ts). */
  version: string | null;
  /** Rows of its `duplicates` table, so a load that keeps it need not open DuckDB; null if not recorded. */
  duplicates: number | null;
}

/** `OUT/state/models.json`: the version of the models that built fleet.duckdb and its duplicate count. */
export async function recordedModels(outDir: string): Promise<ModelsRecord> {
  const text = await fs.readFile(path.join(outDir, 'state', 'models.json'), 'utf8').catch(() => null);
  if (text === null) return { version: null, duplicates: null };
  try {
    const record = JSON.parse(text) as { version?: unknown; duplicates?: unknown };
    return {
      version: typeof record.version === 'string' ? record.version : null,
      duplicates: Number.isInteger(record.duplicates) ? (record.duplicates as number) : null,
    };
  } catch {
    return { version: null, duplicates: null };
  }
}

/** Written after fleet.duckdb is in place, by rename. */
export async function recordModels(outDir: string, version: string, duplicates: number): Promise<void> {
  const file = path.join(outDir, 'state', 'models.json');
  const record = { version, duplicates: Number.isInteger(duplicates) ? duplicates : null };
  await fs.writeFile(`${file}.tmp`, `${JSON.stringify(record)}\n`);
  await fs.rename(`${file}.tmp`, file);
}

/**
 * `OUT/state/models.stale` exists from the first partition change of a run until fleet.duckdb is
 * rebuilt, so a run killed in between makes the next run rebuild the models even if no file changed.
 */
export const STALE_MARKER = path.join('state', 'models.stale');

/**
 * `OUT/state/models.retired` exists while nothing under OUT is left that no manifest names: written once
 * removeUnreferenced (load/retire.ts) has run to its end, removed when a build of fleet.duckdb begins.
 * Every change of a partition marks the models stale, and a stale warehouse is rebuilt, so a run that
 * keeps fleet.duckdb and finds this file has nothing to remove, and need not list every partition
 * folder of OUT (at 5,000 hosts, 110,000 folders: half of an unchanged load).
 */
export const RETIRED_MARKER = path.join('state', 'models.retired');

/** One input of a partition as stat() sees it; nulls when it cannot be stat'ed (or is a problem path). */
export interface InputStat {
  source_file: string;
  size: number | null;
  mtime_ms: number | null;
}

/** `source_file size mtime` lines, sorted: what a partition's inputs look like to stat(). */
export function inputSignature(entries: InputStat[]): string {
  return entries
    .map((e) => `${e.source_file}\t${e.size ?? '-'}\t${e.mtime_ms ?? '-'}`)
    .sort()
    .join('\n');
}

/**
 * stat() of one evidence file, null when it cannot be read. Synchronous on purpose: an unchanged nightly
 * run is mostly these calls (one per evidence file), and the promise version's thread-pool round trip
 * cost ten times the call (docs/BENCHMARKS.md "Behind the code"); the workers are in other threads and wait for nothing.
 */
function statOrNull(file: string): Stats | null {
  try {
    return statSync(file, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/**
 * The size and mtime a source file counts with in the input signature: its own, or for a member of an
 * archive the archive's (an unchanged archive is not opened again); for a member of an encoded collection
 * folder, the member file's own. `bytes` is what reading it costs (the member's size when known).
 */
export function inputStatOf(source: Source, file: string): { size: number | null; mtime_ms: number | null; bytes: number } {
  const archive = source.archive;
  if (archive && archive.format !== 'folder')
    return { size: archive.size, mtime_ms: archive.mtime_ms, bytes: archive.member_sizes[imagePath(source, file)] ?? 0 };
  const raw = archive?.members[imagePath(source, file)];
  const st = statOrNull(archive && raw !== undefined ? path.join(archive.path, raw) : file);
  return { size: st?.size ?? null, mtime_ms: st ? Math.trunc(st.mtimeMs) : null, bytes: st?.size ?? 0 };
}

/**
 * The inputs of a partition as they are now: every source file's size and mtime and every problem
 * path, the SHA-256 of their signature, and their bytes (to cut the writes into jobs, load/jobs.ts).
 */
export function currentInputs(
  sources: Source[],
  problems: DiscoveryProblem[],
): { inputs_sha256: string; files: number; bytes: number } {
  const entries: InputStat[] = [];
  let bytes = 0;
  let files = 0;
  for (const source of sources) {
    for (const file of source.files) {
      files += 1;
      const st = inputStatOf(source, file);
      bytes += st.bytes;
      entries.push({ source_file: imagePath(source, file), size: st.size, mtime_ms: st.mtime_ms });
    }
  }
  entries.push(...nonFileInputs(sources, problems));
  return { inputs_sha256: sha256Text(inputSignature(entries)), files, bytes };
}

/**
 * The signature entries that are no file: the paths of discovery problems, never stat'ed, and the zone
 * the host's local clocks are read in (--host-tz, Source.timeZone): read in another zone, or in none,
 * a partition is read again.
 */
export function nonFileInputs(sources: Source[], problems: DiscoveryProblem[]): InputStat[] {
  const image = sources[0];
  if (!image) return [];
  const entries = problems.map((p) => ({ source_file: imagePath(image, p.file), size: null, mtime_ms: null }));
  if (image.timeZone !== undefined) entries.push({ source_file: `time zone ${image.timeZone}`, size: null, mtime_ms: null });
  return entries;
}

/**
 * Why partition (host, store) must be read again, or null when its manifest records the same inputs,
 * the same writer version, and all of its files as written.
 */
export function rereadReason(
  outDir: string,
  host: string,
  store: string,
  inputsSha256: string,
  version: WriterVersion,
): string | null {
  const dir = partitionDir(outDir, host, store);
  const m = readManifest(dir);
  if (m === null) return 'new';
  if (m.inputs_sha256 !== inputsSha256) return 'inputs changed';
  if (m.loader_version !== version.loader_version) return 'code changed';
  if (m.secrets_redacted !== version.secrets_redacted)
    return version.secrets_redacted ? 'secrets were kept; now redacted' : 'secrets were redacted; now kept';
  if (m.redaction_version !== version.redaction_version) return 'redaction code changed';
  const tampered = tamperedFile(dir, m);
  return tampered === null ? null : `partition file changed: ${tampered}`;
}
