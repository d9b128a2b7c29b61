/**
 * The store specification (core/stores.ts) as the relation behind the warehouse's `stores` table
 * (sql/06_stores.sql): the models join it instead of listing stores. Plain data from core/, so the
 * warehouse never imports the readers.
 */
import { globSource } from '../core/glob.js';
import { STORES, type StoreSpec } from '../core/stores.js';
import { sqlString } from './sql-literal.js';

/** Columns of `stores`, with their DuckDB types. */
export const STORE_COLUMNS = [
  ['store', 'VARCHAR'],
  ['role', 'VARCHAR'],
  ['description', 'VARCHAR'],
  ['root_kinds', 'VARCHAR[]'],
  ['files', 'STRUCT(root_kind VARCHAR, pattern VARCHAR)[]'],
  ['except_files', 'VARCHAR[]'],
  ['transcript_files', 'VARCHAR[]'],
  ['transcript_regex', 'VARCHAR'],
] as const;

function stringList(values: readonly string[]): string {
  return `[${values.map(sqlString).join(', ')}]::VARCHAR[]`;
}

/**
 * The regular expression (RE2) a row's `source_file`, relative to the image root, matches when it is one
 * of the store's transcripts: the transcript globs as the end of the path, after a `/` (a store root
 * is never the image root).
 */
export function transcriptRegex(spec: StoreSpec): string | null {
  const globs = spec.transcripts ?? [];
  return globs.length === 0 ? null : `/(?:${globs.map(globSource).join('|')})$`;
}

function storeValues(spec: StoreSpec): string {
  const files = Object.entries(spec.files).flatMap(([kind, globs]) =>
    (globs ?? []).map((glob) => `{'root_kind': ${sqlString(kind)}, 'pattern': ${sqlString(glob)}}`),
  );
  const regex = transcriptRegex(spec);
  return `(${[
    sqlString(spec.id),
    sqlString(spec.role),
    sqlString(spec.description),
    stringList(Object.keys(spec.files)),
    `[${files.join(', ')}]::STRUCT(root_kind VARCHAR, pattern VARCHAR)[]`,
    stringList(spec.except ?? []),
    stringList(spec.transcripts ?? []),
    regex === null ? 'null::VARCHAR' : sqlString(regex),
  ].join(', ')})`;
}

/** A relation of one row per store, in the specification's order: the `{{stores_source}}` placeholder. */
export function storesRelation(): string {
  const rows = (STORES as readonly StoreSpec[]).map(storeValues).join(',\n    ');
  return `(select * from (values\n    ${rows}\n) as spec(${STORE_COLUMNS.map(([name]) => name).join(', ')}))`;
}

/**
 * The SQL of the placeholders the store specification gives the models (warehouse/build.ts):
 *   stores_source       the relation of the `stores` table
 *   transcript_stores   `('vscode-tasks', ...)`: the stores that have transcripts
 *   is_transcript_file  a condition on a row's `store` and `source_file`: it comes from a transcript
 * The models get store lists and conditions as constants, not by joining `stores`: a constant condition
 * on `store` lets DuckDB skip the Parquet files of every other store by their statistics (a join
 * reads them all), which more than doubled the time of the models that read transcripts.
 */
export function specPlaceholders(): Record<string, string> {
  const withTranscripts = (STORES as readonly StoreSpec[]).filter((s) => transcriptRegex(s) !== null);
  const conditions = withTranscripts.map(
    (s) => `(store = ${sqlString(s.id)} and regexp_matches(source_file, ${sqlString(transcriptRegex(s)!)}))`,
  );
  return {
    stores_source: storesRelation(),
    transcript_stores: `(${withTranscripts.map((s) => sqlString(s.id)).join(', ')})`,
    is_transcript_file: conditions.length === 0 ? 'false' : `(${conditions.join(' or ')})`,
  };
}
