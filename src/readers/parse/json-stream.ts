/**
 * Streaming JSON: the values at chosen paths of one JSON document, yielded while the file is read,
 * so a transcript of several GB never becomes one string (V8 refuses strings over 512 MiB) or one array.
 * The transcripts' arrays take the fast path (readers/parse/json-elements.ts); everything else, and whatever the
 * fast path gives up on, @streamparser/json (measured in ../shared/feasibility.md).
 */
import { JSONParser } from '@streamparser/json';
import { readChunks } from '../../evidence/file-chunks.js';
import { ArraySplitter, type Element } from './json-elements.js';
import { Utf8Repair } from './utf8-repair.js';

/** A value found at one of the requested paths, or the problem that ended the document. */
export type JsonEvent =
  | {
      type: 'value';
      key: string | number | undefined;
      value: unknown;
      /** With `elideBase64`: the value as written, present only when `value` had base64 payloads elided (parse/base64-elision.ts). */
      original?: () => unknown;
    }
  | { type: 'error'; message: string; valuesBefore: number };

export interface StreamOptions {
  /**
   * Cut base64 payloads out of the fast path's elements before parsing (parse/base64-elision.ts); a value
   * that had any comes with `original`. For readers that keep none of them and check their rows for ELIDED.
   * CLINETRAIL_NO_ELISION=1 turns it off (the tests compare a fleet's tables both ways).
   */
  elideBase64?: boolean;
}

/**
 * Yields the values at `paths` (`$.*` on a root array, `$.messages.*` on a root object, or any path
 * @streamparser/json takes) in document order; each value's key is its index. The two common paths take
 * the fast path (readers/parse/json-elements.ts: elements split by a byte scanner, parsed by `JSON.parse`).
 * When the fast path meets anything it cannot vouch for, the file is read again by the token parser
 * (`streamJsonTokens`), skipping the values already yielded, so the result and the error are the token
 * parser's. A truncated array is the exception: the fast path yields every complete element and reports
 * the truncation itself. Errors are one `error` event that ends the stream, as in `streamJsonTokens`.
 */
export async function* streamJson(
  file: string,
  paths: string[],
  expectRoot: '[' | '{',
  options: StreamOptions = {},
): AsyncGenerator<JsonEvent> {
  const key = fastPathKey(paths, expectRoot);
  let yielded = 0;
  if (key !== undefined) {
    const splitter = new ArraySplitter(key, options.elideBase64 === true && process.env.CLINETRAIL_NO_ELISION !== '1');
    const utf8 = new Utf8Repair();
    const stream = readChunks(file);
    let first = true;
    let end: { values: Element[]; truncated: boolean } | null = null;
    try {
      for await (const raw of stream) {
        let chunk = utf8.push(raw as Buffer);
        if (first && chunk.length > 0) {
          chunk = stripBom(chunk);
          first = false;
        }
        for (const e of splitter.push(chunk)) yield valueEvent(yielded++, e);
        if (splitter.giveUp !== null) break;
      }
      if (splitter.giveUp === null) {
        for (const e of splitter.push(first ? stripBom(utf8.end()) : utf8.end())) yield valueEvent(yielded++, e);
        end = splitter.end();
        for (const e of end.values) yield valueEvent(yielded++, e);
      }
    } catch (err) {
      yield { type: 'error', message: `read error: ${(err as Error).message}`, valuesBefore: yielded };
      return;
    } finally {
      await stream.return(undefined);
    }
    if (end !== null && splitter.giveUp === null) {
      const repaired =
        utf8.repaired > 0
          ? `${utf8.repaired} invalid UTF-8 byte sequence(s) read as U+FFFD, first at byte ${utf8.firstAt}`
          : null;
      if (end.truncated) {
        yield {
          type: 'error',
          message: `file ends inside the JSON document (truncated)${repaired ? `; ${repaired}` : ''}`,
          valuesBefore: yielded,
        };
      } else if (repaired) yield { type: 'error', message: repaired, valuesBefore: yielded };
      return;
    }
  }
  let seen = 0;
  for await (const event of streamJsonTokens(file, paths, expectRoot)) {
    if (event.type === 'value' && seen++ < yielded) continue;
    yield event.type === 'error' ? { ...event, valuesBefore: Math.max(event.valuesBefore, yielded) } : event;
  }
}

/** The event of the fast path's `index`-th element; `original` only when payloads were elided from it. */
function valueEvent(index: number, e: Element): JsonEvent {
  return e.original === null
    ? { type: 'value', key: index, value: e.value }
    : { type: 'value', key: index, value: e.value, original: e.original };
}

/** The array the fast path splits: null for the root array, a key of the root object, undefined for none. */
function fastPathKey(paths: string[], expectRoot: '[' | '{'): string | null | undefined {
  if (paths.length !== 1) return undefined;
  if (paths[0] === '$.*' && expectRoot === '[') return null;
  if (paths[0] === '$.messages.*' && expectRoot === '{') return 'messages';
  return undefined;
}

/**
 * The token parser alone (@streamparser/json): yields the values at `paths` (JSONPath subset, e.g. `$.*`,
 * `$.messages.*`) in document order. The root must open with `expectRoot` (`[` or `{`), after an optional UTF-8 BOM and
 * whitespace; otherwise, and on any syntax error, truncation or read error, one `error` event ends it.
 * Invalid UTF-8 bytes are read as U+FFFD (the parser would otherwise stop at the first one and lose every
 * later record) and reported by one `error` event after the last value.
 */
export async function* streamJsonTokens(file: string, paths: string[], expectRoot: '[' | '{'): AsyncGenerator<JsonEvent> {
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
  const stream = readChunks(file);
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
          yield {
            type: 'error',
            message: `expected a JSON ${expectRoot === '[' ? 'array' : 'object'}, found ${describeByte(chunk[first])}`,
            valuesBefore: 0,
          };
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
    await stream.return(undefined);
  }
  const tail = utf8.end();
  if (tail.length > 0) {
    if (!started) {
      yield {
        type: 'error',
        message: `expected a JSON ${expectRoot === '[' ? 'array' : 'object'}, found invalid UTF-8`,
        valuesBefore: 0,
      };
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
    yield {
      type: 'error',
      message: `${utf8.repaired} invalid UTF-8 byte sequence(s) read as U+FFFD, first at byte ${utf8.firstAt}`,
      valuesBefore: count,
    };
  }
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
