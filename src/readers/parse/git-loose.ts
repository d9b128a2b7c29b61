/**
 * Loose git objects: `objects/<2 hex>/<38 hex>`, each one zlib stream of `<type> <size>\0<content>`
 * (gitformat-loose). Read through evidence/file-chunks.ts `openEvidence` (read-only), never by git.
 * An object is checked as git checks it: the stream ends where the file ends, the size matches its
 * header, and the bytes hash to the id the file is named by.
 */
import { closeSync, fstatSync, readSync } from 'node:fs';
import { constants, inflateSync } from 'node:zlib';
import { openEvidence } from '../../evidence/file-chunks.js';
import { MAX_OBJECT_BYTES, type GitObject, type ObjectType, objectId, parseObjectHeader } from './git-object.js';

/** Largest loose object file read whole: zlib adds at most ~0.03% and a few bytes to what it cannot shrink. */
const MAX_DEFLATED_BYTES = MAX_OBJECT_BYTES + 64 * 1024;

/** Bytes read from the start of a loose object to learn its type; an object this small is read and checked whole. */
const HEAD_BYTES = 4096;

/** The object id a loose object's path names (`.../objects/ab/cdef...`), or null when it is no object's name. */
export function looseObjectId(relPath: string): string | null {
  const m = /(?:^|\/)objects\/([0-9a-f]{2})\/([0-9a-f]{38})$/.exec(relPath);
  return m === null ? null : m[1] + m[2];
}

/** The type of a loose object, or why it cannot be read. */
export type LooseType = { ok: true; type: ObjectType; size: number } | { ok: false; message: string };

/** The first `bytes` bytes of `file` and its size; no bytes when it is bigger than `refuseOver`. */
function readStart(file: string, bytes: number, refuseOver = Number.POSITIVE_INFINITY): { buf: Buffer; size: number } {
  const fd = openEvidence(file);
  try {
    const size = fstatSync(fd).size;
    if (size > refuseOver) return { buf: Buffer.alloc(0), size };
    const buf = Buffer.allocUnsafe(Math.min(size, bytes));
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    return { buf: buf.subarray(0, got), size };
  } finally {
    closeSync(fd);
  }
}

function zlibMessage(err: unknown): string {
  return `not a whole zlib stream (${(err as Error).message})`;
}

/**
 * The type and size of a loose object from the start of its file. A file of at most 4 KiB (every Cline
 * commit) is read and checked whole; a bigger one (a blob, say) only has its header inflated.
 */
export function looseObjectType(file: string, oid: string): LooseType {
  const { buf, size } = readStart(file, HEAD_BYTES);
  if (size === 0) return { ok: false, message: 'empty file' };
  if (size <= HEAD_BYTES) {
    const whole = checkLoose(buf, oid);
    return whole.ok ? { ok: true, type: whole.object.type, size: whole.object.content.length } : whole;
  }
  let head: Buffer;
  try {
    head = inflateSync(buf, { finishFlush: constants.Z_SYNC_FLUSH });
  } catch (err) {
    return { ok: false, message: zlibMessage(err) };
  }
  const header = parseObjectHeader(head);
  return typeof header === 'string' ? { ok: false, message: header } : { ok: true, type: header.type, size: header.size };
}

/** A loose object read whole and checked, or why not. */
export type LooseObject = { ok: true; object: GitObject } | { ok: false; message: string };

/** Reads a loose object whole (commits and trees only are asked for) and checks it; objects over MAX_OBJECT_BYTES are refused. */
export function readLooseObject(file: string, oid: string): LooseObject {
  const { buf, size } = readStart(file, MAX_DEFLATED_BYTES, MAX_DEFLATED_BYTES);
  if (size > MAX_DEFLATED_BYTES)
    return { ok: false, message: `file of ${size} bytes is larger than ${MAX_OBJECT_BYTES}, not read` };
  if (size === 0) return { ok: false, message: 'empty file' };
  return checkLoose(buf, oid);
}

function checkLoose(deflated: Buffer, oid: string): LooseObject {
  let inflated: { buffer: Buffer; engine: { bytesWritten: number } };
  try {
    inflated = inflateSync(deflated, { info: true, maxOutputLength: MAX_OBJECT_BYTES + 64 }) as unknown as typeof inflated;
  } catch (err) {
    if (err instanceof RangeError) return { ok: false, message: `inflates to more than ${MAX_OBJECT_BYTES} bytes, not read` };
    return { ok: false, message: zlibMessage(err) };
  }
  const used = inflated.engine.bytesWritten;
  if (used !== deflated.length) return { ok: false, message: `${deflated.length - used} bytes after the zlib stream` };
  const bytes = inflated.buffer;
  const header = parseObjectHeader(bytes);
  if (typeof header === 'string') return { ok: false, message: header };
  const content = bytes.subarray(header.headerBytes);
  if (content.length !== header.size) {
    return { ok: false, message: `${header.type} of ${content.length} bytes, but its header says ${header.size}` };
  }
  const actual = objectId(header.type, content);
  if (actual !== oid) return { ok: false, message: `${header.type} content hashes to ${actual}, not to its name` };
  return { ok: true, object: { type: header.type, content } };
}
