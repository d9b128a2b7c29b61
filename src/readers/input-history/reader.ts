/**
 * `input-history` store: the CLI's up-arrow prompt history `~/.cline/data/cache/user_input_history.jsonl`
 * (store specification "CLI prompt history", "Past-use rows and secondary sources"; cline-formats §4.1).
 *
 * Lines are `{"prompt": <string>, "ts": <epoch ms>}`, oldest first, and the CLI stamps every line with
 * the time of its last rewrite, so only the last line's ts is its own prompt's time. One `input_history`
 * user row per line, with no session or project; the last line keeps its ts, the others are undated,
 * and when the file has any bad line every row is undated (the last line read may not be the newest).
 */
import type { Row, RowFields, Source } from '../../core/row.js';
import type { Reader } from '../common/rows.js';
import { eachFile, parserRow, rowFor } from '../common/rows.js';
import { quoteLine, readLines } from '../parse/lines.js';
import { epochMs } from '../common/values.js';

/** Lines kept per file before the rest is reported unread; the CLI itself keeps 20. */
export const MAX_HISTORY_LINES = 10_000;

interface HistoryLine {
  lineNo: number;
  prompt: string;
  ts: number | null;
}

/** Reads one history file: the good lines and the `parser:` rows, in line order. */
async function readHistoryFile(source: Source, file: string): Promise<{ entries: (HistoryLine | Row)[]; hasBadLine: boolean }> {
  const entries: (HistoryLine | Row)[] = [];
  let hasBadLine = false;
  let count = 0;
  for await (const event of readLines(file)) {
    count += 1;
    if (count > MAX_HISTORY_LINES) {
      entries.push(parserRow(source, file, event.lineNo, `more than ${MAX_HISTORY_LINES} lines, the rest not read`));
      hasBadLine = true;
      break;
    }
    if (event.type === 'error') {
      entries.push(parserRow(source, file, event.lineNo, event.message));
      hasBadLine = true;
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(event.text);
    } catch {
      entries.push(parserRow(source, file, event.lineNo, `not JSON: ${quoteLine(event.text)}`));
      hasBadLine = true;
      continue;
    }
    const record =
      typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
    if (!record || typeof record.prompt !== 'string') {
      entries.push(parserRow(source, file, event.lineNo, `no prompt string: ${quoteLine(event.text)}`));
      hasBadLine = true;
      continue;
    }
    entries.push({ lineNo: event.lineNo, prompt: record.prompt, ts: epochMs(record.ts) });
  }
  return { entries, hasBadLine };
}

/** One `input_history` user row per history line, plus one `parser:` row per bad line. */
export const readInputHistory: Reader = eachFile(readHistoryRows);

async function* readHistoryRows(source: Source, file: string): AsyncGenerator<Row> {
  // The whole file is needed before the first row: whether a line is dated depends on the last line
  // and on any bad line after it. The file is small (20 lines) and bounded by MAX_HISTORY_LINES.
  const { entries, hasBadLine } = await readHistoryFile(source, file);
  let last = -1;
  entries.forEach((entry, i) => {
    if ('prompt' in entry) last = i;
  });
  for (const [i, entry] of entries.entries()) {
    if (!('prompt' in entry)) {
      yield entry;
      continue;
    }
    const fields: RowFields = {
      source_line: entry.lineNo,
      timestamp_utc: i === last && !hasBadLine ? entry.ts : null,
      turn_type: 'user',
      kind: 'input_history',
      text: entry.prompt,
    };
    yield rowFor(source, file, fields);
  }
}
