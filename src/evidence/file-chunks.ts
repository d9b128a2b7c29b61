/**
 * Reading evidence files. Each chunk buffer is sized to what is left to read, so the thousands of small
 * transcripts of a fleet do not each allocate a full-size read buffer (with fs.createReadStream's 1 MiB
 * highWaterMark, that churn was a tenth of a small-file load in GC).
 *
 * The reads are synchronous. Readers run in the load's worker threads, where nothing else waits on the
 * thread, and a thread-pool round trip per open, stat, read and close cost more than the calls
 * (docs/BENCHMARKS.md "Behind the code"). On a cold
 * disk the asynchronous calls could overlap more reads; these machines read from the page cache.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/**
 * Opens an evidence file for reading. O_NONBLOCK: a file replaced by a FIFO after discovery reads as
 * empty instead of blocking the thread forever (it has no effect on regular files).
 */
export function openEvidence(file: string): number {
  return openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
}

/** Bytes read per chunk at most. */
export const CHUNK_BYTES = 1024 * 1024;

/** Yields the bytes of `file` in order, up to `chunkBytes` at a time, to the end (also if it grows meanwhile). */
export async function* readChunks(file: string, chunkBytes = CHUNK_BYTES): AsyncGenerator<Buffer> {
  const fd = openEvidence(file);
  try {
    let left = fstatSync(fd).size;
    for (;;) {
      const buf = Buffer.allocUnsafe(left > 0 ? Math.min(chunkBytes, left) : chunkBytes);
      const bytesRead = readSync(fd, buf, 0, buf.length, null);
      if (bytesRead === 0) return;
      left -= bytesRead;
      yield bytesRead === buf.length ? buf : buf.subarray(0, bytesRead);
    }
  } finally {
    closeSync(fd);
  }
}
