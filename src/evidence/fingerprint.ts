/**
 * What the `files` table records of one evidence file (size, modification time, SHA-256), taken BEFORE
 * the file is read, and the stamp that tells afterwards whether it changed while it was being read.
 */
import { createHash } from 'node:crypto';
import { closeSync, readFileSync, statSync } from 'node:fs';
import { openEvidence, readChunks } from './file-chunks.js';

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

async function sha256Of(file: string, size: number): Promise<string | null> {
  const hash = createHash('sha256');
  try {
    if (size > WHOLE_BYTES) for await (const chunk of readChunks(file)) hash.update(chunk);
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
