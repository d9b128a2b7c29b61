/**
 * Git's delta format (gitformat-pack "Deltified representation"): a pack entry of type OFS_DELTA or
 * REF_DELTA holds, inflated, the base's size, the result's size, and copy / insert instructions.
 */
import { MAX_OBJECT_BYTES } from './git-object.js';

/** A size varint of a delta's header: 7 bits a byte, least significant first. */
function readSize(delta: Buffer, at: number): { value: number; next: number } {
  let value = 0;
  let scale = 1;
  let i = at;
  for (;;) {
    if (i >= delta.length) throw new Error('git delta: header cut short');
    const c = delta[i++];
    value += (c & 0x7f) * scale;
    scale *= 128;
    if ((c & 0x80) === 0) break;
    if (scale > 2 ** 49) throw new Error('git delta: size too large');
  }
  return { value, next: i };
}

/** The object `delta` makes of `base`; throws `git delta: ...` when it does not fit the base or its own sizes. */
export function applyDelta(base: Buffer, delta: Buffer): Buffer {
  const source = readSize(delta, 0);
  if (source.value !== base.length) throw new Error(`git delta: made for a base of ${source.value} bytes, not ${base.length}`);
  const target = readSize(delta, source.next);
  if (target.value > MAX_OBJECT_BYTES)
    throw new Error(`git delta: result of ${target.value} bytes is larger than ${MAX_OBJECT_BYTES}`);
  const out = Buffer.allocUnsafe(target.value);
  let o = 0;
  let i = target.next;
  while (i < delta.length) {
    const op = delta[i++];
    if (op & 0x80) {
      let offset = 0;
      let size = 0;
      for (let b = 0; b < 4; b++) {
        if (op & (1 << b)) {
          if (i >= delta.length) throw new Error('git delta: copy instruction cut short');
          offset += delta[i++] * 2 ** (8 * b);
        }
      }
      for (let b = 0; b < 3; b++) {
        if (op & (0x10 << b)) {
          if (i >= delta.length) throw new Error('git delta: copy instruction cut short');
          size += delta[i++] << (8 * b);
        }
      }
      if (size === 0) size = 0x10000;
      if (offset + size > base.length || o + size > out.length) throw new Error('git delta: copy out of bounds');
      base.copy(out, o, offset, offset + size);
      o += size;
    } else if (op !== 0) {
      if (i + op > delta.length || o + op > out.length) throw new Error('git delta: insert out of bounds');
      delta.copy(out, o, i, i + op);
      o += op;
      i += op;
    } else {
      throw new Error('git delta: reserved instruction 0');
    }
  }
  if (o !== out.length) throw new Error(`git delta: made ${o} bytes, its header says ${out.length}`);
  return out;
}
