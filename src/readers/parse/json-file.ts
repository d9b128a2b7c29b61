/**
 * Whole-file JSON for the small stores (settings, manifests, task_metadata, sync queue): one parse,
 * with a size bound so a hostile file of any size costs one `parser:` row.
 */
import { closeSync, fstatSync, readFileSync } from 'node:fs';
import { openEvidence } from '../../evidence/file-chunks.js';

/** Largest file parsed whole, in bytes. Transcripts never come here: they are streamed. */
export const MAX_JSON_FILE_BYTES = 64 * 1024 * 1024;

/**
 * The parsed value, or why there is none. `repair` says what was mended to parse it (invalid UTF-8
 * bytes read as U+FFFD): the caller keeps the value and adds one `parser:` row with that text.
 */
export type JsonFileResult = { ok: true; value: unknown; repair: string | null } | { ok: false; message: string };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');

/** Reads and parses one JSON file (UTF-8 BOM allowed); never throws. Synchronous reads: evidence/file-chunks.ts says why. */
export async function readJsonFile(file: string, maxBytes = MAX_JSON_FILE_BYTES): Promise<JsonFileResult> {
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
      if (text.trim() === '') return { ok: false, message: 'empty file' };
      return { ok: true, value: JSON.parse(text), repair };
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
}
