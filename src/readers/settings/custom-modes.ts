/**
 * The custom modes files of Roo Code and Kilo Code, rows of the `settings` store: `settings/custom_modes.yaml`
 * under the extension's globalStorage folder (RooCodeInc/Roo-Code `src/shared/globalFileNames.ts`, written
 * by `src/core/config/CustomModesManager.ts`), and the JSON files of older versions, which Roo Code's
 * `src/utils/migrateSettings.ts` leaves in place: `settings/cline_custom_modes.json` (January to March 2025,
 * renamed by commit 8ad4fff) and `settings/custom_modes.json` (until May 2025, when commit 737bad6 moved to
 * YAML). Each holds `{customModes: [...]}`.
 *
 * YAML is read as CustomModesManager reads it (`parseYamlSafely`): a BOM dropped, the invisible and
 * typographic characters it cleans replaced as it replaces them (an editor's non-breaking space or smart
 * quote would otherwise break a file the agent reads), then parsed by the `yaml` package the extension uses.
 * One row per setting of each mode (shapes/custom-modes.ts), kind `custom_mode`, at the file's mtime:
 * `custom mode: customModes.<slug>.groups.command=* (from <file>, file mtime)`, with `setting_name` and
 * `setting_value`; `source_line` is the mode's place in the list, `source_seq` the setting's among the mode's.
 * A file that does not parse, or holds no `customModes` list, is one `parser:` row; an empty file or
 * `customModes: []` holds no mode and gives no row.
 */
import { promises as fs } from 'node:fs';
import { parseDocument } from 'yaml';
import type { Row, Source } from '../../core/row.js';
import { readJsonFile } from '../parse/json-file.js';
import { readTextFile } from '../parse/text-file.js';
import { customModeItems } from '../shapes/custom-modes.js';
import { homePath } from '../common/home-path.js';
import { parserRow, rowFor } from '../common/rows.js';
import { plainObject, show } from '../common/values.js';

/** A custom modes file's format, by its path under the store root; null for any other file. */
export function customModesFormat(relative: string): 'yaml' | 'json' | null {
  if (relative === 'settings/custom_modes.yaml') return 'yaml';
  if (relative === 'settings/custom_modes.json' || relative === 'settings/cline_custom_modes.json') return 'json';
  return null;
}

/** What CustomModesManager's cleanInvisibleCharacters replaces, and with what. */
// the zero-width joiners as alternatives, not in a class: a class would join them to their neighbours
const CLEANED = /\u200B|\u200C|\u200D|[\u00A0\u2010-\u2015\u2212\u2018\u2019\u201C\u201D]/g;

function cleaned(text: string): string {
  return text.replace(CLEANED, (c) => {
    if (c === '\u00A0') return ' ';
    if (c === '\u200B' || c === '\u200C' || c === '\u200D') return '';
    if (c === '\u2018' || c === '\u2019') return "'";
    if (c === '\u201C' || c === '\u201D') return '"';
    return '-';
  });
}

type Parsed = { ok: true; value: unknown; repair: string | null } | { ok: false; message: string };

/** The YAML document of a file as the extension parses it; its first error when it has any. */
function readYaml(file: string): Parsed {
  const read = readTextFile(file);
  if (!read.ok) return read;
  try {
    const doc = parseDocument(cleaned(read.text));
    if (doc.errors.length > 0) {
      const more = doc.errors.length > 1 ? ` (${doc.errors.length} errors)` : '';
      return { ok: false, message: `not YAML${more}: ${doc.errors[0].message.split('\n')[0]}` };
    }
    // toJS bounds alias expansion (maxAliasCount 100, the package's default): a "billion laughs" file throws
    return { ok: true, value: doc.toJS(), repair: read.repair };
  } catch (err) {
    return { ok: false, message: `not YAML: ${(err as Error).message}` };
  }
}

/** Rows of one custom modes file. */
export async function* customModesFileRows(source: Source, file: string, format: 'yaml' | 'json'): AsyncGenerator<Row> {
  const parsed = format === 'yaml' ? readYaml(file) : await readJsonFile(file);
  if (!parsed.ok) {
    yield parserRow(source, file, null, parsed.message);
    return;
  }
  if (parsed.repair) yield parserRow(source, file, null, parsed.repair);
  // an empty YAML document: the extension reads it as no modes
  if (parsed.value === null || parsed.value === undefined) return;
  const document = plainObject(parsed.value);
  if (document === null || !('customModes' in document)) {
    yield parserRow(source, file, null, 'no customModes list');
    return;
  }
  const mtimeMs = await fs.stat(file).then(
    (st) => Math.trunc(st.mtimeMs),
    () => null,
  );
  const from = homePath(source, file);
  let seq = 0;
  let lastMode: number | null = null;
  for (const item of customModeItems(document.customModes)) {
    if (item.mode !== lastMode) [seq, lastMode] = [0, item.mode];
    if ('problem' in item) {
      yield parserRow(source, file, item.mode, item.problem);
      continue;
    }
    const value = show(item.value);
    yield rowFor(source, file, {
      source_line: item.mode,
      source_seq: seq++,
      timestamp_utc: mtimeMs,
      timestamp_source: 'file_mtime',
      turn_type: 'system',
      kind: 'custom_mode',
      text: `custom mode: ${item.key}=${value} (from ${from}, file mtime)`,
      setting_name: item.key,
      setting_value: value,
    });
  }
}
