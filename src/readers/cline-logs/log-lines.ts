/**
 * The line shapes of Cline's own log files, every generation (the `cline-logs` store, readers/cline-logs/reader.ts):
 * which line starts a record, and its time, level and message.
 *
 * - `json`: one JSON object per line. pino (2.x `logs/cline-cli.N.log` through pino-roll, 3.x
 *   `logs/cline.log`): `level` a number (10 trace ... 60 fatal), `time` ISO 8601 UTC (`isoTime`) or epoch
 *   ms, `msg`. 2.x logs each line of Cline's Logger, `ERROR message`, as an info record with a `channel`
 *   (cli/src/vscode-shim.ts): the Logger's level is the record's. The 3.x hub (`logs/hub-daemon.log`) writes `[hub] {"ts", "level": "info", "message", ...}`
 *   (sdk/packages/core/src/hub/server/hub-server-logging.ts): the same object behind a `[tag] ` prefix.
 * - `bracket-time`: cline-core 3.52 under the 1.x Go CLI (`~/.cline/logs/cline-core-*.log`,
 *   src/standalone/utils.ts `log`): `[2026-12-01T16:59:06.777] #bot.cline.server.ts <message>`, where the
 *   message starts with `ERROR `, `WARN `, `INFO `, `DEBUG `, `TRACE ` or `LOG ` when it comes from
 *   Cline's Logger (src/services/logging/Logger.ts), and has no level otherwise.
 * - `go-log`: the Go host bridge of the 1.x CLI (`~/.cline/logs/cline-host-*.log`, Go's `log` package):
 *   `2026/12/01 16:59:02 <message>`, no level.
 *
 * Times with a zone (the JSON formats' `Z`) are exact. cline-core and Go write the machine's local wall
 * clock with no zone (getHours(), Go's default log flags), and the image does not say the machine's
 * zone: those times are read as if they were UTC (`isWallClock`), so on a machine not on UTC they are
 * off by its offset. Everything else a log file holds (console.log and console.error output, Bun's
 * warnings, stack traces) has no time and no level: a line that starts with a space or tab continues the
 * record before it (stack frames), any other line is a record of free text (`null` here).
 */
import { epochMs, plainObject, nonEmptyString } from '../common/values.js';

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

export type LogFormat = 'json' | 'bracket-time' | 'go-log';

/** A line that starts a record of a known format. */
export interface LogRecordStart {
  format: LogFormat;
  /** Epoch milliseconds UTC; null when the record has no valid time. */
  timestampUtc: number | null;
  /** True when the time was written without a zone (local wall clock) and is read as UTC. */
  isWallClock: boolean;
  /** The level the record states; null when its format writes none (or one not known). */
  level: LogLevel | null;
  /** The message: the text after the line's time and source, or the JSON record's `msg` / `message`. */
  message: string;
  /** The JSON record without its time, level and message keys (JSON format only). */
  fields: Record<string, unknown> | null;
  /** The `[tag]` before a JSON record (`hub`); null when none. */
  tag: string | null;
}

const PINO_LEVELS: ReadonlyArray<[number, LogLevel]> = [
  [60, 'fatal'],
  [50, 'error'],
  [40, 'warn'],
  [30, 'info'],
  [20, 'debug'],
];

const NAMED_LEVELS: Readonly<Record<string, LogLevel>> = {
  trace: 'trace',
  debug: 'debug',
  info: 'info',
  log: 'info',
  warn: 'warn',
  warning: 'warn',
  error: 'error',
  fatal: 'fatal',
  critical: 'fatal',
};

/** A pino level number (custom levels by the nearest standard one below) or a level name; null when neither. */
export function levelOf(value: unknown): LogLevel | null {
  if (typeof value === 'number' && Number.isFinite(value)) {
    for (const [floor, level] of PINO_LEVELS) if (value >= floor) return level;
    return 'trace';
  }
  if (typeof value === 'string') return NAMED_LEVELS[value.toLowerCase()] ?? null;
  return null;
}

/**
 * Epoch ms of a wall-clock time read as UTC; null when a field is out of range (Date.UTC would roll
 * 2026-02-30 over into March). `fraction` is the digits after the seconds' point, any length.
 */
export function wallClockMs(y: number, mo: number, d: number, h: number, mi: number, s: number, fraction = ''): number | null {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return null;
  const ms = fraction === '' ? 0 : Math.floor(Number(`0.${fraction}`) * 1000);
  const t = Date.UTC(y, mo - 1, d, h, mi, Math.min(s, 59), ms);
  const back = new Date(t);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return t;
}

/** The JSON object a line holds, or null (not an object, not JSON). */
function jsonObject(text: string): Record<string, unknown> | null {
  try {
    return plainObject(JSON.parse(text));
  } catch {
    return null;
  }
}

/** Cline's Logger levels at the start of a message (src/services/logging/Logger.ts, 2.x src/shared/services/Logger.ts). */
const LOGGER_LEVEL = /^(ERROR|WARN|LOG|DEBUG|INFO|TRACE)(?: ([\s\S]*))?$/;

const TIME_KEYS = ['time', 'ts', 'timestamp'];
const MESSAGE_KEYS = ['msg', 'message'];

/** A JSON log record: pino's or the hub's keys, whichever the object has. */
function jsonRecord(record: Record<string, unknown>, tag: string | null): LogRecordStart {
  const timeKey = TIME_KEYS.find((k) => epochMs(record[k]) !== null) ?? null;
  const messageKey = MESSAGE_KEYS.find((k) => typeof record[k] === 'string') ?? null;
  const recordLevel = levelOf(record.level);
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (key === timeKey || key === messageKey || (key === 'level' && recordLevel !== null)) continue;
    fields[key] = value;
  }
  const message = messageKey === null ? '' : (nonEmptyString(record[messageKey]) ?? '');
  // 2.x writes each line of Cline's Logger (`ERROR message`) as a pino info record: its level is the Logger's
  const logger = recordLevel === null || recordLevel === 'info' ? LOGGER_LEVEL.exec(message) : null;
  return {
    format: 'json',
    timestampUtc: timeKey === null ? null : epochMs(record[timeKey]),
    isWallClock: false,
    level: logger === null ? recordLevel : levelOf(logger[1]),
    message: logger === null ? message : (logger[2] ?? ''),
    fields,
    tag,
  };
}

/** `[2026-12-01T16:59:06.777] #bot.cline.server.ts INFO message`; the zone, when written, is used. */
const BRACKET_TIME =
  /^\[(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?(Z|[+-]\d{2}:?\d{2})?\](?: (#\S+))?(?: ([\s\S]*))?$/;
/** Go's log package with its default flags (and Lmicroseconds). */
const GO_LOG = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))? ([\s\S]*)$/;
/** `[hub] {...}`: a JSON record behind a tag. */
const TAGGED_JSON = /^\[([A-Za-z0-9_.:-]{1,64})\] (\{[\s\S]*)$/;

function bracketTime(m: RegExpExecArray): LogRecordStart {
  const [, y, mo, d, h, mi, s, fraction = '', zone, , rest = ''] = m;
  let timestampUtc: number | null;
  if (zone === undefined) timestampUtc = wallClockMs(+y, +mo, +d, +h, +mi, +s, fraction);
  else {
    const offset = zone === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
    timestampUtc = epochMs(`${y}-${mo}-${d}T${h}:${mi}:${s}.${(fraction || '0').slice(0, 3).padEnd(3, '0')}${offset}`);
  }
  const leveled = LOGGER_LEVEL.exec(rest);
  return {
    format: 'bracket-time',
    timestampUtc,
    isWallClock: zone === undefined,
    level: leveled ? levelOf(leveled[1]) : null,
    message: leveled ? (leveled[2] ?? '') : rest,
    fields: null,
    tag: null,
  };
}

/** Whether a line continues the record before it: it starts with a space or a tab (a stack frame, indented output). */
export function isContinuation(line: string): boolean {
  const c = line.charCodeAt(0);
  return c === 0x20 || c === 0x09;
}

/** The record a line starts, when it is of a known format; null for free text (and for a continuation line). */
export function parseLogLine(line: string): LogRecordStart | null {
  if (line === '' || isContinuation(line)) return null;
  if (line.charCodeAt(0) === 0x7b /* { */) {
    const record = jsonObject(line);
    return record === null ? null : jsonRecord(record, null);
  }
  if (line.charCodeAt(0) === 0x5b /* [ */) {
    const tagged = TAGGED_JSON.exec(line);
    if (tagged !== null) {
      const record = jsonObject(tagged[2]);
      return record === null ? null : jsonRecord(record, tagged[1]);
    }
    const m = BRACKET_TIME.exec(line);
    return m === null ? null : bracketTime(m);
  }
  const go = GO_LOG.exec(line);
  if (go === null) return null;
  const [, y, mo, d, h, mi, s, fraction = '', message] = go;
  return {
    format: 'go-log',
    timestampUtc: wallClockMs(+y, +mo, +d, +h, +mi, +s, fraction),
    isWallClock: true,
    level: null,
    message,
    fields: null,
    tag: null,
  };
}
