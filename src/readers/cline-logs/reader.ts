/**
 * `cline-logs` store: Cline's own log files, every generation (formats in cline-logs/log-lines.ts):
 * - 1.x Go CLI: `~/.cline/logs/cline-core-<local time>-localhost-<port>.log` (cline-core's stdout and
 *   stderr) and `cline-host-*.log` (the Go host bridge's), one pair per CLI process (cline-home root).
 * - 2.x: `~/.cline/data/logs/cline-cli.N.log`, pino JSON lines rolled daily by pino-roll (cline-data root).
 * - 3.x: `~/.cline/data/logs/cline.log` (the CLI's pino log) and `logs/hub-daemon.log` (the hub daemon's
 *   stdout and stderr: `[hub] {json}` records, Bun warnings with stack frames). `logs/hooks.jsonl` is the
 *   `hooks-log` store, not this one.
 *
 * One row per record, read line by line and never whole (parse/lines.ts, chunks of 1 MiB): a line of a
 * known format starts a record, a line starting with a space or tab continues it (stack frames are one
 * row with the message they follow), and any other line is a record of its own. Rows are `system` rows:
 * - kind `log:<level>` (`trace`, `debug`, `info`, `warn`, `error`, `fatal`; cline-core's `LOG` is `info`)
 *   where the record states a level, `log:plain` for a record of a known format that states none (Go's
 *   lines, cline-core's lifecycle lines), `log:unparsed` for text of no known format (console output,
 *   Bun's warnings, a cut JSON line), kept as written.
 * - timestamp_utc from the record's own time: exact for the JSON formats (UTC, timestamp_source
 *   recorded); for cline-core and Go, which write the local wall clock with no zone (local_clock), read in
 *   the host's `--host-tz` zone (Source.timeZone), else as if UTC; null for `log:unparsed` records, which have none
 *   (`order by source_file, source_line` puts them between the records around them).
 * - text the message (JSON records: then their other fields as `key=value`, secret-named ones not kept,
 *   cline-logs/log-fields.ts); a record with an empty message (cline-core's banner) takes the next free
 *   text line as its message.
 * - session_id, model, provider, tool_name and project_path where the record names them
 *   (cline-logs/log-fields.ts), is_error for `error` and `fatal` records (false for the other levels, null
 *   where no level is stated).
 * A line with NUL bytes is a `parser:` row (the first line: the whole file, not read as a log), as is a
 * line of invalid UTF-8 (after its row, read with U+FFFD) or over 64 MiB.
 */
import type { Row, RowFields, Source } from '../../core/row.js';
import { wallClockToUtc } from '../../core/time-zone.js';
import { readLines } from '../parse/lines.js';
import { jsonRecordColumns, jsonRecordText, textSessionId } from './log-fields.js';
import { isContinuation, parseLogLine, type LogRecordStart } from './log-lines.js';
import { eachFile, parserRow, rowFor, type Reader } from '../common/rows.js';

/** Most characters of one record's lines kept; its further continuation lines are counted, not kept. */
export const MAX_RECORD_CHARS = 1024 * 1024;
/** Lines with NUL bytes after which the rest of a file is not read. */
export const MAX_BINARY_LINES = 16;
/** Parser rows held back for the record being read; past this the record is written as read so far. */
const MAX_DEFERRED = 100;

/** A record being read: its first line's fields and the lines joined so far. */
interface PendingRecord {
  lineNo: number;
  fields: RowFields;
  lines: string[];
  chars: number;
  /** Continuation lines not kept past MAX_RECORD_CHARS. */
  dropped: number;
  /** The record's message is empty: the next line of free text is its message. */
  awaitsMessage: boolean;
}

/**
 * A record's time and where it comes from: exact for a time with its zone (recorded); a wall clock with no
 * zone (local_clock) read in the host's zone (`--host-tz`, Source.timeZone), else as if UTC.
 */
function recordTime(start: LogRecordStart, zone: string | undefined): Pick<RowFields, 'timestamp_utc' | 'timestamp_source'> {
  if (start.timestampUtc === null) return { timestamp_utc: null };
  if (!start.isWallClock) return { timestamp_utc: start.timestampUtc, timestamp_source: 'recorded' };
  const utc = zone === undefined ? start.timestampUtc : wallClockToUtc(start.timestampUtc, zone);
  return { timestamp_utc: utc, timestamp_source: 'local_clock' };
}

/** The row fields of a record's first line. */
function recordFields(start: LogRecordStart | null, line: string, zone: string | undefined): { fields: RowFields; text: string } {
  if (start === null) {
    return { fields: { turn_type: 'system', kind: 'log:unparsed', session_id: textSessionId(line) }, text: line };
  }
  const isJson = start.fields !== null;
  const columns = isJson ? jsonRecordColumns(start.message, start.fields!) : { session_id: textSessionId(start.message) };
  return {
    fields: {
      turn_type: 'system',
      kind: `log:${start.level ?? 'plain'}`,
      ...recordTime(start, zone),
      is_error: start.level === null ? null : start.level === 'error' || start.level === 'fatal',
      ...columns,
    },
    text: isJson ? jsonRecordText(start.message, start.fields!) : start.message,
  };
}

function startRecord(start: LogRecordStart | null, line: string, lineNo: number, zone: string | undefined): PendingRecord {
  const { fields, text } = recordFields(start, line, zone);
  return {
    lineNo,
    fields,
    lines: [text],
    chars: text.length,
    dropped: 0,
    awaitsMessage: start !== null && start.fields === null && start.message.trim() === '',
  };
}

/** Adds a line to the record: its message when it awaits one, else a continuation line (kept up to the bound). */
function extendRecord(record: PendingRecord, line: string): void {
  if (record.awaitsMessage) {
    record.awaitsMessage = false;
    record.lines = [line];
    record.chars = line.length;
    record.fields.session_id ??= textSessionId(line);
    return;
  }
  if (record.chars + 1 + line.length > MAX_RECORD_CHARS) {
    record.dropped += 1;
    return;
  }
  record.lines.push(line);
  record.chars += 1 + line.length;
}

function recordRow(source: Source, file: string, record: PendingRecord): Row {
  let text = record.lines.join('\n');
  if (record.dropped > 0) text += `\n[${record.dropped} more lines of this record not kept]`;
  return rowFor(source, file, { ...record.fields, source_line: record.lineNo, text });
}

/** One row per record of every log file of the source. */
export const readClineLogs: Reader = eachFile(readLogFile);

async function* readLogFile(source: Source, file: string): AsyncGenerator<Row> {
  let record: PendingRecord | null = null;
  /** Parser rows of lines of the pending record, written after it (a bad line's row follows the line's). */
  let deferred: Row[] = [];
  const flush = function* (): Generator<Row> {
    if (record !== null) yield recordRow(source, file, record);
    record = null;
    yield* deferred;
    deferred = [];
  };
  let linesSeen = 0;
  let binaryLines = 0;
  for await (const event of readLines(file)) {
    if (event.type === 'error') {
      deferred.push(parserRow(source, file, event.lineNo, event.message));
      if (record === null || deferred.length >= MAX_DEFERRED) yield* flush();
      continue;
    }
    const line = event.text;
    linesSeen += 1;
    if (line.includes('\u0000')) {
      yield* flush();
      if (linesSeen === 1) {
        yield parserRow(source, file, event.lineNo, 'NUL bytes in the first line: a binary file, not read as a log');
        return;
      }
      yield parserRow(source, file, event.lineNo, `NUL bytes in a line of ${line.length} characters: binary data, not read`);
      binaryLines += 1;
      if (binaryLines >= MAX_BINARY_LINES) {
        yield parserRow(source, file, null, `${binaryLines} lines of binary data; the rest of the file not read`);
        return;
      }
      continue;
    }
    if (record !== null && isContinuation(line)) {
      extendRecord(record, line);
      continue;
    }
    const start = parseLogLine(line);
    if (record !== null && start === null && record.awaitsMessage) {
      extendRecord(record, line);
      continue;
    }
    yield* flush();
    record = startRecord(start, line, event.lineNo, source.timeZone);
  }
  yield* flush();
}
