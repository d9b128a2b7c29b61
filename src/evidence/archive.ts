/**
 * Host images held in archives (`.zip`, `.tar`, `.tar.gz`/`.tgz`) and collections whose member paths a
 * collector encoded (an unpacked Velociraptor collection): the listing of their members, and the copy of
 * chosen members into a private folder, streamed one member at a time (bounded memory whatever a
 * member's size). The archive is only read: nothing is ever written beside it.
 *
 * zip through yauzl (central directory, ZIP64, one stream per member, lazy); tar through node-tar
 * (streamed, gzip detected by its magic bytes), in strict mode so a truncated or corrupt tarball throws.
 *
 * A copy that fails on the archive's side (a corrupt member, a CRC) is the evidence's fault; one that
 * fails on the copy's side (the private folder full, read-only, failing) or goes beyond the staging
 * limits (evidence/staging-limits.ts) is clinetrail's own (core/own-fault.ts) and ends the copying.
 */
import { createReadStream, createWriteStream, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { createGunzip } from 'node:zlib';
import * as tar from 'tar';
import * as yauzl from 'yauzl';
import { OwnFault, ownWriteFault } from '../core/own-fault.js';
import { memberText } from '../core/row.js';
import { stagingLimitFault, type StagingLimits } from './staging-limits.js';
import { withDecryptedMembers } from './zip-password.js';

export type ArchiveFormat = 'zip' | 'tar' | 'folder';

/** One member as the archive (or folder) lists it. */
export interface ArchiveMember {
  /**
   * The member's path as stored: raw, undecoded, `/` separated. Not validated: a name that would leave
   * the image (`..`, absolute, a drive letter, a NUL) is judged member by member (discover/collection.ts).
   */
  name: string;
  kind: 'file' | 'dir' | 'other';
  size: number;
  /** Modification time the archive records, ms since the epoch (zip DOS times read as UTC); null when none. */
  mtime_ms: number | null;
  /** A zip member stored encrypted: WinZip AES (method 99) or the traditional PKWARE cipher (ZipCrypto). */
  encrypted?: 'aes' | 'zipcrypto';
}

/** A member to copy: where to, and at which time to stamp the copy. */
export interface MemberCopy {
  name: string;
  dest: string;
  mtime_ms: number | null;
}

/** The archive format a file name says, or null for anything else. */
export function archiveFormatOf(fileName: string): Exclude<ArchiveFormat, 'folder'> | null {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.zip')) return 'zip';
  if (lower.endsWith('.tar') || lower.endsWith('.tar.gz') || lower.endsWith('.tgz')) return 'tar';
  return null;
}

/** The file name without its archive extension: `alice-laptop.tar.gz` → `alice-laptop`. */
export function archiveBaseName(fileName: string): string {
  return path.basename(fileName).replace(/\.(zip|tar|tar\.gz|tgz)$/i, '');
}

/**
 * Names are decoded here (zipEntryName), not by yauzl: with `decodeStrings` it fails the whole archive
 * on the first name it finds unsafe (`..`, absolute, a drive letter), and one such member cost every
 * store of the host.
 */
const ZIP_OPTIONS: yauzl.Options = { lazyEntries: true, autoClose: false, validateEntrySizes: true, decodeStrings: false };

async function eachZipEntry(file: string, visit: (zip: yauzl.ZipFile, entry: yauzl.Entry) => Promise<void>): Promise<void> {
  const zip = await yauzl.openPromise(file, ZIP_OPTIONS);
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', resolve);
      zip.on('entry', (entry: yauzl.Entry) => {
        visit(zip, entry).then(() => zip.readEntry(), reject);
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

/** A zip entry's name as yauzl decodes it (CP437 or UTF-8, the Info-ZIP Unicode path field, backslashes as `/`), unvalidated. */
function zipEntryName(entry: yauzl.Entry): string {
  return yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, false);
}

function zipMember(entry: yauzl.Entry): ArchiveMember {
  const name = zipEntryName(entry);
  const dir = name.endsWith('/');
  return {
    name: dir ? name.slice(0, -1) : name,
    kind: dir ? 'dir' : 'file',
    size: entry.uncompressedSize,
    mtime_ms: entry.getLastModDate({ timezone: 'UTC' }).getTime(),
    ...(entry.isEncrypted() ? { encrypted: entry.compressionMethod === 99 ? ('aes' as const) : ('zipcrypto' as const) } : {}),
  };
}

/** Whether a file starts with gzip's magic bytes. */
async function isGzip(file: string): Promise<boolean> {
  const fd = await fs.open(file, 'r');
  try {
    const { bytesRead, buffer } = await fd.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await fd.close();
  }
}

/**
 * Every entry of a tarball, streamed from the file with backpressure, so an entry whose consumer waits
 * holds the read. The gzip layer is ours: node-tar's own inflates whatever it is given without waiting for
 * the entry, and held a 214 MB member whole in memory (a 3 MB .tar.gz). Strict: a truncated or corrupt
 * tarball rejects.
 */
async function walkTar(file: string, onReadEntry: (entry: tar.ReadEntry) => void, signal?: AbortSignal): Promise<void> {
  const gzip = await isGzip(file);
  await new Promise<void>((resolve, reject) => {
    const parser = new tar.Parser({ strict: true, onReadEntry });
    const input = createReadStream(file);
    const fail = (err: unknown) => {
      input.destroy();
      reject(err);
    };
    parser.on('error', fail);
    parser.on('end', () => resolve());
    signal?.addEventListener('abort', () => fail(signal.reason), { once: true });
    input.on('error', fail);
    // piped, not `pipeline`d: node-tar's Parser is no Node stream, and pipeline did not wait on it
    const sink = parser as unknown as NodeJS.WritableStream;
    if (gzip) input.pipe(createGunzip().on('error', fail)).pipe(sink);
    else input.pipe(sink);
  });
}

function tarMember(entry: tar.ReadEntry): ArchiveMember {
  const kind =
    entry.type === 'File' || entry.type === 'OldFile' || entry.type === 'ContiguousFile'
      ? 'file'
      : entry.type === 'Directory'
        ? 'dir'
        : 'other';
  return {
    name: entry.path.replace(/\/$/, ''),
    kind,
    size: entry.size,
    mtime_ms: entry.mtime ? entry.mtime.getTime() : null,
  };
}

/** Files and folders under `root`, relative and `/` separated; links and special files are `other`, never followed. */
async function folderMembers(root: string): Promise<ArchiveMember[]> {
  const out: ArchiveMember[] = [];
  const visit = async (rel: string): Promise<void> => {
    const entries = await fs.readdir(path.join(root, rel), { withFileTypes: true });
    for (const e of entries) {
      const name = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        out.push({ name, kind: 'dir', size: 0, mtime_ms: null });
        await visit(name);
      } else if (e.isFile()) {
        const st = await fs.stat(path.join(root, name));
        out.push({ name, kind: 'file', size: st.size, mtime_ms: Math.trunc(st.mtimeMs) });
      } else out.push({ name, kind: 'other', size: 0, mtime_ms: null });
    }
  };
  await visit('');
  return out;
}

/** Every member of an archive (or a collection folder). Throws when the archive cannot be read whole. */
export async function listMembers(file: string, format: ArchiveFormat): Promise<ArchiveMember[]> {
  if (format === 'folder') return folderMembers(file);
  const out: ArchiveMember[] = [];
  if (format === 'zip') await eachZipEntry(file, async (_zip, entry) => void out.push(zipMember(entry)));
  else
    await walkTar(file, (entry) => {
      out.push(tarMember(entry));
      entry.resume();
    });
  return out;
}

/** What one copy is checked against as it is written. */
interface CopyGuard {
  /** Counts a chunk inflated; the OwnFault of a staging limit it goes beyond, else null. */
  count(bytes: number): OwnFault | null;
  /** The OwnFault of an error making or writing the copy. */
  writeFault(err: unknown): OwnFault;
}

/** Streams one member to its copy. The folder is made first: no await may come between a stream's opening and its pipeline. */
async function streamMember(open: () => Readable | Promise<Readable>, copy: MemberCopy, guard: CopyGuard): Promise<void> {
  await fs.mkdir(path.dirname(copy.dest), { recursive: true }).catch((err: unknown) => {
    throw guard.writeFault(err);
  });
  const stream = await open();
  // yauzl forwards a zlib error to its stream on a later tick, and can emit a second one (the byte count)
  // after the first: the same fault, recorded once
  // piped, not `pipeline`d: pipeline reads a tar entry (a Minipass) through its async iterator, which
  // never tells node-tar to wait, and a large member was held whole (docs/BENCHMARKS.md "Behind the code")
  await new Promise<void>((resolve, reject) => {
    const out = createWriteStream(copy.dest, { flags: 'wx', mode: 0o600 });
    // counts what goes through, and stops at a staging limit (a 'data' listener on a tar entry would
    // take the chunks it holds before the pipe gets them)
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        callback(guard.count(chunk.length), chunk);
      },
    });
    let done = false;
    const failed = (err: unknown) => {
      if (done) return;
      done = true;
      // nothing more of the member is inflated: a zip's stream is destroyed, a tar entry paused (the
      // walk of its tarball ends with the copying, copyMembers)
      stream.unpipe(meter);
      const node: unknown = stream; // a tar entry is a Minipass, typed here as a Readable
      if (node instanceof Readable) node.destroy();
      else stream.pause();
      meter.destroy();
      out.destroy();
      reject(err);
    };
    stream.on('error', failed);
    meter.on('error', failed);
    out.on('error', (err) => failed(guard.writeFault(err)));
    out.on('close', () => {
      done = true;
      resolve();
    });
    stream.pipe(meter).pipe(out);
  });
  if (copy.mtime_ms !== null)
    await fs.utimes(copy.dest, copy.mtime_ms / 1000, copy.mtime_ms / 1000).catch((err: unknown) => {
      throw guard.writeFault(err);
    });
}

/** Where copyMembers writes and how much it may: the limits, and the temporary folder its own faults name. */
export interface CopyOptions {
  limits: StagingLimits;
  /** The folder holding the private folders (TMPDIR), named by an own fault's message. */
  tempRoot: string;
  /** A zip's password (`--zip-password-file`): its members are read decrypted, through zip.js (evidence/zip-password.ts). */
  password?: string;
}

/**
 * Copies the chosen members into their `dest` paths, streamed. Returns the error of each member that
 * failed on the archive's side (its partial copy removed); throws when the archive itself cannot be
 * opened or walked, and throws the OwnFault that ends the copying (a member that cannot be written, or
 * goes beyond a staging limit) with its partial copy removed.
 */
export async function copyMembers(
  file: string,
  format: ArchiveFormat,
  copies: readonly MemberCopy[],
  options: CopyOptions,
): Promise<Map<string, string>> {
  const wanted = new Map(copies.map((c) => [c.name, c]));
  const failed = new Map<string, string>();
  const fail = async (copy: MemberCopy, err: unknown) => {
    await fs.rm(copy.dest, { force: true });
    if (err instanceof OwnFault) throw err;
    failed.set(copy.name, (err as Error).message);
  };
  let inflated = 0;
  const guard = (copy: MemberCopy): CopyGuard => {
    const name = memberText(file, copy.name);
    let bytes = 0;
    return {
      count: (n) => {
        bytes += n;
        inflated += n;
        if (bytes > options.limits.member.bytes) return stagingLimitFault(options.limits.member, name);
        return inflated > options.limits.archive.bytes ? stagingLimitFault(options.limits.archive, name) : null;
      },
      writeFault: (err) => ownWriteFault(err, options.tempRoot, 'copying', name),
    };
  };
  const writeMember = (open: () => Readable | Promise<Readable>, copy: MemberCopy) => streamMember(open, copy, guard(copy));
  if (format === 'folder') {
    for (const copy of copies) {
      await writeMember(() => createReadStream(path.join(file, copy.name)), copy).catch((err) => fail(copy, err));
    }
  } else if (format === 'zip' && options.password !== undefined) {
    await withDecryptedMembers(file, options.password, async (members) => {
      for (const copy of copies) {
        if (!members.has(copy.name)) continue; // not found: said below
        wanted.delete(copy.name);
        await writeMember(() => members.open(copy.name), copy).catch((err) => fail(copy, err));
      }
    });
  } else if (format === 'zip') {
    await eachZipEntry(file, async (zip, entry) => {
      const member = zipMember(entry);
      const copy = wanted.get(member.name);
      if (!copy || member.kind === 'dir') return;
      wanted.delete(copy.name);
      await writeMember(() => zip.openReadStreamPromise(entry), copy).catch((err) => fail(copy, err));
    });
  } else {
    const writes: Promise<void>[] = [];
    // an own fault ends the walk at once: the rest of a tarball is not inflated for nothing
    const stop = new AbortController();
    let own: unknown = null;
    await walkTar(
      file,
      (entry) => {
        const copy = wanted.get(tarMember(entry).name);
        if (!copy || own !== null) return void entry.resume();
        wanted.delete(copy.name);
        const written = writeMember(() => entry as unknown as Readable, copy).catch((err) => fail(copy, err));
        writes.push(
          written.catch((err: unknown) => {
            own ??= err;
            stop.abort(err);
          }),
        );
      },
      stop.signal,
    ).catch(async (err: unknown) => {
      await Promise.all(writes);
      if (own !== null) throw own;
      // the tarball ends or breaks midway: the members not yet whole fail with it
      for (const copy of wanted.values()) failed.set(copy.name, (err as Error).message);
      throw err;
    });
    await Promise.all(writes);
    if (own !== null) throw own;
  }
  for (const copy of wanted.values())
    if (!failed.has(copy.name) && format !== 'folder') failed.set(copy.name, 'member not found in the archive');
  return failed;
}

/**
 * One small member read whole (collection metadata such as `client_info.json`), or null when absent or
 * unreadable; a zip's with its `password` when it has one (evidence/zip-password.ts).
 */
export async function readSmallMember(
  file: string,
  format: ArchiveFormat,
  name: string,
  password?: string,
  limit = 1024 * 1024,
): Promise<Buffer | null> {
  try {
    if (format === 'folder') {
      const st = await fs.stat(path.join(file, name));
      return st.isFile() && st.size <= limit ? await fs.readFile(path.join(file, name)) : null;
    }
    let found: Buffer | null = null;
    const collect = async (stream: Readable) => {
      const chunks: Buffer[] = [];
      let total = 0;
      for await (const chunk of stream) {
        total += (chunk as Buffer).length;
        if (total > limit) throw new Error(`${name}: larger than ${limit} bytes`);
        chunks.push(chunk as Buffer);
      }
      found = Buffer.concat(chunks);
    };
    if (format === 'zip' && password !== undefined) {
      await withDecryptedMembers(file, password, async (members) => {
        if (members.has(name)) await collect(members.open(name));
      });
    } else if (format === 'zip') {
      await eachZipEntry(file, async (zip, entry) => {
        if (found === null && zipEntryName(entry) === name) await collect(await zip.openReadStreamPromise(entry));
      });
    } else {
      const reads: Promise<void>[] = [];
      await walkTar(file, (entry) => {
        if (tarMember(entry).name === name) reads.push(collect(entry as unknown as Readable));
        else entry.resume();
      });
      await Promise.all(reads);
    }
    return found;
  } catch {
    return null;
  }
}
