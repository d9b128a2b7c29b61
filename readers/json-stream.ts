/**
 * Streaming JSON: the values at chosen paths of one JSON document, yielded while the file is read,
 * so a transcript of several GB never becomes one string (V8 refuses strings over 512 MiB) or one array.
 * Measured in ../shared/feasibility.md: @streamparser/json, about 250 MB/s and 130 MB RSS on 300 MB.
 */
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
 */
export async function* streamJson(
  file: string,
  paths: string[],
  expectRoot: '[' | '{',
): AsyncGenerator<JsonEvent> {
  const parser = new JSONParser({ paths, keepStack: false });
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
  try {
    for await (const raw of stream) {
      let chunk = raw as Buffer;
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
      if (ended) {
        if (firstNonSpace(chunk) !== -1) failure ??= 'data after the end of the JSON document';
      } else {
        try {
          parser.write(chunk);
        } catch (err) {
          failure ??= (err as Error).message;
        }
      }
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
  if (!started) {
    yield { type: 'error', message: 'empty file', valuesBefore: 0 };
    return;
  }
  if (!ended) {
    try {
      parser.end();
    } catch (err) {
      failure ??= (err as Error).message;
    }
    if (!ended) failure ??= 'file ends inside the JSON document (truncated)';
  }
  yield* pending;
  if (failure !== null) yield { type: 'error', message: failure, valuesBefore: count };
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
