/**
 * Query results as an aligned text table, CSV or JSON lines, written as they come (block by block),
 * so a result of any size goes out in bounded memory. The rules (docs/CLI.md "Query output"):
 * - NULL is never an empty string: JSON null; in CSV an empty unquoted field (an empty string is `""`);
 *   in a table `∅`.
 * - Table cells are measured in display width (East Asian wide characters and emoji take two columns)
 *   and cut at a grapheme boundary to MAX_CELL columns with `…`; CSV and JSON are never cut. Line
 *   breaks and tabs in a cell print as a space and other control characters as their Unicode picture
 *   (␛), so evidence cannot move the terminal's cursor.
 * - A table is aligned on what it has seen: the widths of the first block of TABLE_BLOCK rows, and the
 *   header is printed again before a later block that needs wider columns.
 */
import stringWidth from 'string-width';
import { printable } from '../core/terminal-text.js';
import { type OutValue, outText } from '../warehouse/values.js';

export type OutputFormat = 'table' | 'csv' | 'json';

/** Widest cell of a table, in display columns. */
export const MAX_CELL = 100;
/** Rows a table aligns at once. */
export const TABLE_BLOCK = 1000;
/** What a table prints for NULL. */
export const TABLE_NULL = '∅';

/** Writes a result one block of rows at a time; each call returns the text to write. */
export interface ResultWriter {
  header(columns: readonly string[]): string;
  rows(rows: readonly OutValue[][]): string;
  end(): string;
}

function csvCell(value: OutValue): string {
  if (value === null) return '';
  const text = outText(value);
  return text === '' || /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvWriter(): ResultWriter {
  const line = (cells: readonly OutValue[]) => `${cells.map(csvCell).join(',')}\n`;
  return {
    header: (columns) => line(columns),
    rows: (rows) => rows.map(line).join(''),
    end: () => '',
  };
}

function jsonWriter(): ResultWriter {
  let names: readonly string[] = [];
  return {
    header: (columns) => {
      names = columns;
      return '';
    },
    rows: (rows) => rows.map((r) => `${JSON.stringify(Object.fromEntries(names.map((c, i) => [c, r[i] ?? null])))}\n`).join(''),
    end: () => '',
  };
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Widths of the graphemes seen (string-width segments its text again on each call: slow per grapheme). */
const graphemeWidths = new Map<string, number>();

/** Display width of a text: its length when it is printable ASCII. */
function width(text: string): number {
  return PRINTABLE_ASCII.test(text) ? text.length : stringWidth(text);
}

/** Display width of one grapheme, remembered (up to 10,000 of them). */
function graphemeWidth(grapheme: string): number {
  let w = graphemeWidths.get(grapheme);
  if (w === undefined) {
    w = width(grapheme);
    if (graphemeWidths.size >= 10_000) graphemeWidths.clear();
    graphemeWidths.set(grapheme, w);
  }
  return w;
}

/** Code units of a value looked at for one cell: a grapheme is rarely more than a few per column. */
export const CELL_UNITS = MAX_CELL * 8;

/**
 * What can join code points into one grapheme: combining marks (and variation selectors), format
 * characters (ZWJ, emoji tags), emoji modifiers, regional indicators, conjoining Hangul jamo. A text
 * without any is one grapheme per code point, iterated without Intl.Segmenter (~2.5 µs a grapheme). A
 * cell of such code points ends within 2 * MAX_CELL code units (each takes a column or two), so only
 * that much, and the code point after it, is looked at (the test costs ~70 ns a character).
 */
const JOINS = /[\p{M}\p{Cf}\p{Emoji_Modifier}\p{Regional_Indicator}\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff]/u;

/** The graphemes of a text, lazily: a cell stops at its first MAX_CELL columns. */
function* graphemes(text: string): Generator<string> {
  if (!JOINS.test(text.slice(0, 2 * MAX_CELL + 4))) yield* text;
  else for (const { segment } of segmenter.segment(text)) yield segment;
}

/**
 * A cell cut to MAX_CELL display columns at a grapheme boundary, with its width. `sliced`: the text is the
 * start of a longer one, so it is always cut, and before its last grapheme, which may be partial.
 */
function cut(text: string, sliced = false): { text: string; width: number } {
  if (PRINTABLE_ASCII.test(text)) {
    if (text.length <= MAX_CELL && !sliced) return { text, width: text.length };
    return { text: `${text.slice(0, MAX_CELL - 1)}…`, width: MAX_CELL };
  }
  let used = 0;
  let cutEnd = 0;
  let cutWidth = 0;
  let lastStart = 0;
  let index = 0;
  for (const segment of graphemes(text)) {
    const w = graphemeWidth(segment);
    if (used + w > MAX_CELL) return { text: `${text.slice(0, cutEnd)}…`, width: cutWidth + 1 };
    used += w;
    lastStart = index;
    index += segment.length;
    if (used <= MAX_CELL - 1) {
      cutEnd = index;
      cutWidth = used;
    }
  }
  if (!sliced) return { text, width: used };
  const kept = text.slice(0, Math.min(cutEnd, lastStart));
  return { text: `${kept}…`, width: width(kept) + 1 };
}

function tableCell(value: OutValue): { text: string; width: number } {
  if (value === null) return { text: TABLE_NULL, width: 1 };
  const text = outText(value);
  // a text of megabytes is sliced before it is scanned
  return text.length <= CELL_UNITS ? cut(printable(text)) : cut(printable(text.slice(0, CELL_UNITS)), true);
}

function tableWriter(): ResultWriter {
  let names: Array<{ text: string; width: number }> = [];
  let widths: number[] = [];
  let pending: Array<Array<{ text: string; width: number }>> = [];
  let count = 0;
  const line = (cells: ReadonlyArray<{ text: string; width: number }>) =>
    `${cells
      .map((c, i) => c.text + ' '.repeat(Math.max(0, widths[i] - c.width)))
      .join('  ')
      .trimEnd()}\n`;
  const headerLines = () => line(names) + line(widths.map((w) => ({ text: '-'.repeat(w), width: w })));
  // the first flush prints the header; a later one prints it again only if a column grew
  const flush = (): string => {
    if (pending.length === 0 && count > 0) return '';
    const grown = pending.reduce((ws, r) => ws.map((w, i) => Math.max(w, r[i].width)), widths);
    const again = count === 0 || grown.some((w, i) => w > widths[i]);
    widths = grown;
    const text = (again ? (count === 0 ? '' : '\n') + headerLines() : '') + pending.map(line).join('');
    count += pending.length;
    pending = [];
    return text;
  };
  return {
    header: (columns) => {
      names = columns.map((c) => cut(printable(c)));
      widths = names.map((n) => n.width);
      return '';
    },
    rows: (rows) => {
      let text = '';
      for (const row of rows) {
        pending.push(row.map(tableCell));
        if (pending.length >= TABLE_BLOCK) text += flush();
      }
      return text;
    },
    end: () => {
      const n = count + pending.length;
      const text = count === 0 || pending.length > 0 ? flush() : '';
      return `${text}(${n} row${n === 1 ? '' : 's'})\n`;
    },
  };
}

/** A writer of one format. */
export function resultWriter(format: OutputFormat): ResultWriter {
  return format === 'json' ? jsonWriter() : format === 'csv' ? csvWriter() : tableWriter();
}
