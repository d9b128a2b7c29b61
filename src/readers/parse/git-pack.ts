/**
 * Pack files (`objects/pack/pack-<id>.pack`, gitformat-pack): a `PACK` header, then each object as a
 * type-and-size header and a zlib stream, whole or as a delta on a base (OFS_DELTA: an earlier offset in
 * this pack; REF_DELTA: an object id, in this pack or elsewhere), then a SHA-1 of everything before.
 * Objects are found through their index (git-pack-index.ts) and read at their offset; an object ends
 * where the next one starts. Only commits, trees and the deltas they are made of are ever inflated.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, readSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { openEvidence, readChunks } from '../../evidence/file-chunks.js';
import { applyDelta } from './git-delta.js';
import { type GitObject, MAX_OBJECT_BYTES, type ObjectType } from './git-object.js';
import { findInIndex, idAt, type PackIndex } from './git-pack-index.js';

/** Longest delta chain followed: git's pack-objects caps its depth at 4095. */
export const MAX_DELTA_CHAIN = 5000;
/** Inflated delta bytes held at once while one chain is resolved. */
const MAX_CHAIN_BYTES = 64 * 1024 * 1024;
/** Resolved objects kept per pack, in bytes, so the trees of successive checkpoints are not resolved again. */
const CACHE_BYTES = 16 * 1024 * 1024;
const WINDOW_BYTES = 64 * 1024;

const TYPE_OF_KIND: Record<number, ObjectType> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };
const KIND_OF_TYPE: Record<ObjectType, number> = { commit: 1, tree: 2, blob: 3, tag: 4 };

export interface PackFile {
  /** Absolute path of the `.pack` file. */
  file: string;
  fd: number;
  size: number;
  index: PackIndex;
  /** Offsets in ascending order (index.offsets by index.byOffset). */
  sorted: Float64Array;
  window: { start: number; bytes: Buffer } | null;
  /** Object kinds learnt so far, by index position (0: not yet). */
  kinds: Uint8Array;
  cache: Map<number, GitObject>;
  cacheBytes: number;
}

/** Finds an object outside the chain being resolved: by id, in any pack or loose (git-odb.ts). */
export interface BaseLookup {
  type(oid: string, depth: number): ObjectType;
  object(oid: string, depth: number): GitObject;
}

interface EntryHeader {
  /** 1-4: commit, tree, blob, tag; 6: OFS_DELTA; 7: REF_DELTA. */
  kind: number;
  /** Inflated size of the entry's own data (a delta's size for a delta). */
  size: number;
  dataStart: number;
  baseOffset: number;
  baseId: string;
}

/** Opens a pack and checks its header against its index; throws `git pack: ...`. Close with closePack. */
export function openPack(file: string, index: PackIndex): PackFile {
  const fd = openEvidence(file);
  try {
    const size = fstatSync(fd).size;
    const pack: PackFile = {
      file,
      fd,
      size,
      index,
      sorted: Float64Array.from(index.byOffset, (i) => index.offsets[i]),
      window: null,
      kinds: new Uint8Array(index.count),
      cache: new Map(),
      cacheBytes: 0,
    };
    const head = readAt(pack, 0, 12);
    if (head.length < 12 || head.toString('latin1', 0, 4) !== 'PACK') throw new Error('git pack: no PACK header');
    const version = head.readUInt32BE(4);
    if (version !== 2 && version !== 3) throw new Error(`git pack: version ${version} is not read`);
    const count = head.readUInt32BE(8);
    if (count !== index.count) throw new Error(`git pack: holds ${count} objects, its index ${index.count}`);
    if (count > 0 && (pack.sorted[0] < 12 || pack.sorted[count - 1] >= size - 20)) {
      throw new Error('git pack: its index points outside it');
    }
    return pack;
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

export function closePack(pack: PackFile): void {
  closeSync(pack.fd);
}

/** Whether the pack's SHA-1 trailer matches its bytes and its index: null when it does, else why not. */
export async function packChecksumProblem(pack: PackFile): Promise<string | null> {
  const hash = createHash('sha1');
  let tail = Buffer.alloc(0);
  for await (const chunk of readChunks(pack.file)) {
    const joined = tail.length === 0 ? chunk : Buffer.concat([tail, chunk]);
    const keep = Math.min(20, joined.length);
    hash.update(joined.subarray(0, joined.length - keep));
    tail = Buffer.from(joined.subarray(joined.length - keep));
  }
  if (tail.length < 20) return 'pack shorter than its SHA-1 trailer';
  if (hash.digest('hex') !== tail.toString('hex')) return 'SHA-1 trailer does not match the pack bytes: the pack is damaged';
  if (tail.toString('hex') !== pack.index.packChecksum) return 'the pack is not the one its index was made for';
  return null;
}

function readAt(pack: PackFile, position: number, length: number): Buffer {
  const w = pack.window;
  if (w !== null && position >= w.start && position + length <= w.start + w.bytes.length) {
    return w.bytes.subarray(position - w.start, position - w.start + length);
  }
  const want = Math.max(0, Math.min(Math.max(length, WINDOW_BYTES), pack.size - position));
  const buf = Buffer.allocUnsafe(want);
  let got = 0;
  while (got < want) {
    const n = readSync(pack.fd, buf, got, want - got, position + got);
    if (n === 0) break;
    got += n;
  }
  const bytes = buf.subarray(0, got);
  if (want <= WINDOW_BYTES) pack.window = { start: position, bytes };
  return bytes.subarray(0, Math.min(length, got));
}

function entryHeader(pack: PackFile, offset: number): EntryHeader {
  const b = readAt(pack, offset, 32);
  let i = 0;
  const next = (): number => {
    if (i >= b.length) throw new Error(`git pack: object header at offset ${offset} cut short`);
    return b[i++];
  };
  let c = next();
  const kind = (c >> 4) & 7;
  let size = c & 15;
  let scale = 16;
  while (c & 0x80) {
    c = next();
    size += (c & 0x7f) * scale;
    scale *= 128;
    if (scale > 2 ** 53) throw new Error(`git pack: object size at offset ${offset} too large`);
  }
  const header: EntryHeader = { kind, size, dataStart: 0, baseOffset: -1, baseId: '' };
  if (kind === 6) {
    c = next();
    let back = c & 0x7f;
    while (c & 0x80) {
      c = next();
      back = (back + 1) * 128 + (c & 0x7f);
      if (back > offset) throw new Error(`git pack: delta at offset ${offset} points before the pack`);
    }
    if (back === 0 || back > offset) throw new Error(`git pack: delta at offset ${offset} has base offset -${back}`);
    header.baseOffset = offset - back;
  } else if (kind === 7) {
    if (i + 20 > b.length) throw new Error(`git pack: delta at offset ${offset} cut short`);
    header.baseId = b.toString('hex', i, i + 20);
    i += 20;
  } else if (TYPE_OF_KIND[kind] === undefined) {
    throw new Error(`git pack: object at offset ${offset} has unknown type ${kind}`);
  }
  header.dataStart = offset + i;
  return header;
}

/** 0-based place of an offset in pack order, or -1 when no object starts there. */
function ordinalOf(pack: PackFile, offset: number): number {
  let lo = 0;
  let hi = pack.sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (pack.sorted[mid] === offset) return mid;
    if (pack.sorted[mid] < offset) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** 1-based place of the object at index position `pos` among the pack's objects, in the order stored. */
export function packOrdinal(pack: PackFile, pos: number): number {
  return ordinalOf(pack, pack.index.offsets[pos]) + 1;
}

function positionAt(pack: PackFile, offset: number): number {
  const ordinal = ordinalOf(pack, offset);
  if (ordinal === -1) throw new Error(`git pack: no object starts at delta base offset ${offset}`);
  return pack.index.byOffset[ordinal];
}

/** The inflated data of one entry, bounded: it ends where the next object (or the trailer) starts. */
function inflateEntry(pack: PackFile, offset: number, header: EntryHeader): Buffer {
  if (header.size > MAX_OBJECT_BYTES)
    throw new Error(`git pack: object at offset ${offset} of ${header.size} bytes is larger than ${MAX_OBJECT_BYTES}, not read`);
  const ordinal = ordinalOf(pack, offset);
  const end = ordinal + 1 < pack.sorted.length ? pack.sorted[ordinal + 1] : pack.size - 20;
  const span = end - header.dataStart;
  if (span <= 0 || span > MAX_OBJECT_BYTES + 64 * 1024)
    throw new Error(`git pack: object at offset ${offset} spans ${span} bytes`);
  const deflated = readAt(pack, header.dataStart, span);
  let out: { buffer: Buffer; engine: { bytesWritten: number } };
  try {
    out = inflateSync(deflated, { info: true, maxOutputLength: Math.max(1, header.size) }) as unknown as typeof out;
  } catch (err) {
    throw new Error(`git pack: object at offset ${offset} is not a whole zlib stream (${(err as Error).message})`);
  }
  if (out.buffer.length !== header.size)
    throw new Error(
      `git pack: object at offset ${offset} inflates to ${out.buffer.length} bytes, its header says ${header.size}`,
    );
  if (out.engine.bytesWritten !== span)
    throw new Error(`git pack: ${span - out.engine.bytesWritten} bytes after the object at offset ${offset}`);
  return out.buffer;
}

/** The type of the object at index position `pos`, following its delta chain by headers only. */
export function packObjectType(pack: PackFile, pos: number, lookup: BaseLookup, depth = 0): ObjectType {
  const chain: number[] = [];
  let cur = pos;
  let kind = 0;
  for (let steps = 0; kind === 0; steps++) {
    if (depth + steps > MAX_DELTA_CHAIN) throw new Error(`git pack: delta chain longer than ${MAX_DELTA_CHAIN}`);
    if (pack.kinds[cur] !== 0) {
      kind = pack.kinds[cur];
      break;
    }
    chain.push(cur);
    const header = entryHeader(pack, pack.index.offsets[cur]);
    if (header.kind <= 4) kind = header.kind;
    else if (header.kind === 6) cur = positionAt(pack, header.baseOffset);
    else {
      const here = findInIndex(pack.index, header.baseId);
      if (here !== -1) cur = here;
      else kind = KIND_OF_TYPE[lookup.type(header.baseId, depth + steps + 1)];
    }
  }
  for (const p of chain) pack.kinds[p] = kind;
  return TYPE_OF_KIND[kind];
}

function remember(pack: PackFile, pos: number, object: GitObject): void {
  if (object.content.length > CACHE_BYTES / 4 || pack.cache.has(pos)) return;
  pack.cache.set(pos, object);
  pack.cacheBytes += object.content.length;
  for (const [key, old] of pack.cache) {
    if (pack.cacheBytes <= CACHE_BYTES) break;
    pack.cache.delete(key);
    pack.cacheBytes -= old.content.length;
  }
}

/** The object at index position `pos`, its deltas applied; its id is not checked here (git-odb.ts does). */
export function packObject(pack: PackFile, pos: number, lookup: BaseLookup, depth = 0): GitObject {
  const deltas: { pos: number; data: Buffer }[] = [];
  let held = 0;
  let cur = pos;
  let base: GitObject | null = null;
  for (let steps = 0; base === null; steps++) {
    if (depth + steps > MAX_DELTA_CHAIN) throw new Error(`git pack: delta chain longer than ${MAX_DELTA_CHAIN}`);
    const cached = pack.cache.get(cur);
    if (cached !== undefined) {
      base = cached;
      break;
    }
    const offset = pack.index.offsets[cur];
    const header = entryHeader(pack, offset);
    if (header.kind <= 4) {
      base = { type: TYPE_OF_KIND[header.kind], content: inflateEntry(pack, offset, header) };
      remember(pack, cur, base);
      break;
    }
    const data = inflateEntry(pack, offset, header);
    held += data.length;
    if (held > MAX_CHAIN_BYTES) throw new Error(`git pack: delta chain of more than ${MAX_CHAIN_BYTES} bytes`);
    deltas.push({ pos: cur, data });
    if (header.kind === 6) cur = positionAt(pack, header.baseOffset);
    else {
      const here = findInIndex(pack.index, header.baseId);
      if (here !== -1) cur = here;
      else base = lookup.object(header.baseId, depth + steps + 1);
    }
  }
  let object = base;
  for (let i = deltas.length - 1; i >= 0; i--) {
    object = { type: object.type, content: applyDelta(object.content, deltas[i].data) };
    remember(pack, deltas[i].pos, object);
  }
  return object;
}

/** The id (hex) of the object at index position `pos`. */
export function packObjectId(pack: PackFile, pos: number): string {
  return idAt(pack.index, pos);
}
