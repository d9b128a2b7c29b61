/**
 * Zips whose members are encrypted, with the traditional PKWARE cipher (ZipCrypto) or WinZip AES, read
 * with a password the load was given (`--zip-password-file`). yauzl lists them (names and sizes are not
 * encrypted) but cannot decrypt, so their members are read through zip.js: from the file at the offsets
 * it asks for (never loaded whole), each member streamed. The archive is only read, and the password is
 * never written anywhere.
 */
import { promises as fs } from 'node:fs';
import { Readable } from 'node:stream';
import { configure, type Entry, type FileEntry, Reader, ZipReader } from '@zip.js/zip.js';
import * as yauzl from 'yauzl';

// decryption and inflation on this thread: a worker per archive would cost more than the reads
configure({ useWebWorkers: false });

/** A zip file on disk, read at the offsets zip.js asks for. */
class FileSlices extends Reader<string> {
  private handle: fs.FileHandle | null = null;
  constructor(private readonly file: string) {
    super(file);
  }
  override async init(): Promise<void> {
    this.handle = await fs.open(this.file, 'r');
    this.size = (await this.handle.stat()).size;
  }
  override async readUint8Array(index: number, length: number): Promise<Uint8Array> {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await this.handle!.read(buffer, 0, length, index);
    return new Uint8Array(buffer.buffer, buffer.byteOffset, bytesRead);
  }
  async close(): Promise<void> {
    await this.handle?.close();
  }
}

/** An entry's name as archive.ts lists it (yauzl's decoding), so members are matched by the same name. */
function entryName(entry: Entry): string {
  const name = yauzl.getFileNameLowLevel(
    entry.filenameUTF8 ? 0x800 : 0,
    Buffer.from(entry.rawFilename),
    yauzl.parseExtraFields(Buffer.from(entry.rawExtraField)),
    false,
  );
  return name.endsWith('/') ? name.slice(0, -1) : name;
}

/** Runs `visit` on the zip's file entries by name; the file is closed after, whatever happens. */
async function withEntries<T>(file: string, visit: (entries: Map<string, FileEntry>) => Promise<T>): Promise<T> {
  const reader = new FileSlices(file);
  const zip = new ZipReader(reader);
  try {
    const entries = new Map<string, FileEntry>();
    for (const entry of await zip.getEntries()) if (!entry.directory) entries.set(entryName(entry), entry);
    return await visit(entries);
  } finally {
    await zip.close();
    await reader.close();
  }
}

/** The first of `passwords` that opens the encrypted member `name` (checked, not read), or null. */
export function passwordFor(file: string, name: string, passwords: readonly string[]): Promise<string | null> {
  return withEntries(file, async (entries) => {
    const entry = entries.get(name);
    if (!entry) return null;
    for (const password of passwords) {
      const opens = await entry.getData(new WritableStream(), { password, checkPasswordOnly: true }).then(
        () => true,
        () => false,
      );
      if (opens) return password;
    }
    return null;
  });
}

/** The file members of a zip opened with zip.js, each opened decrypted on demand. */
export interface DecryptedMembers {
  has(name: string): boolean;
  /**
   * A Node stream of the member's bytes, decrypted with the password and inflated (zip.js checks the
   * password and the CRC: a failure errors the stream). Opened when called: pipe it at once.
   */
  open(name: string): Readable;
}

/** Runs `visit` on the zip's members decrypted with `password`; the copying itself is archive.ts copyMembers', with its limits. */
export function withDecryptedMembers(
  file: string,
  password: string,
  visit: (members: DecryptedMembers) => Promise<void>,
): Promise<void> {
  return withEntries(file, (entries) =>
    visit({
      has: (name) => entries.has(name),
      open: (name) => {
        const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
        // a failure of getData aborts `writable`, which errors the stream read
        entries
          .get(name)!
          .getData(writable, { password })
          .catch(() => {});
        return Readable.fromWeb(readable as import('node:stream/web').ReadableStream<Uint8Array>);
      },
    }),
  );
}
