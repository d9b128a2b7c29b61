/** What the `files` table records of one evidence file: size, modification time and SHA-256. */
import { createHash } from 'node:crypto';
import { closeSync, readFileSync, statSync } from 'node:fs';
import { openEvidence, readChunks } from '../readers/file-chunks.js';

export interface Fingerprint {
  size: number | null;
  mtime_ms: number | null;
  sha256: string | null;
}

/** Files up to this size are read in one call. */
const WHOLE_BYTES = 1024 * 1024;

/**
 * Size, mtime and SHA-256 of a file, read as a stream; nulls (never a throw) when it cannot be read.
 * Synchronous reads, as in the readers (readers/file-chunks.ts): this runs in the worker threads.
 */
export async function fingerprint(file: string): Promise<Fingerprint> {
  let st: ReturnType<typeof statSync> | null = null;
  try {
    st = statSync(file, { throwIfNoEntry: false }) ?? null;
  } catch {
    st = null;
  }
  if (!st?.isFile()) return { size: st ? st.size : null, mtime_ms: st ? Math.trunc(st.mtimeMs) : null, sha256: null };
  const hash = createHash('sha256');
  try {
    if (st.size > WHOLE_BYTES) for await (const chunk of readChunks(file)) hash.update(chunk);
    else {
      const fd = openEvidence(file);
      try {
        hash.update(readFileSync(fd));
      } finally {
        closeSync(fd);
      }
    }
  } catch {
    return { size: st.size, mtime_ms: Math.trunc(st.mtimeMs), sha256: null };
  }
  return { size: st.size, mtime_ms: Math.trunc(st.mtimeMs), sha256: hash.digest('hex') };
}
