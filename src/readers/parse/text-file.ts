/**
 * Whole small files as text (settings, manifests, custom modes): one read, with a size bound so a hostile
 * file of any size costs one `parser:` row, and invalid UTF-8 read as U+FFFD with a word that says so.
 */
import { closeSync, fstatSync, readFileSync } from 'node:fs';
import { openEvidence } from '../../evidence/file-chunks.js';

/** Largest file read whole, in bytes. Transcripts never come here: they are streamed. */
export const MAX_TEXT_FILE_BYTES = 64 * 1024 * 1024;

/**
 * The text (without a UTF-8 BOM), or why there is none. `repair` says what was mended to read it (invalid
 * UTF-8 bytes read as U+FFFD): the caller keeps the text and adds one `parser:` row with that text.
 */
export type TextFileResult = { ok: true; text: string; repair: string | null } | { ok: false; message: string };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');

/** Reads one file as UTF-8 text; never throws. Synchronous reads: evidence/file-chunks.ts says why. */
export function readTextFile(file: string, maxBytes = MAX_TEXT_FILE_BYTES): TextFileResult {
  try {
    const fd = openEvidence(file);
    try {
      const size = fstatSync(fd).size;
      if (size > maxBytes) return { ok: false, message: `file of ${size} bytes is larger than ${maxBytes}, not parsed` };
      const bytes = readFileSync(fd);
      let text: string;
      let repair: string | null = null;
      try {
        text = strictUtf8.decode(bytes);
      } catch {
        text = lenientUtf8.decode(bytes);
        repair = 'invalid UTF-8 bytes read as U+FFFD';
      }
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      return { ok: true, text, repair };
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
}
