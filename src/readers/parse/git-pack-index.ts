/**
 * Pack index files (`objects/pack/pack-<id>.idx`, gitformat-pack "pack-*.idx files"): which objects a
 * pack holds, sorted by id, and where each starts in the pack. Version 2 (git's default since 1.5.2)
 * and the original version 1. The index is checked by its SHA-1 trailer before it is used.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, readSync } from 'node:fs';
import { openEvidence } from '../../evidence/file-chunks.js';

/** Largest index read: 28 bytes an object, so about 9 million objects. */
export const MAX_INDEX_BYTES = 256 * 1024 * 1024;

export interface PackIndex {
  count: number;
  /** The object ids, 20 bytes each, in ascending order. */
  ids: Buffer;
  /** Start of each object in the pack, by its position in `ids`. */
  offsets: Float64Array;
  /** Positions in `ids` sorted by offset: the objects in the order the pack stores them. */
  byOffset: Uint32Array;
  /** The pack's own SHA-1 trailer, as the index records it (hex). */
  packChecksum: string;
}

const V2_MAGIC = 0xff744f63;

function readWhole(file: string): Buffer {
  const fd = openEvidence(file);
  try {
    const size = fstatSync(fd).size;
    if (size > MAX_INDEX_BYTES)
      throw new Error(`git pack index: file of ${size} bytes is larger than ${MAX_INDEX_BYTES}, not read`);
    const buf = Buffer.allocUnsafe(size);
    let got = 0;
    while (got < size) {
      const n = readSync(fd, buf, got, size - got, got);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/** The number of objects the fanout table says, after checking that it never decreases. */
function fanoutCount(buf: Buffer, at: number): number {
  let last = 0;
  for (let i = 0; i < 256; i++) {
    const n = buf.readUInt32BE(at + i * 4);
    if (n < last) throw new Error(`git pack index: fanout entry ${i} decreases`);
    last = n;
  }
  return last;
}

/** Reads and checks a pack index; throws `git pack index: ...` when it is not a whole, valid one. */
export function readPackIndex(file: string): PackIndex {
  const buf = readWhole(file);
  if (buf.length < 256 * 4 + 40) throw new Error(`git pack index: file of ${buf.length} bytes is too short`);
  const body = buf.subarray(0, buf.length - 20);
  const checksum = createHash('sha1').update(body).digest('hex');
  if (checksum !== buf.toString('hex', buf.length - 20))
    throw new Error('git pack index: SHA-1 trailer does not match its contents');
  const packChecksum = buf.toString('hex', buf.length - 40, buf.length - 20);
  const v2 = buf.readUInt32BE(0) === V2_MAGIC;
  let ids: Buffer;
  let offsets: Float64Array;
  if (v2) {
    const version = buf.readUInt32BE(4);
    if (version !== 2) throw new Error(`git pack index: version ${version} is not read`);
    const count = fanoutCount(buf, 8);
    const namesAt = 8 + 1024;
    const offsetsAt = namesAt + count * 24; // names, then a CRC-32 each
    const largeAt = offsetsAt + count * 4;
    if (largeAt + 40 > buf.length) throw new Error(`git pack index: ${count} objects do not fit in ${buf.length} bytes`);
    ids = buf.subarray(namesAt, namesAt + count * 20);
    offsets = new Float64Array(count);
    const larges = (buf.length - 40 - largeAt) / 8;
    if (!Number.isInteger(larges)) throw new Error('git pack index: the large offset table is cut short');
    for (let i = 0; i < count; i++) {
      const small = buf.readUInt32BE(offsetsAt + i * 4);
      if (small < 0x80000000) offsets[i] = small;
      else {
        const j = small & 0x7fffffff;
        if (j >= larges) throw new Error(`git pack index: object ${i} names large offset ${j} of ${larges}`);
        const big = buf.readBigUInt64BE(largeAt + j * 8);
        if (big > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`git pack index: object ${i} has offset ${big}`);
        offsets[i] = Number(big);
      }
    }
  } else {
    const count = fanoutCount(buf, 0);
    const entriesAt = 1024;
    if (entriesAt + count * 24 + 40 !== buf.length)
      throw new Error(`git pack index: ${count} objects do not fill ${buf.length} bytes`);
    ids = Buffer.allocUnsafe(count * 20);
    offsets = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      offsets[i] = buf.readUInt32BE(entriesAt + i * 24);
      buf.copy(ids, i * 20, entriesAt + i * 24 + 4, entriesAt + i * 24 + 24);
    }
  }
  const count = offsets.length;
  for (let i = 1; i < count; i++) {
    if (Buffer.compare(ids.subarray((i - 1) * 20, i * 20), ids.subarray(i * 20, i * 20 + 20)) >= 0) {
      throw new Error(`git pack index: object ids out of order at ${i}`);
    }
  }
  const byOffset = Uint32Array.from({ length: count }, (_, i) => i).sort((a, b) => offsets[a] - offsets[b]);
  return { count, ids, offsets, byOffset, packChecksum };
}

/** The position of `oid` (hex) in the index, or -1. */
export function findInIndex(index: PackIndex, oid: string): number {
  const key = Buffer.from(oid, 'hex');
  let lo = 0;
  let hi = index.count - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const c = Buffer.compare(index.ids.subarray(mid * 20, mid * 20 + 20), key);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The id (hex) at position `i` of the index. */
export function idAt(index: PackIndex, i: number): string {
  return index.ids.toString('hex', i * 20, i * 20 + 20);
}
