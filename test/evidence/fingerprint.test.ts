/**
 * evidence/fingerprint.ts: the SHA-256 of the `files` table is the hash of the file's bytes, whether it
 * is read whole (up to 1 MiB) or in chunks through one reused buffer (issue 30), so no chunk's bytes are
 * hashed twice or left out.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHUNK_BYTES } from '../../src/evidence/file-chunks.js';
import { fingerprint } from '../../src/evidence/fingerprint.js';

const dir = mkdtempSync(path.join(tmpdir(), 'clinetrail-fingerprint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('fingerprint', () => {
  it('hashes every byte of files read whole and read in chunks', async () => {
    for (const size of [0, 1000, CHUNK_BYTES, CHUNK_BYTES + 1, 3 * CHUNK_BYTES + 12_345]) {
      const file = path.join(dir, `f${size}`);
      writeFileSync(file, randomBytes(size));
      const print = await fingerprint(file);
      expect(print.sha256, `size ${size}`).toBe(createHash('sha256').update(readFileSync(file)).digest('hex'));
      expect(print.size).toBe(size);
      expect(print.mtime_ms).toBe(Math.trunc(statSync(file).mtimeMs));
    }
  });
});
