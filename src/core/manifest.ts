/**
 * `_partition.json`, the commit record of a partition: which generation of files is current, what code
 * and which redaction setting wrote it, what its inputs looked like when they were read, and the size,
 * modification time and SHA-256 of every file of the generation.
 *
 * A partition is committed by renaming a new manifest over the old one, after its generation's files
 * are in the folder; until then the previous generation is current, and a reader of the old manifest
 * (the warehouse built from it) finds all of its files, since older generations are only removed once
 * no warehouse reads them (load/retire.ts). A load trusts a partition only if its manifest says it
 * was written by the same code with the same redaction setting from the same inputs, and every file it
 * names is still there with its recorded size and modification time (load/state.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { promises as fs, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { fileDirOf, MANIFEST_FILE } from './layout.js';

/** One file of a generation, as written by the load. */
export interface GenerationFile {
  /** File name: a part's inside the partition's Parquet folder, any other's beside the manifest (core/layout.ts fileDirOf). */
  name: string;
  size: number;
  mtime_ms: number;
  sha256: string;
}

export interface PartitionManifest {
  format: 1;
  host: string;
  store: string;
  /** Id of the generation, in every file name of it. */
  generation: string;
  /** When the generation was committed, ISO 8601 UTC. */
  written_at: string;
  /** Version of the code that read the evidence (load/state.ts loaderVersion). */
  loader_version: string;
  /** False when the texts were stored with their secrets (`--keep-secrets`). */
  secrets_redacted: boolean;
  /** Version of the redaction code that redacted the texts; null when they were not redacted. */
  redaction_version: string | null;
  /** SHA-256 of the inputs' signature when read (load/state.ts inputSignature). */
  inputs_sha256: string;
  rows: number;
  parser_errors: number;
  secrets: number;
  parts: GenerationFile[];
  /** The `_files.<gen>.jsonl` inventory: one FileRecord per evidence file read. */
  inventory: GenerationFile;
  /** The `_secrets.<gen>.jsonl` file, null when nothing was redacted. */
  secrets_file: GenerationFile | null;
}

/** A new generation id: time-ordered (base-36 ms) with a random tail, safe in file names. */
export function newGeneration(): string {
  return `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
}

/** SHA-256 (hex) of a text. */
export function sha256Text(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Size, mtime and SHA-256 of a file the load just wrote, whose SHA-256 it computed as it wrote. */
export function describeWritten(dir: string, name: string, sha256: string): GenerationFile {
  const st = statSync(path.join(dir, name));
  return { name, size: st.size, mtime_ms: Math.trunc(st.mtimeMs), sha256 };
}

/** Size, mtime and SHA-256 of a small file the load wrote (an inventory, a secrets file), read back whole. */
export function describeFile(dir: string, name: string): GenerationFile {
  return describeWritten(
    dir,
    name,
    createHash('sha256')
      .update(readFileSync(path.join(dir, name)))
      .digest('hex'),
  );
}

/** Every file a manifest names. */
export function manifestFiles(m: PartitionManifest): GenerationFile[] {
  return [...m.parts, m.inventory, ...(m.secrets_file ? [m.secrets_file] : [])];
}

/** The manifest of the partition folder `dir`; null when there is none or it is not one. */
export function readManifest(dir: string): PartitionManifest | null {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path.join(dir, MANIFEST_FILE), 'utf8'));
  } catch {
    return null;
  }
  const m = value as PartitionManifest;
  if (typeof m !== 'object' || m === null || m.format !== 1 || typeof m.generation !== 'string' || !Array.isArray(m.parts))
    return null;
  if (typeof m.inventory?.name !== 'string' || typeof m.inputs_sha256 !== 'string' || typeof m.loader_version !== 'string')
    return null;
  const names = manifestFiles(m).map((f) => f.name);
  if (names.some((n) => typeof n !== 'string' || n !== path.basename(n) || !n.includes(m.generation))) return null;
  return m;
}

/**
 * Why the files of a manifest cannot be trusted (one missing, or its size or modification time not as
 * written: a part overwritten by hand or by a query), or null when all are as written. A stat per
 * file, no read: an unchanged nightly run checks every partition.
 */
export function tamperedFile(dir: string, m: PartitionManifest): string | null {
  for (const f of manifestFiles(m)) {
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(path.join(fileDirOf(dir, f.name), f.name));
    } catch {
      return `${f.name} is missing`;
    }
    if (st.size !== f.size || Math.trunc(st.mtimeMs) !== f.mtime_ms) {
      return `${f.name} is not as written (size ${st.size}, mtime ${Math.trunc(st.mtimeMs)}; written ${f.size}, ${f.mtime_ms})`;
    }
  }
  return null;
}

/**
 * Commits a generation staged in `stagingDir`: its parts are renamed into the partition's Parquet
 * folder and its side files into `finalDir` (both created when new), then the manifest is written in
 * `finalDir` and renamed over the old one. A kill before that last rename leaves the previous
 * generation current and the new files unreferenced.
 */
export async function commitGeneration(stagingDir: string, finalDir: string, manifest: PartitionManifest): Promise<void> {
  for (const f of manifestFiles(manifest)) {
    const dir = fileDirOf(finalDir, f.name);
    await fs.mkdir(dir, { recursive: true });
    await fs.rename(path.join(stagingDir, f.name), path.join(dir, f.name));
  }
  await fs.mkdir(finalDir, { recursive: true });
  const tmp = path.join(finalDir, `${MANIFEST_FILE}.${manifest.generation}.tmp`);
  await fs.writeFile(tmp, `${JSON.stringify(manifest, null, 1)}\n`);
  await fs.rename(tmp, path.join(finalDir, MANIFEST_FILE));
  await fs.rm(stagingDir, { recursive: true, force: true });
}
