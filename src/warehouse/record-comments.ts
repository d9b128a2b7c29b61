/**
 * The catalog comments of the columns the shapes of core/records.ts describe: the rows' columns in
 * raw_events and events, and the raw views over the records beside the rows (raw_files, raw_runs,
 * raw_secrets). A column documented once in its shape is explained by `describe` and `duckdb_columns()`
 * wherever it appears. Model files use them as placeholders: `{{raw_events_column_comments}}`,
 * `{{events_column_comments}}`, `{{tool_calls_column_comments}}`, `{{commands_column_comments}}`,
 * `{{files_column_comments}}`, `{{runs_column_comments}}`, `{{secrets_column_comments}}`, and those of the
 * intermediate models that carry the row columns (`{{int_timeline_column_comments}}`, ...).
 */
import { COLUMNS, FILE_SHAPE, RUN_SHAPE, SECRET_SHAPE, type RecordColumn } from '../core/records.js';
import { sqlString } from './sql-literal.js';

/** row_id, the warehouse's own column of every row (sql/01_row_macros.sql row_id_of). */
const ROW_ID_DOC =
  "The row's identity, unique over raw_events and events, the same on every load of the same evidence by the same code: MD5 of (host, store, source_file, file_row); of ('derived', kind, the source row's row_id) for a derived `model:` or `permission mode:` row (sql/14). A UUID: its text (0cc175b9-c0f1-b6a8-31c3-99e269772661) is how every output and export writes it, and compares with it as it is; pandas, pyarrow, polars, DuckDB, Excel and Timesketch all keep that text (a number of 39 digits would be rounded by most of them). Every model joins on it (duplicates.kept_row_id, secrets.row_id, findings.row_id). (host, store, source_file, source_line, source_seq) does not name one row: the three arrays of a task_metadata.json all number their entries from 1.";

/** `comment on column` statements for (column, doc) pairs of `view`. */
function comments(view: string, docs: ReadonlyArray<readonly [string, string]>): string {
  return docs.map(([name, doc]) => `comment on column ${view}.${name} is ${sqlString(doc)};`).join('\n');
}

/** row_id and every row column (core/records.ts COLUMNS), in raw_events or events. */
const rowDocs = (): Array<[string, string]> => [['row_id', ROW_ID_DOC], ...COLUMNS.map((c): [string, string] => [c.name, c.doc])];

/** The fields of a record shape. */
const shapeDocs = (shape: Readonly<Record<string, RecordColumn>>) =>
  Object.entries(shape).map(([name, c]): [string, string] => [name, c.doc]);

export function recordCommentPlaceholders(): Record<string, string> {
  return {
    raw_events_column_comments: comments('raw_events', rowDocs()),
    events_column_comments: comments('events', rowDocs()),
    // the views of sql/43-44 (issue 27) carry every column of events before their own
    tool_calls_column_comments: comments('tool_calls', rowDocs()),
    commands_column_comments: comments('commands', rowDocs()),
    // the intermediate models of the rows (sql/12 to sql/25); int_tool_calls (sql/42) holds no text
    ...Object.fromEntries(
      ['int_primary_events', 'int_secondary_events', 'int_derived_events', 'int_secondary_paired', 'int_timeline'].map((m) => [
        `${m}_column_comments`,
        comments(m, rowDocs()),
      ]),
    ),
    int_tool_calls_column_comments: comments(
      'int_tool_calls',
      rowDocs().filter(([name]) => name !== 'text'),
    ),
    files_column_comments: comments('raw_files', shapeDocs(FILE_SHAPE)),
    runs_column_comments: comments('raw_runs', shapeDocs(RUN_SHAPE)),
    secrets_column_comments: comments('raw_secrets', shapeDocs(SECRET_SHAPE)),
  };
}
