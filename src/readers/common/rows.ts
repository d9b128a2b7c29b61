/**
 * The helpers that stamp provenance on a row, so no reader writes host, home, user or source_file by hand,
 * the `parser:` rows of bad input, and the per-file guard every reader runs its files under.
 */
import { rethrowOwnFault } from '../../core/own-fault.js';
import { imagePath, type Row, type RowFields, type Source, type TimestampSource } from '../../core/row.js';
import { cutAtBoundary, shortenAtTokenBoundary, safeJsonMessage } from '../parse/quote.js';
import { holdsElided } from '../parse/base64-elision.js';

/** Longest text kept in one row, in UTF-16 code units; longer texts are cut and marked. */
export const MAX_TEXT_CHARS = 8 * 1024 * 1024;

/** The farthest a cut goes back to a token boundary (longer than any token a detector knows). */
const MAX_CUT_BACK = 64 * 1024;

/** Cuts a text longer than MAX_TEXT_CHARS at a token boundary (readers/parse/quote.ts) and says how long it was. */
export function capText(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  if (text.length <= MAX_TEXT_CHARS) return text;
  return `${cutAtBoundary(text, MAX_TEXT_CHARS, MAX_CUT_BACK)} [cut: ${text.length} characters in all]`;
}

/**
 * Whether rows built from a value whose base64 payloads were elided (parse/base64-elision.ts) must be
 * built again from the value as written: a row holds an elided payload, or a text was cut at
 * MAX_TEXT_CHARS (its `[cut: N characters in all]` counted the shorter text).
 */
export function needsOriginal(rows: readonly Row[]): boolean {
  return rows.some((r) => holdsElided(r) || r.text?.endsWith(' characters in all]') === true);
}

/** A row with its provenance filled in from the source (Dissect's `_target`). */
export function rowFor(source: Source, file: string, fields: RowFields): Row {
  return {
    host: source.host,
    store: source.store,
    home: source.home,
    user: source.user,
    client: source.client,
    agent: fields.agent ?? source.agent,
    source_file: imagePath(source, file),
    source_line: fields.source_line ?? null,
    source_seq: fields.source_seq ?? 0,
    source_role: source.role,
    timestamp_utc: fields.timestamp_utc ?? null,
    timestamp_source: timestampSourceOf(fields),
    session_id: fields.session_id ?? null,
    project_path: fields.project_path ?? null,
    git_branch: fields.git_branch ?? null,
    turn_type: fields.turn_type,
    kind: fields.kind,
    model: fields.model ?? null,
    provider: fields.provider ?? null,
    tool_name: fields.tool_name ?? null,
    tool_use_id: fields.tool_use_id ?? null,
    text: capText(fields.text),
    tokens_in: fields.tokens_in ?? null,
    tokens_out: fields.tokens_out ?? null,
    cost_usd: fields.cost_usd ?? null,
    is_error: fields.is_error ?? null,
    file_row: null,
    permission_mode: fields.permission_mode ?? null,
    sync_target: fields.sync_target ?? null,
    session_origin: fields.session_origin ?? null,
    imported_from: fields.imported_from ?? null,
    setting_name: fields.setting_name ?? null,
    setting_value: fields.setting_value ?? null,
    parent_session_id: fields.parent_session_id ?? null,
  };
}

/** A row's timestamp_source: the reader's word for a dated row (recorded unless it says otherwise), null for an undated one. */
function timestampSourceOf(fields: RowFields): TimestampSource | null {
  if (fields.timestamp_utc === null || fields.timestamp_utc === undefined) return null;
  return fields.timestamp_source ?? 'recorded';
}

/**
 * The `parser:` system row for a file, line or record that could not be read.
 * Text: `parser: <image-relative file>[ line N]: <problem>`; the problem is cut to 300 characters at a
 * token boundary, and the quote of V8's JSON.parse messages too (readers/parse/quote.ts), so no part of a key
 * survives a cut.
 */
export function parserRow(
  source: Source,
  file: string,
  line: number | null,
  problem: string,
  fields: Partial<RowFields> = {},
): Row {
  const rel = imagePath(source, file) || '.';
  const where = line === null ? rel : `${rel} line ${line}`;
  const short = shortenAtTokenBoundary(safeJsonMessage(problem), 300);
  return rowFor(source, file, {
    ...fields,
    source_line: line,
    turn_type: 'system',
    kind: 'parser',
    text: `parser: ${where}: ${short}`,
    is_error: true,
  });
}

/**
 * The `parser:` row of a file whose reading threw, so that the throw costs that file only: the rows it
 * gave stay, the rest of it is not read, every other file of the store is. A reader wraps each file in a
 * guard (guardFile, eachFile) that yields this row. Readers do not throw for bad input and bound their walks over nested
 * values (settings-permissions.ts, credentials.ts; JSON.stringify is caught in values.ts `show`), so
 * this is the net under a walk or a bug that slipped through, never the way bad input is reported.
 * An own fault (core/own-fault.ts) is thrown on.
 */
export function fileFailedRow(source: Source, file: string, err: unknown): Row {
  rethrowOwnFault(err);
  const message = err instanceof Error ? err.message : String(err);
  const why = err instanceof RangeError ? `nested too deeply to read (${message})` : `reading failed (${message})`;
  return parserRow(source, file, null, `${why}; the rest of the file not read`);
}

/** The rows of one file; a throw while they are read ends them with the file's fileFailedRow. */
export async function* guardFile(source: Source, file: string, rows: AsyncIterable<Row> | Iterable<Row>): AsyncGenerator<Row> {
  try {
    yield* rows;
  } catch (err) {
    yield fileFailedRow(source, file, err);
  }
}

/** A reader that reads every file of its source with `readFile`, in order, each under guardFile. */
export function eachFile(readFile: (source: Source, file: string) => AsyncIterable<Row> | Iterable<Row>): Reader {
  return async function* (source: Source): AsyncIterable<Row> {
    for (const file of source.files) yield* guardFile(source, file, readFile(source, file));
  };
}

/** A reader: one source in, rows out, in file order. Never throws for bad input. */
export type Reader = (source: Source) => AsyncIterable<Row>;
