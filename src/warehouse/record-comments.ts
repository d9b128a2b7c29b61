/**
 * The catalog comments of the raw views over the records beside the rows (raw_files, raw_runs,
 * raw_secrets), made from the docs of their shapes (core/records.ts), so a field documented once is
 * explained by `describe` and `duckdb_columns()` too. Model files use them as placeholders:
 * `{{files_column_comments}}`, `{{runs_column_comments}}`, `{{secrets_column_comments}}`.
 */
import { FILE_SHAPE, RUN_SHAPE, SECRET_SHAPE, type RecordColumn } from '../core/records.js';

/** A SQL string literal. */
export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

function columnComments(view: string, shape: Readonly<Record<string, RecordColumn>>): string {
  return Object.entries(shape)
    .map(([name, column]) => `comment on column ${view}.${name} is ${sqlString(column.doc)};`)
    .join('\n');
}

export function recordCommentPlaceholders(): Record<string, string> {
  return {
    files_column_comments: columnComments('raw_files', FILE_SHAPE),
    runs_column_comments: columnComments('raw_runs', RUN_SHAPE),
    secrets_column_comments: columnComments('raw_secrets', SECRET_SHAPE),
  };
}
