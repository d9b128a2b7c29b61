/**
 * The one row schema every reader yields (DESIGN.md "The row schema"), the source a reader is given,
 * and the helpers that stamp provenance on a row so no reader writes host, home or source_file by hand.
 */
import * as path from 'node:path';
import { rethrowOwnFault } from './own-fault.js';
import { cutAtBoundary, cutText, safeJsonMessage } from './quote.js';

/** Store ids: the `store=` partition values. A contract with analysts' saved queries. */
export type StoreId =
  | 'vscode-tasks'
  | 'cline-tasks'
  | 'sdk-sessions'
  | 'sessions-db'
  | 'search-index'
  | 'input-history'
  | 'hooks-log'
  | 'sync-queue'
  | 'settings'
  | 'credentials'
  | 'discovery';

export type SourceRole = 'primary' | 'secondary';

export type TurnType = 'user' | 'assistant' | 'thinking' | 'tool_use' | 'tool_result' | 'system';

/** One record of the timeline. Column names are the Parquet and SQL names. */
export interface Row {
  host: string;
  store: StoreId;
  /** Home folder inside the image, `/` separated, e.g. `C/Users/alice`. */
  home: string;
  /** Whose store: `vscode`, `cursor`, `vscode-server`, ..., or `cline` for `~/.cline/data`. */
  client: string;
  /** Path of the file relative to the image root, `/` separated. */
  source_file: string;
  /** 1-based position of the record in the file (array index + 1, line number, rowid, ordinal + 1). */
  source_line: number | null;
  /** 0-based position of the row among the rows of one record (content blocks of one message). */
  source_seq: number;
  source_role: SourceRole;
  /** Milliseconds since the Unix epoch, UTC; null where the source records no time. */
  timestamp_utc: number | null;
  session_id: string | null;
  project_path: string | null;
  git_branch: string | null;
  turn_type: TurnType;
  /** The source's own discriminator: `say:command`, `ask:tool`, `tool_use`, `model`, `parser`, ... */
  kind: string;
  model: string | null;
  provider: string | null;
  tool_name: string | null;
  tool_use_id: string | null;
  text: string | null;
  tokens_in: number | null;
  tokens_out: number | null;
  cost_usd: number | null;
  is_error: boolean | null;
}

/** One Cline store root found in a home, with the files of one store under it. */
export interface Source {
  host: string;
  store: StoreId;
  role: SourceRole;
  /** Absolute path of the host image root. */
  imageRoot: string;
  /** Home folder relative to the image root, `/` separated ('' when the image is the home). */
  home: string;
  client: string;
  /** Absolute path of the store root: `.../globalStorage/saoudrizwan.claude-dev` or `.../.cline/data`. */
  root: string;
  /** Absolute paths of the regular files of this store under `root`, sorted. */
  files: string[];
}

/** The fields a reader decides; provenance comes from the source and the file. */
export type RowFields = Partial<Omit<Row, 'host' | 'store' | 'home' | 'client' | 'source_file' | 'source_role'>> &
  Pick<Row, 'turn_type' | 'kind'>;

/** Longest text kept in one row, in UTF-16 code units; longer texts are cut and marked. */
export const MAX_TEXT_CHARS = 8 * 1024 * 1024;

let lastPath = { root: '', file: '', rel: '' };

/** Image-relative, `/`-separated path of an absolute path inside the image (the last answer is kept: rows come file by file). */
export function imagePath(source: Pick<Source, 'imageRoot'>, file: string): string {
  if (file !== lastPath.file || source.imageRoot !== lastPath.root) {
    lastPath = { root: source.imageRoot, file, rel: path.relative(source.imageRoot, file).split(path.sep).join('/') };
  }
  return lastPath.rel;
}

/** The farthest a cut goes back to a token boundary (longer than any token a detector knows). */
const MAX_CUT_BACK = 64 * 1024;

/** Cuts a text longer than MAX_TEXT_CHARS at a token boundary (readers/quote.ts) and says how long it was. */
export function capText(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  if (text.length <= MAX_TEXT_CHARS) return text;
  return `${cutAtBoundary(text, MAX_TEXT_CHARS, MAX_CUT_BACK)} [cut: ${text.length} characters in all]`;
}

/** A row with its provenance filled in from the source (Dissect's `_target`). */
export function rowFor(source: Source, file: string, fields: RowFields): Row {
  return {
    host: source.host,
    store: source.store,
    home: source.home,
    client: source.client,
    source_file: imagePath(source, file),
    source_line: fields.source_line ?? null,
    source_seq: fields.source_seq ?? 0,
    source_role: source.role,
    timestamp_utc: fields.timestamp_utc ?? null,
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
  };
}

/**
 * The `parser:` system row for a file, line or record that could not be read.
 * Text: `parser: <image-relative file>[ line N]: <problem>`; the problem is cut to 300 characters at a
 * token boundary, and the quote of V8's JSON.parse messages too (readers/quote.ts), so no part of a key
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
  const short = cutText(safeJsonMessage(problem), 300);
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
 * An own fault (readers/own-fault.ts) is thrown on.
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
