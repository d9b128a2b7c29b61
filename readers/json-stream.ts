/**
 * Streaming JSON: the values at chosen paths of one JSON document, yielded while the file is read,
 * so a transcript of several GB never becomes one string (V8 refuses strings over 512 MiB) or one array.
 * Measured in ../shared/feasibility.md: @streamparser/json, about 250 MB/s and 130 MB RSS on 300 MB.
 */
import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { JSONParser } from '@streamparser/json';

/** A value found at one of the requested paths, or the problem that ended the document. */
export type JsonEvent =
  | { type: 'value'; key: string | number | undefined; value: unknown }
  | { type: 'error'; message: string; valuesBefore: number };

/** Bytes read per chunk. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * Yields the values at `paths` (JSONPath subset of @streamparser/json, e.g. `$.*`, `$.messages.*`) in
 * document order. The root must open with `expectRoot` (`[` or `{`), after an optional UTF-8 BOM and
 * whitespace; otherwise, and on any syntax error, truncation or read error, one `error` event ends it.
 * Invalid UTF-8 bytes are read as U+FFFD (the parser would otherwise stop at the first one and lose every
 * later record) and reported by one `error` event after the last value.
 */
export async function* streamJson(
  file: string,
  paths: string[],
  expectRoot: '[' | '{',
): AsyncGenerator<JsonEvent> {
  // A 64 KiB string buffer is 1.5x faster than the default on text dense with non-ASCII characters.
  const parser = new JSONParser({ paths, keepStack: false, stringBufferSize: 64 * 1024 });
  let pending: JsonEvent[] = [];
  let failure: string | null = null;
  let count = 0;
  let started = false;
  let ended = false;
  parser.onValue = ({ value, key }) => {
    pending.push({ type: 'value', key: key as string | number | undefined, value });
    count += 1;
  };
  parser.onError = (err: Error) => {
    if (failure === null) failure = err.message;
  };
  parser.onEnd = () => {
    ended = true;
  };
  const stream = createReadStream(file, { highWaterMark: CHUNK_BYTES });
  const utf8 = new Utf8Repair();
  const feed = (chunk: Buffer): void => {
    if (ended) {
      if (firstNonSpace(chunk) !== -1) failure ??= 'data after the end of the JSON document';
      return;
    }
    try {
      parser.write(chunk);
    } catch (err) {
      failure ??= (err as Error).message;
    }
  };
  try {
    for await (const raw of stream) {
      let chunk = utf8.push(raw as Buffer);
      if (!started) {
        chunk = stripBom(chunk);
        const first = firstNonSpace(chunk);
        if (first === -1) continue;
        started = true;
        const c = String.fromCharCode(chunk[first]);
        if (c !== expectRoot) {
          yield { type: 'error', message: `expected a JSON ${expectRoot === '[' ? 'array' : 'object'}, found ${describeByte(chunk[first])}`, valuesBefore: 0 };
          return;
        }
      }
      feed(chunk);
      if (pending.length > 0) {
        const out = pending;
        pending = [];
        yield* out;
      }
      if (failure !== null) {
        yield { type: 'error', message: failure, valuesBefore: count };
        return;
      }
    }
  } catch (err) {
    yield* pending;
    yield { type: 'error', message: `read error: ${(err as Error).message}`, valuesBefore: count };
    return;
  } finally {
    stream.destroy();
  }
  const tail = utf8.end();
  if (tail.length > 0) {
    if (!started) {
      yield { type: 'error', message: `expected a JSON ${expectRoot === '[' ? 'array' : 'object'}, found invalid UTF-8`, valuesBefore: 0 };
      return;
    }
    feed(tail);
  }
  if (!started) {
    yield { type: 'error', message: 'empty file', valuesBefore: 0 };
    return;
  }
  if (!ended && failure === null) {
    try {
      parser.end();
    } catch (err) {
      failure ??= (err as Error).message;
    }
    if (!ended) failure ??= 'file ends inside the JSON document (truncated)';
  }
  yield* pending;
  if (failure !== null) yield { type: 'error', message: failure, valuesBefore: count };
  else if (utf8.repaired > 0) {
    yield { type: 'error', message: `${utf8.repaired} invalid UTF-8 byte sequence(s) read as U+FFFD, first at byte ${utf8.firstAt}`, valuesBefore: count };
  }
}

/**
 * Streaming UTF-8 check: passes valid chunks through untouched (one `isUtf8` call), holds back a
 * sequence cut by the chunk end, and re-encodes a chunk with invalid bytes with U+FFFD in their place.
 */
class Utf8Repair {
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
    const need = b >= 0xf0 && b <= 0xf4 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 ? 2 : 1;
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

function stripBom(chunk: Buffer): Buffer {
  return chunk.length >= 3 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf ? chunk.subarray(3) : chunk;
}

function firstNonSpace(chunk: Buffer): number {
  for (let i = 0; i < chunk.length; i++) {
    const b = chunk[i];
    if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) return i;
  }
  return -1;
}

function describeByte(b: number): string {
  return b >= 0x21 && b < 0x7f ? `'${String.fromCharCode(b)}'` : `byte 0x${b.toString(16).padStart(2, '0')}`;
}
