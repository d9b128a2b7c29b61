/** Archives made for the tests of collections: a zip of named members (yazl), a gzipped tarball (node-tar). */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as tar from 'tar';
import * as yazl from 'yazl';

/** A zip holding `members` (name as stored → bytes), deflated, every member stamped 2026-10-01. */
export async function zipOf(members: Record<string, Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, bytes] of Object.entries(members))
    zip.addBuffer(bytes, name, { compress: true, mtime: new Date('2026-10-01T00:00:00Z') });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A member of a tarball: its bytes, or a symbolic link to `symlink`. */
export type TarMember = Buffer | { symlink: string };

/**
 * Writes `file`, a gzipped tarball of `members` (name → member, every name under `home/`), from a folder
 * made under the OS temporary folder (not beside `file`, where a fleet would take it for a host) and removed.
 */
export function writeTgz(file: string, members: Record<string, TarMember>): void {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-test-tgz-'));
  for (const [name, member] of Object.entries(members)) {
    const at = path.join(dir, name);
    mkdirSync(path.dirname(at), { recursive: true });
    if (Buffer.isBuffer(member)) writeFileSync(at, member);
    else symlinkSync(member.symlink, at);
  }
  try {
    tar.c({ gzip: true, file, cwd: dir, sync: true, portable: true }, ['home']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
