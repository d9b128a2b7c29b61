/** What the `files` table records of one evidence file: size, modification time and SHA-256. */
import { createHash } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';

export interface Fingerprint {
  size: number | null;
  mtime_ms: number | null;
  sha256: string | null;
}

/** Files up to this size are read in one call: a stream allocates a whole chunk buffer even for 3 KB. */
const WHOLE_BYTES = 1024 * 1024;

/** Size, mtime and SHA-256 of a file, read as a stream; nulls (never a throw) when it cannot be read. */
export async function fingerprint(file: string): Promise<Fingerprint> {
  const st = await fs.stat(file).catch(() => null);
  if (!st?.isFile()) return { size: st ? st.size : null, mtime_ms: st ? Math.trunc(st.mtimeMs) : null, sha256: null };
  const hash = createHash('sha256');
  try {
    if (st.size <= WHOLE_BYTES) hash.update(await fs.readFile(file));
    else for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  } catch {
    return { size: st.size, mtime_ms: Math.trunc(st.mtimeMs), sha256: null };
  }
  return { size: st.size, mtime_ms: Math.trunc(st.mtimeMs), sha256: hash.digest('hex') };
}
