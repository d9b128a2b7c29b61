/**
 * Redaction of a whole row before it is written (load/partition.ts): its text and every other
 * column a reader fills from file content get the markers of write/redact.ts, and each secret found
 * becomes one `_secrets.<gen>.jsonl` line that says which column held it.
 *
 * The same value always redacts the same way, so `session_id` still joins and groups a session whose
 * id holds a key. Short columns repeat a lot (one session id, model or branch for thousands of rows),
 * so their redactions are remembered per distinct value, a bounded number at a time.
 *
 * Not redacted: `host`, `home`, `user`, `client` and `source_file`. They are file-system paths of the
 * evidence (folder and file names), not content: the analyst must be able to find the file, and the `files`
 * table and the chain of custody depend on them (docs/RELIABILITY.md, "Secrets").
 */
import type { RedactedColumnName, SecretRecord } from '../core/records.js';
import type { Row } from '../core/row.js';
import { redact, type Redacted } from './redact.js';

/** The columns redacted: `text` and the string columns readers fill from file content. */
export type { SecretRecord };

export const REDACTED_COLUMNS = [
  'text',
  'session_id',
  'project_path',
  'git_branch',
  'model',
  'provider',
  'tool_name',
  'tool_use_id',
  'kind',
  'permission_mode',
  'sync_target',
  'session_origin',
  'imported_from',
  'setting_name',
  'setting_value',
  'parent_session_id',
] as const satisfies readonly RedactedColumnName[];

export type RedactedColumn = (typeof REDACTED_COLUMNS)[number];

/**
 * Columns whose values repeat from row to row (one session id, model or branch for thousands of rows),
 * so their redactions are worth remembering: every redacted column but `text` and `tool_use_id`, which
 * is unique per call: remembering it only filled the memory (docs/BENCHMARKS.md "Behind the code").
 */
const REPEATING_COLUMNS: ReadonlySet<RedactedColumn> = new Set(
  REDACTED_COLUMNS.filter((c) => c !== 'text' && c !== 'tool_use_id'),
);

/** Distinct repeating values whose redaction is remembered; past this the memory starts again. */
const REMEMBERED_VALUES = 5_000;

/** Redacts rows, remembering the redactions of their short columns. One per partition. */
export class RowRedactor {
  private readonly remembered = new Map<string, Redacted>();

  /**
   * Redacts every column of REDACTED_COLUMNS of `row` in place, appends one SecretRecord line (JSON and
   * a newline) to `lines` per secret found, and returns the number of secrets.
   */
  redactRow(row: Row, lines: string[]): number {
    let found: Array<[RedactedColumn, Redacted]> | null = null;
    for (const column of REDACTED_COLUMNS) {
      const value = row[column];
      if (value === null || value === '') continue;
      const result = REPEATING_COLUMNS.has(column) ? this.redactRepeating(value) : redact(value);
      if (result.hits.length === 0) continue;
      row[column] = result.text;
      (found ??= []).push([column, result]);
    }
    if (found === null) return 0;
    let count = 0;
    for (const [column, result] of found) {
      for (const hit of result.hits) {
        const record: SecretRecord = {
          host: row.host,
          store: row.store,
          home: row.home,
          client: row.client,
          source_file: row.source_file,
          source_line: row.source_line,
          source_seq: row.source_seq,
          file_row: row.file_row,
          session_id: row.session_id,
          timestamp_ms: row.timestamp_utc,
          row_kind: row.kind,
          column_name: column,
          kind: hit.kind,
          fingerprint: hit.fingerprint,
        };
        lines.push(`${JSON.stringify(record)}\n`);
        count += 1;
      }
    }
    return count;
  }

  private redactRepeating(value: string): Redacted {
    let result = this.remembered.get(value);
    if (result === undefined) {
      if (this.remembered.size >= REMEMBERED_VALUES) this.remembered.clear();
      result = redact(value);
      this.remembered.set(value, result);
    }
    return result;
  }
}
