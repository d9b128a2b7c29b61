/**
 * What `models`, `export`, `hunt` and `report` say on stderr as they go (progress, their summary,
 * warnings): a text line `clinetrail: ...` each, or with `--log-format json` one JSON object per line, so
 * that a scheduled job's log (deploy/nightly.sh) is JSON from every step, as a load's is
 * (load/progress.ts): `ts`, `command`, `event`, `level`, the event's figures as their own fields, and the
 * text line as `message`. Errors go out through cli/commands.ts (`event: "error"`) either way.
 */
import { terminalSafeJson } from '../core/terminal-text.js';
import type { LogFormat } from '../load/progress.js';

/** The figures of one event: its name (`progress`, `done`, `hunt`, `warning`, ...) and its own fields. */
export type LogFields = { event: string; level?: 'info' | 'warning' } & Record<string, unknown>;

export interface CommandLog {
  /** One event: its text line (what follows `clinetrail: `) and its figures. */
  event(text: string, fields: LogFields): void;
}

/** A log of `command` in `format`, written to `write` (stderr). */
export function commandLog(command: string, format: LogFormat, write: (text: string) => void): CommandLog {
  return {
    event(text, { level = 'info', ...fields }) {
      if (format === 'json')
        write(`${terminalSafeJson({ ts: new Date().toISOString(), command, ...fields, level, message: text })}\n`);
      else write(`clinetrail: ${text}\n`);
    },
  };
}

/** The `--log-format` option of the commands that log through a CommandLog. */
export const LOG_FORMAT_OPTION = {
  choices: ['text', 'json'] as const,
  default: 'text' as LogFormat,
  describe: 'What goes to stderr: text lines, or json (one object per line: ts, command, event, level, its figures, message)',
};
