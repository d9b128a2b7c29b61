/**
 * The fast path of readers/parse/json-stream.ts: splits one JSON array (the root array, or the array under one
 * key of the root object) into its elements while the file is read, and hands the complete elements of
 * each chunk to V8's `JSON.parse` in one call. A byte scanner tracks only nesting depth and strings, and
 * jumps over string bodies with `indexOf`, so it touches few bytes of a transcript, which is mostly text.
 * Token-by-token parsers (@streamparser/json, the fallback) spend several times longer on the same bytes.
 *
 * The complete elements of a chunk are parsed in groups of about GROUP_BYTES, not in one call: a string of
 * more than 128 KiB goes to V8's large-object space, where decoding and parsing it cost several times the
 * CPU of the same bytes in small groups (docs/BENCHMARKS.md, "Behind the code").
 *
 * It checks only what it must to find the elements: `JSON.parse` checks each batch of elements, and the
 * rest of the document (the "skeleton", with the target array emptied) is parsed once at the end. On
 * anything unusual it gives up (`giveUp` is set) and the caller reads the file again with the token
 * parser, which says exactly what is wrong: wrong root, a syntax error, an element over MAX_ELEMENT_BYTES
 * (a giant string would otherwise be held whole several times), the key twice, a large skeleton.
 *
 * With `elide`, the base64 payloads of each batch are cut out before it is parsed (base64-elision.ts);
 * each element of such a batch comes with `original`, which parses the batch's own bytes again.
 */
import { elideBase64 } from './base64-elision.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * Bytes of elements parsed by one `JSON.parse`, at least: a group ends with the first element that takes
 * it to this size. Small enough that the group's text (UTF-16 once any character is not Latin-1) stays
 * under V8's 128 KiB large-object threshold unless one element alone is larger.
 */
export const GROUP_BYTES = 16 * 1024;

/** Bytes of elements held while waiting for the element's end; beyond it, the token parser takes over. */
export const MAX_ELEMENT_BYTES = 32 * 1024 * 1024;
/** Bytes outside the target array kept to check at the end. */
const MAX_SKELETON_BYTES = 1024 * 1024;
/** Longest key compared with the target key. */
const MAX_KEY_BYTES = 64;

/** One element of the array: its value, and the value as written when `value` had payloads elided. */
export interface Element {
  value: unknown;
  original: (() => unknown) | null;
}

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/**
 * Index of the quote that ends a string whose body starts at `from`, or -1 if `buf` ends first. `carried`
 * is the run of backslashes that ended the previous chunk inside the same string (only when from = 0).
 */
function stringEnd(buf: Buffer, from: number, carried: number): number {
  for (let j = buf.indexOf(QUOTE, from); j !== -1; j = buf.indexOf(QUOTE, j + 1)) {
    let k = j - 1;
    while (k >= from && buf[k] === BACKSLASH) k--;
    const run = j - 1 - k + (k < from ? carried : 0);
    if ((run & 1) === 0) return j;
  }
  return -1;
}

/** Backslashes at the end of `buf` inside a string whose body starts at `from`. */
function trailingBackslashes(buf: Buffer, from: number, carried: number): number {
  let k = buf.length - 1;
  while (k >= from && buf[k] === BACKSLASH) k--;
  return buf.length - 1 - k + (k < from ? carried : 0);
}

export class ArraySplitter {
  /** Why the fast path stopped, or null while it holds. */
  giveUp: string | null = null;
  /** Elements parsed so far. */
  count = 0;
  private readonly targetDepth: number;
  private depth = 0;
  private inString = false;
  private backslashes = 0;
  private target: 'before' | 'open' | 'closed' = 'before';
  private rootSeen = false;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skeleton: Buffer[] = [];
  private skeletonBytes = 0;
  private expectKey = false;
  private keyBytes: number[] | null = null;
  private lastKey: string | null = null;

  /**
   * `key` null: the elements of the root array; else of the array under `key` in the root object.
   * `elide`: cut base64 payloads out before parsing (base64-elision.ts).
   */
  constructor(
    private readonly key: string | null,
    private readonly elide = false,
  ) {
    this.targetDepth = key === null ? 1 : 2;
  }

  /** Scans one chunk (valid UTF-8, BOM removed) and returns the elements it completed. */
  push(buf: Buffer): Element[] {
    if (this.giveUp !== null) return [];
    const out: Element[] = [];
    const n = buf.length;
    let regionStart = this.target === 'open' ? 0 : -1;
    let skeletonStart = this.target === 'open' ? -1 : 0;
    /** Offsets of the commas between elements of the target array in this chunk, in order. */
    const commas: number[] = [];
    let i = 0;
    if (this.inString) {
      const end = stringEnd(buf, 0, this.backslashes);
      this.collectKey(buf, 0, end === -1 ? n : end);
      if (end === -1) {
        this.backslashes = trailingBackslashes(buf, 0, this.backslashes);
        i = n;
      } else {
        this.inString = false;
        this.endString();
        i = end + 1;
      }
    }
    for (; i < n && this.giveUp === null; i++) {
      const b = buf[i];
      if (b === QUOTE) {
        const keyHere = this.key !== null && this.depth === 1 && this.expectKey;
        if (keyHere) this.keyBytes = [];
        const end = stringEnd(buf, i + 1, 0);
        if (keyHere) this.collectKey(buf, i + 1, end === -1 ? n : end);
        if (end === -1) {
          this.inString = true;
          this.backslashes = trailingBackslashes(buf, i + 1, 0);
          break;
        }
        this.endString();
        i = end;
      } else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
        if (this.depth === 0) {
          if (this.rootSeen || b !== (this.key === null ? OPEN_ARRAY : OPEN_OBJECT)) this.giveUp = 'not the expected root';
          this.rootSeen = true;
          this.expectKey = true;
        }
        const opensTarget =
          this.key === null ? this.depth === 0 : this.depth === 1 && b === OPEN_ARRAY && this.lastKey === this.key;
        if (opensTarget) {
          if (this.target !== 'before') this.giveUp = `key "${this.key}" twice`;
          this.target = 'open';
          this.keepSkeleton(buf, skeletonStart, i + 1);
          skeletonStart = -1;
          regionStart = i + 1;
        }
        this.depth += 1;
      } else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) {
        this.depth -= 1;
        if (this.depth < 0) this.giveUp = 'unbalanced brackets';
        else if (this.target === 'open' && this.depth === this.targetDepth - 1) {
          if (b !== CLOSE_ARRAY) this.giveUp = 'unbalanced brackets';
          else this.flush(buf, regionStart, i, commas, out, true);
          this.target = 'closed';
          regionStart = -1;
          skeletonStart = i;
        }
      } else if (b === COMMA) {
        if (this.target === 'open' && this.depth === this.targetDepth) commas.push(i);
        else if (this.depth === 1) this.expectKey = true;
      } else if (b === COLON) {
        if (this.depth === 1) this.expectKey = false;
      } else if (this.depth === 0 && !isSpace(b)) this.giveUp = 'bytes outside the root';
    }
    if (this.giveUp !== null) return out;
    if (regionStart !== -1) {
      if (commas.length > 0) {
        const lastComma = commas.pop() as number;
        this.flush(buf, regionStart, lastComma, commas, out, false);
        regionStart = lastComma + 1;
      }
      this.hold(buf.subarray(regionStart));
    }
    if (skeletonStart !== -1) this.keepSkeleton(buf, skeletonStart, n);
    return out;
  }

  /**
   * At the end of the file: the elements a truncated file still completes, and whether it is
   * truncated. Sets `giveUp` when the document is not what the scanner can vouch for.
   */
  end(): { values: Element[]; truncated: boolean } {
    if (this.giveUp !== null) return { values: [], truncated: false };
    if (this.target === 'open') {
      const values: Element[] = [];
      const complete = !this.inString && this.depth === this.targetDepth;
      if (complete && this.pending.some((p) => p.some((b) => !isSpace(b)))) {
        const parsed = this.parse(Buffer.concat(this.pending), 1);
        if (parsed !== null) values.push(...parsed);
        this.giveUp = null;
      }
      return { values, truncated: true };
    }
    if (this.target === 'before' || this.depth !== 0 || this.inString) {
      this.giveUp = this.target === 'before' ? 'no target array' : 'truncated after the target array';
      return { values: [], truncated: false };
    }
    try {
      JSON.parse(Buffer.concat(this.skeleton).toString('utf8'));
    } catch (err) {
      this.giveUp = `outside the target array: ${(err as Error).message}`;
    }
    return { values: [], truncated: false };
  }

  /**
   * Parses held bytes + buf[from, to) into `out`: the elements between the `commas` (offsets in buf, in
   * [from, to)), in groups of about GROUP_BYTES (a closing `[]` gives none).
   */
  private flush(buf: Buffer, from: number, to: number, commas: number[], out: Element[], closing: boolean): void {
    const held = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    if (closing && commas.length === 0 && this.count === 0) {
      const bytes = held.length === 0 ? buf.subarray(from, to) : Buffer.concat([...held, buf.subarray(from, to)]);
      if (bytes.every(isSpace)) return;
    }
    let start = from;
    let elements = 0;
    for (let k = 0; k <= commas.length && this.giveUp === null; k++) {
      const end = k < commas.length ? commas[k] : to;
      elements += 1;
      if (k < commas.length && end - start < GROUP_BYTES) continue;
      const group = buf.subarray(start, end);
      const values = this.parse(start === from && held.length > 0 ? Buffer.concat([...held, group]) : group, elements);
      if (values !== null) for (const v of values) out.push(v);
      start = end + 1;
      elements = 0;
    }
  }

  private parse(bytes: Buffer, expected: number): Element[] | null {
    let values: unknown[];
    const elided = this.elide ? elideBase64(bytes) : null;
    try {
      values = JSON.parse(`[${(elided ?? bytes).toString('utf8')}]`) as unknown[];
    } catch (err) {
      this.giveUp = `element after #${this.count}: ${(err as Error).message}`;
      return null;
    }
    if (values.length !== expected) {
      this.giveUp = `empty element after #${this.count}`;
      return null;
    }
    this.count += values.length;
    if (elided === null) return values.map((value) => ({ value, original: null }));
    let originals: unknown[] | null = null;
    const originalAt = (i: number) => {
      originals ??= JSON.parse(`[${bytes.toString('utf8')}]`) as unknown[];
      return originals[i];
    };
    return values.map((value, i) => ({ value, original: () => originalAt(i) }));
  }

  private hold(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes > MAX_ELEMENT_BYTES) this.giveUp = `an element over ${MAX_ELEMENT_BYTES} bytes`;
  }

  private keepSkeleton(buf: Buffer, from: number, to: number): void {
    if (from === -1 || to <= from) return;
    this.skeleton.push(buf.subarray(from, to));
    this.skeletonBytes += to - from;
    if (this.skeletonBytes > MAX_SKELETON_BYTES) this.giveUp = `over ${MAX_SKELETON_BYTES} bytes outside the target array`;
  }

  private collectKey(buf: Buffer, from: number, to: number): void {
    if (this.keyBytes === null) return;
    for (let k = from; k < to && this.keyBytes.length <= MAX_KEY_BYTES; k++) this.keyBytes.push(buf[k]);
  }

  private endString(): void {
    if (this.keyBytes === null) return;
    this.lastKey = Buffer.from(this.keyBytes).toString('utf8');
    this.keyBytes = null;
    this.expectKey = false;
  }
}
