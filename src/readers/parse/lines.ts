/**
 * Line-by-line reading of JSONL logs with a bound on line length, so a 1 GB line costs one `parser:`
 * row, not the process. Each line is parsed on its own, so one bad line never hides the next ones.
 */
import { isUtf8 } from 'node:buffer';
import { readChunks } from '../../evidence/file-chunks.js';
import { quoteText } from './quote.js';

/** Longest line kept, in bytes; longer lines are skipped and reported. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export type LineEvent = { type: 'line'; lineNo: number; text: string } | { type: 'error'; lineNo: number; message: string };

const decoder = new TextDecoder('utf-8');

/** Characters of a bad line quoted in its `parser:` row (plaso quotes 77). */
const QUOTED_CHARS = 77;

/**
 * A bad line as its `parser:` row quotes it: `"<line>"`, or `"<start>..." (<length> characters)` where the
 * start is at most 77 characters cut back to a token boundary, so no part of a key is kept (readers/parse/quote.ts).
 */
export function quoteLine(text: string): string {
  return quoteText(text, QUOTED_CHARS);
}

/**
 * Yields every non-empty line (CRLF or LF, UTF-8 BOM stripped) with its 1-based number. A line with
 * invalid UTF-8 is yielded with U+FFFD in place of the bad bytes, then followed by an `error` event of
 * the same number, so the repair is never silent.
 */
export async function* readLines(file: string, maxLineBytes = MAX_LINE_BYTES): AsyncGenerator<LineEvent> {
  const stream = readChunks(file);
  let parts: Buffer[] = [];
  let size = 0;
  let skipping = false;
  let lineNo = 0;
  let first = true;
  const finish = function* (): Generator<LineEvent> {
    lineNo += 1;
    if (skipping) {
      yield { type: 'error', lineNo, message: `line longer than ${maxLineBytes} bytes, skipped` };
    } else if (size > 0) {
      let buf = parts.length === 1 ? parts[0] : Buffer.concat(parts, size);
      if (first && buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) buf = buf.subarray(3);
      if (buf.length > 0 && buf[buf.length - 1] === 0x0d) buf = buf.subarray(0, buf.length - 1);
      const text = decoder.decode(buf);
      if (text.trim() !== '') {
        yield { type: 'line', lineNo, text };
        if (!isUtf8(buf)) yield { type: 'error', lineNo, message: 'invalid UTF-8 bytes, read as U+FFFD' };
      }
    }
    first = false;
    parts = [];
    size = 0;
    skipping = false;
  };
  try {
    for await (const raw of stream) {
      const chunk = raw as Buffer;
      let start = 0;
      while (start < chunk.length) {
        const nl = chunk.indexOf(0x0a, start);
        const end = nl === -1 ? chunk.length : nl;
        if (!skipping) {
          if (size + (end - start) > maxLineBytes) {
            skipping = true;
            parts = [];
            size = 0;
          } else if (end > start) {
            parts.push(chunk.subarray(start, end));
            size += end - start;
          }
        }
        if (nl === -1) break;
        yield* finish();
        start = nl + 1;
      }
    }
  } catch (err) {
    yield { type: 'error', lineNo: lineNo + 1, message: `read error: ${(err as Error).message}` };
    return;
  } finally {
    await stream.return(undefined);
  }
  if (size > 0 || skipping) yield* finish();
}
