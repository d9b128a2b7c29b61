/**
 * UTF-8 checking of a byte stream read in chunks, for the JSON readers: valid chunks pass through
 * untouched (one `isUtf8` call each); invalid bytes become U+FFFD and are counted, so the repair can be
 * reported, never silent.
 */
import { isUtf8 } from 'node:buffer';

/**
 * Streaming UTF-8 check: passes valid chunks through untouched (one `isUtf8` call), holds back a
 * sequence cut by the chunk end, and re-encodes a chunk with invalid bytes with U+FFFD in their place.
 */
export class Utf8Repair {
  repaired = 0;
  firstAt = -1;
  private carry: Buffer = Buffer.alloc(0);
  private offset = 0;
  push(raw: Buffer): Buffer {
    const chunk = this.carry.length > 0 ? Buffer.concat([this.carry, raw]) : raw;
    const cut = completeLength(chunk);
    this.carry = Buffer.from(chunk.subarray(cut));
    return this.check(chunk.subarray(0, cut));
  }
  end(): Buffer {
    const rest = this.carry;
    this.carry = Buffer.alloc(0);
    return rest.length === 0 ? rest : this.check(rest);
  }
  private check(body: Buffer): Buffer {
    const at = this.offset;
    this.offset += body.length;
    if (isUtf8(body)) return body;
    const text = new TextDecoder('utf-8').decode(body);
    let bad = 0;
    for (let i = text.indexOf('\ufffd'); i !== -1; i = text.indexOf('\ufffd', i + 1)) bad += 1;
    this.repaired += Math.max(1, bad);
    if (this.firstAt === -1) this.firstAt = at + firstInvalid(body);
    return Buffer.from(text, 'utf8');
  }
}

/** Length of `buf` without a trailing UTF-8 sequence the next chunk may complete. */
function completeLength(buf: Buffer): number {
  for (let i = buf.length - 1; i >= 0 && i >= buf.length - 4; i--) {
    const b = buf[i];
    if ((b & 0xc0) === 0x80) continue;
    const need = b >= 0xf5 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 ? 2 : 1;
    return i + need > buf.length ? i : buf.length;
  }
  return buf.length;
}

/** Offset of the first byte of `buf` where it stops being valid UTF-8 (approximate for a report). */
function firstInvalid(buf: Buffer): number {
  let lo = 0;
  let hi = buf.length;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (isUtf8(buf.subarray(0, completeLength(buf.subarray(0, mid))))) lo = mid;
    else hi = mid;
  }
  return lo;
}
