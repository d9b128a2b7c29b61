/**
 * What a tool call returns: structured content (JSON-safe values by the query output rules of
 * warehouse/values.ts: times as ISO 8601 UTC text, integers beyond 2^53 and wide DECIMALs as digit
 * strings) plus a short text rendering for clients that show text; or a tool error (isError) whose
 * text is one JSON object `{"error": {"kind", "message"}}`, so a model and a program can both read it.
 * Error messages are the query path's own one-line messages (warehouse/query-sandbox.ts queryError).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { DuckDBValue } from '@duckdb/node-api';
import { huntsNotRun } from '../hunt/findings-table.js';
import { CutText } from '../warehouse/capped-query.js';
import { type OutValue, outValue } from '../warehouse/values.js';
import { CallStopped } from './warehouse-calls.js';

/** Why a call failed: the sandbox refused the text, DuckDB failed it, a limit or the client stopped it, ... */
export type ErrorKind =
  | 'refused'
  | 'sql_error'
  | 'time_limit'
  | 'cancelled'
  | 'shutdown'
  | 'not_found'
  | 'no_warehouse'
  | 'internal';

/** What the server says where the `findings` table of `clinetrail hunt` is missing. */
export const HUNTS_NOT_RUN = huntsNotRun('OUT');

/**
 * A text argument without NUL characters: DuckDB's C interface ends a text at the first one, so a
 * NUL would make the statement run differ from the one checked and shown.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is the character refused
export const NO_NUL = /^[^\u0000]*$/;

/** A tool error result. */
export function toolError(kind: ErrorKind, message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: { kind, message } }) }] };
}

/** A thrown error as a tool error: its first line only, classified. */
export function errorAnswer(err: unknown): CallToolResult {
  if (err instanceof CallStopped) return toolError(err.reason, err.message);
  const message = (err instanceof Error ? err.message : String(err)).split('\n')[0];
  if (message.includes('nothing was run') || message.includes('Permission Error')) return toolError('refused', message);
  if (message.includes('no warehouse at')) return toolError('no_warehouse', message);
  if (/\bfindings\b.*does not exist/.test(message)) return toolError('sql_error', `${message} (${HUNTS_NOT_RUN})`);
  if (message.startsWith('query: ')) return toolError('sql_error', message);
  return toolError('internal', message);
}

/** A success: the structured content and its text rendering. */
export function toolAnswer(structured: Record<string, unknown>, text: string): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/** Runs a tool's body; anything it throws becomes a tool error, never a protocol error. One stderr line per call. */
export async function guarded(
  tool: string,
  log: (line: string) => void,
  body: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const t0 = Date.now();
  let result: CallToolResult;
  try {
    result = await body();
  } catch (err) {
    result = errorAnswer(err);
  }
  // the outcome only: never the arguments or the answer, which may quote evidence
  const outcome = result.isError ? (errorKindOf(result) ?? 'error') : 'ok';
  log(`clinetrail: mcp: ${tool}: ${outcome} in ${Date.now() - t0} ms`);
  return result;
}

/** The kind of a tool error made by toolError. */
function errorKindOf(result: CallToolResult): string | null {
  const first = result.content[0];
  if (first?.type !== 'text') return null;
  try {
    return (JSON.parse(first.text) as { error?: { kind?: string } }).error?.kind ?? null;
  } catch {
    return null;
  }
}

/** A text cut to `max` UTF-16 units, never between the two halves of a surrogate pair. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return `${text.slice(0, end)}…`;
}

/** Cells of a result as JSON values, long texts cut; counts the cells it cut. */
export class CellWriter {
  cellsCut = 0;
  constructor(private readonly maxCellChars: number) {}

  cell(value: DuckDBValue | CutText): OutValue {
    // DuckDB found its text longer than a cell (warehouse/capped-query.ts)
    if (value instanceof CutText) return this.cut(value.text);
    const out = outValue(value);
    if (typeof out === 'string') return this.cut(out);
    if (out === null || typeof out !== 'object') return out;
    const json = JSON.stringify(out);
    // a list or struct too long for one cell becomes its JSON text, cut
    return json.length > this.maxCellChars ? this.cut(json) : out;
  }

  private cut(text: string): string {
    if (text.length <= this.maxCellChars) return text;
    this.cellsCut += 1;
    return cutText(text, this.maxCellChars);
  }
}

/** Characters of a cell in the text rendering. */
const TEXT_CELL = 60;
/** Rows in the text rendering; the structured content has them all. */
export const TEXT_ROWS = 20;

/** One cell on one line: line breaks and control characters as spaces, cut at TEXT_CELL. */
function textCell(value: OutValue): string {
  const text = value === null ? 'NULL' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
  return cutText(text.replace(/[\u0000-\u001f\u007f]+/g, ' '), TEXT_CELL);
}

/** The first TEXT_ROWS rows as `a | b | c` lines under a header line. */
export function textTable(columns: readonly string[], rows: readonly OutValue[][]): string {
  const lines = [columns.join(' | '), ...rows.slice(0, TEXT_ROWS).map((row) => row.map(textCell).join(' | '))];
  if (rows.length > TEXT_ROWS) lines.push(`... ${rows.length - TEXT_ROWS} more row(s) in the structured content`);
  return lines.join('\n');
}
