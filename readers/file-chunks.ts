/**
 * A file's bytes in chunks, for the streaming readers. Each buffer is sized to what is left to read, so
 * the thousands of small transcripts of a fleet do not each allocate a full-size read buffer (with
 * fs.createReadStream's 1 MiB highWaterMark, that churn was a tenth of a small-file load in GC).
 */
import { open } from 'node:fs/promises';

/** Bytes read per chunk at most. */
export const CHUNK_BYTES = 1024 * 1024;

/** Yields the bytes of `file` in order, up to `chunkBytes` at a time, to the end (also if it grows meanwhile). */
export async function* readChunks(file: string, chunkBytes = CHUNK_BYTES): AsyncGenerator<Buffer> {
  const handle = await open(file, 'r');
  try {
    let left = (await handle.stat()).size;
    for (;;) {
      const buf = Buffer.allocUnsafe(left > 0 ? Math.min(chunkBytes, left) : chunkBytes);
      const { bytesRead } = await handle.read(buf, 0, buf.length, null);
      if (bytesRead === 0) return;
      left -= bytesRead;
      yield bytesRead === buf.length ? buf : buf.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}
