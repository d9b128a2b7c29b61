/**
 * What the `files` table records of one evidence file (size, modification time, SHA-256), taken BEFORE
 * the file is read, and the stamp that tells afterwards whether it changed while it was being read.
 */
import { createHash } from 'node:crypto';
import { closeSync, readFileSync, readSync, statSync } from 'node:fs';
import { CHUNK_BYTES, openEvidence } from './file-chunks.js';

export interface Fingerprint {
  size: number | null;
  mtime_ms: number | null;
  sha256: string | null;
}

/** A fingerprint with the stamp of the file it describes (null when the file cannot be stat'ed). */
export interface StampedFingerprint extends Fingerprint {
  stamp: string | null;
}

/** Files up to this size are read in one call. */
const WHOLE_BYTES = 1024 * 1024;

/** Hashings of one file before it is taken as it is (a file rewritten during each of them). */
const HASH_ATTEMPTS = 3;

/**
 * Size, ns modification and change times, inode and device of a file: any write, truncation or
 * replacement changes it. null when the file cannot be stat'ed.
 */
export function stampOf(file: string): string | null {
  try {
    const st = statSync(file, { bigint: true, throwIfNoEntry: false });
    return st ? `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}:${st.dev}` : null;
  } catch {
    return null;
  }
}

/**
 * Bytes of `file` read into one buffer and hashed, to the end (also if it grows meanwhile), as
 * readChunks reads them. One buffer for the whole file: a fresh 1 MiB buffer per chunk cost the big
 * transcript's worker more in allocation and page faults than the hashing itself (docs/BENCHMARKS.md,
 * "Behind the code").
 */
function hashChunks(file: string, hash: ReturnType<typeof createHash>): void {
  const fd = openEvidence(file);
  try {
    const buf = Buffer.allocUnsafe(CHUNK_BYTES);
    for (;;) {
      const bytesRead = readSync(fd, buf, 0, buf.length, null);
      if (bytesRead === 0) return;
      hash.update(buf.subarray(0, bytesRead));
    }
  } finally {
    closeSync(fd);
  }
}

async function sha256Of(file: string, size: number): Promise<string | null> {
  const hash = createHash('sha256');
  try {
    if (size > WHOLE_BYTES) hashChunks(file, hash);
    else {
      const fd = openEvidence(file);
      try {
        hash.update(readFileSync(fd));
      } finally {
        closeSync(fd);
      }
    }
  } catch {
    return null;
  }
  return hash.digest('hex');
}

/**
 * Size, mtime and SHA-256 of a file, with its stamp; nulls (never a throw) when it cannot be read.
 * The stamp is taken before and after hashing, and the file is hashed again (up to HASH_ATTEMPTS
 * times) when they differ, so the figures describe one state of the file. Synchronous reads, as in
 * the readers (evidence/file-chunks.ts): this runs in the worker threads.
 */
export async function fingerprint(file: string): Promise<StampedFingerprint> {
  let result: StampedFingerprint = { size: null, mtime_ms: null, sha256: null, stamp: null };
  for (let attempt = 0; attempt < HASH_ATTEMPTS; attempt++) {
    const stamp = stampOf(file);
    let st: ReturnType<typeof statSync> | null = null;
    try {
      st = statSync(file, { throwIfNoEntry: false }) ?? null;
    } catch {
      st = null;
    }
    if (!st) return result;
    const base = { size: st.size, mtime_ms: Math.trunc(st.mtimeMs), stamp };
    if (!st.isFile()) return { ...base, sha256: null };
    result = { ...base, sha256: await sha256Of(file, st.size) };
    if (stampOf(file) === stamp) return result;
  }
  return result;
}
