/**
 * Whole-file JSON for the small stores (settings, manifests, task_metadata, sync queue): one parse of a
 * file read whole under text-file.ts's size bound, so a hostile file of any size costs one `parser:` row.
 */
import { MAX_TEXT_FILE_BYTES, readTextFile } from './text-file.js';

/**
 * The parsed value, or why there is none. `repair` says what was mended to parse it (invalid UTF-8
 * bytes read as U+FFFD): the caller keeps the value and adds one `parser:` row with that text.
 */
export type JsonFileResult = { ok: true; value: unknown; repair: string | null } | { ok: false; message: string };

/** Reads and parses one JSON file (UTF-8 BOM allowed); never throws. */
export async function readJsonFile(file: string, maxBytes = MAX_TEXT_FILE_BYTES): Promise<JsonFileResult> {
  const read = readTextFile(file, maxBytes);
  if (!read.ok) return read;
  if (read.text.trim() === '') return { ok: false, message: 'empty file' };
  try {
    return { ok: true, value: JSON.parse(read.text), repair: read.repair };
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
}
