/**
 * Incremental runs: a partition is re-read only when its inputs changed. The record of what a partition
 * read is its own `_files.jsonl` inventory (written in the same atomic swap as its Parquet parts), so the
 * state can never describe data that is not there. `OUT/state/loader.json` holds a hash of the reader
 * code: when the readers change, every partition is read again.
 */
import { createHash } from 'node:crypto';
import { promises as fs, statSync, type Stats } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { imagePath, type Source } from '../readers/row.js';
import type { DiscoveryProblem } from './discover.js';
import { INVENTORY_FILE, partitionDir } from './layout.js';

const READERS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'readers');

/** Hash of the files of a folder whose names match `pattern`: the version of that code. */
export async function codeVersion(dir: string, pattern: RegExp): Promise<string> {
  const hash = createHash('sha256');
  for (const name of (await fs.readdir(dir)).filter((n) => pattern.test(n)).sort()) {
    hash.update(name).update(await fs.readFile(path.join(dir, name)));
  }
  return hash.digest('hex').slice(0, 16);
}

/** Hash of the reader modules this process runs: a change means old partitions may be wrong. */
export function loaderVersion(): Promise<string> {
  return codeVersion(READERS_DIR, /\.(js|ts)$/);
}

/**
 * `OUT/state/<name>.json` records the version of the code that wrote part of OUT: `loader` for the
 * partitions, `models` for fleet.duckdb. Written after what it describes, by rename.
 */
export async function recordedVersion(outDir: string, name: 'loader' | 'models'): Promise<string | null> {
  const text = await fs.readFile(path.join(outDir, 'state', `${name}.json`), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    return (JSON.parse(text) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
}

export async function recordVersion(outDir: string, name: 'loader' | 'models', version: string): Promise<void> {
  const file = path.join(outDir, 'state', `${name}.json`);
  await fs.writeFile(`${file}.tmp`, `${JSON.stringify({ version })}\n`);
  await fs.rename(`${file}.tmp`, file);
}

/**
 * `OUT/state/models.stale` exists from the first partition change of a run until fleet.duckdb is
 * rebuilt, so a run killed in between makes the next run rebuild the models even if no file changed.
 */
export const STALE_MARKER = path.join('state', 'models.stale');

/** `source_file size mtime` lines, sorted: what a partition's inputs look like to stat(). */
function signature(entries: Array<{ source_file: string; size: number | null; mtime_ms: number | null }>): string {
  return entries
    .map((e) => `${e.source_file}\t${e.size ?? '-'}\t${e.mtime_ms ?? '-'}`)
    .sort()
    .join('\n');
}

/**
 * stat() of one evidence file, null when it cannot be read. Synchronous on purpose: an unchanged nightly
 * run is mostly these calls (27,000 on the bench fleet), and the promise version's thread-pool round trip
 * cost ten times the call (1.2 s against 0.1 s); the workers are in other threads and wait for nothing.
 */
function statOrNull(file: string): Stats | null {
  try {
    return statSync(file, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/**
 * The inputs of a partition as they are now: the signature of every source file's size and mtime and
 * every problem path, and their bytes (to cut the writes into jobs, pipeline/jobs.ts).
 */
export async function currentInputs(sources: Source[], problems: DiscoveryProblem[]): Promise<{ signature: string; bytes: number }> {
  const entries: Array<{ source_file: string; size: number | null; mtime_ms: number | null }> = [];
  let bytes = 0;
  for (const source of sources) {
    for (const file of source.files) {
      const st = statOrNull(file);
      bytes += st?.size ?? 0;
      entries.push({ source_file: imagePath(source, file), size: st?.size ?? null, mtime_ms: st ? Math.trunc(st.mtimeMs) : null });
    }
  }
  const image = sources[0];
  if (image) for (const p of problems) entries.push({ source_file: imagePath(image, p.file), size: null, mtime_ms: null });
  return { signature: signature(entries), bytes };
}

/** The inputs a written partition read, from its inventory; null when there is no partition. */
export async function storedSignature(outDir: string, host: string, store: string): Promise<string | null> {
  const text = await fs.readFile(path.join(partitionDir(outDir, host, store), INVENTORY_FILE), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    const records = text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { source_file: string; size: number | null; mtime_ms: number | null });
    return signature(records);
  } catch {
    return null;
  }
}
