/**
 * The Arrow/Parquet schema of raw rows: one column per Row field, in DESIGN.md's order (plus
 * `source_seq`, the position of a row among the rows of one record), then `file_row` (stamped by the
 * partition writer) and the fact columns readers fill beside their texts. Names are a contract.
 */
import type { Row } from './row.js';

export type ColumnType = 'utf8' | 'int64' | 'int32' | 'float64' | 'bool' | 'timestamp_ms';

export interface Column {
  name: keyof Row;
  type: ColumnType;
  /** DuckDB type the warehouse reads the column as. */
  sql: string;
}

export const COLUMNS: readonly Column[] = [
  { name: 'host', type: 'utf8', sql: 'VARCHAR' },
  { name: 'store', type: 'utf8', sql: 'VARCHAR' },
  { name: 'home', type: 'utf8', sql: 'VARCHAR' },
  { name: 'client', type: 'utf8', sql: 'VARCHAR' },
  { name: 'source_file', type: 'utf8', sql: 'VARCHAR' },
  { name: 'source_line', type: 'int64', sql: 'BIGINT' },
  { name: 'source_seq', type: 'int32', sql: 'INTEGER' },
  { name: 'source_role', type: 'utf8', sql: 'VARCHAR' },
  { name: 'timestamp_utc', type: 'timestamp_ms', sql: 'TIMESTAMPTZ' },
  { name: 'session_id', type: 'utf8', sql: 'VARCHAR' },
  { name: 'project_path', type: 'utf8', sql: 'VARCHAR' },
  { name: 'git_branch', type: 'utf8', sql: 'VARCHAR' },
  { name: 'turn_type', type: 'utf8', sql: 'VARCHAR' },
  { name: 'kind', type: 'utf8', sql: 'VARCHAR' },
  { name: 'model', type: 'utf8', sql: 'VARCHAR' },
  { name: 'provider', type: 'utf8', sql: 'VARCHAR' },
  { name: 'tool_name', type: 'utf8', sql: 'VARCHAR' },
  { name: 'tool_use_id', type: 'utf8', sql: 'VARCHAR' },
  { name: 'text', type: 'utf8', sql: 'VARCHAR' },
  { name: 'tokens_in', type: 'int64', sql: 'BIGINT' },
  { name: 'tokens_out', type: 'int64', sql: 'BIGINT' },
  { name: 'cost_usd', type: 'float64', sql: 'DOUBLE' },
  { name: 'is_error', type: 'bool', sql: 'BOOLEAN' },
  { name: 'file_row', type: 'int64', sql: 'BIGINT' },
  { name: 'permission_mode', type: 'utf8', sql: 'VARCHAR' },
  { name: 'sync_target', type: 'utf8', sql: 'VARCHAR' },
  { name: 'session_origin', type: 'utf8', sql: 'VARCHAR' },
  { name: 'imported_from', type: 'utf8', sql: 'VARCHAR' },
];
