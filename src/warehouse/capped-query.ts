/**
 * A checked query wrapped so that DuckDB itself drops what its reader will not keep, before the result
 * leaves DuckDB: a reader that keeps text cells up to N characters, some rows and some characters in
 * all (the MCP server; `clinetrail query --format table` keeps cells only) would otherwise receive whole
 * chunks of 2,048 rows of whole cells. One `select repeat('x', 1000000) from range(20000)` is a 2 GB
 * chunk: DuckDB copies a constant into every row of the result, outside its memory limit.
 * - Cells: a VARCHAR comes cut to N+1 characters (one more, so the reader sees that it was longer). With
 *   `cutWide`, a list, struct, map, union, blob, ... whose text (JSON for the nested ones) is longer
 *   than N comes as that text cut to N+1 instead of its value (a CutText); a shorter one as its value.
 * - Rows: `limit maxRows + 1` (one more, so the reader sees that there were more).
 * - Characters in all, where a chunk of cut cells could still pass CHUNK_BYTES (max_cell_chars raised,
 *   many text columns): a running sum of each row's text characters (a streaming window, which keeps the
 *   order) marks the rows that start past twice `answerChars` (`_past`); their cells come as NULL, so
 *   a chunk holds at most that much text, and the reader stops at the first one. The rows still come
 *   (empty), so a fetch never waits for the end of a long scan that a filter would have emptied. The
 *   window runs the query's last pipeline on one thread, hence only where it is needed.
 * The user's text stands inside parentheses (statementBody: without its closing semicolons) and the
 * wrapper is checked again as a whole by prepareQuery. Columns are referred to by position (#1), so
 * their names (duplicates, any text) never enter the wrapper. An EXPLAIN is not wrapped: its plan is
 * small and cannot be a subquery.
 */
import type { DuckDBConnection, DuckDBPreparedStatement, DuckDBValue } from '@duckdb/node-api';
import { DuckDBTypeId } from '@duckdb/node-api';
import { prepareQuery, statementBody } from './query-sandbox.js';

/** What the reader keeps. */
export interface Caps {
  /** Longest text cell kept, in characters. */
  cellChars: number;
  /** Cut lists, structs, maps, unions, blobs, ... too (their text in place of the value: CutText). */
  cutWide?: boolean;
  /** Rows kept. */
  maxRows?: number;
  /** Characters of text cells kept in all rows together. */
  answerChars?: number;
}

/** A value too long for a cell, given as the start of its text (JSON for a list, struct, map, union). */
export class CutText {
  constructor(readonly text: string) {}
}

/** A result column as the user's query names and types it. */
export interface ResultColumn {
  name: string;
  type: string;
}

/** A cell of a capped result: DuckDB's value, or the start of the text of one too long. */
export type CappedValue = DuckDBValue | CutText;

/** The wrapped query, prepared, and how to read a row of it back into the user's columns. */
export interface CappedQuery {
  prepared: DuckDBPreparedStatement;
  columns: ResultColumn[];
  /** The user's row from a row of the wrapper; null for a row past the answer size (`_past`). */
  row(values: readonly DuckDBValue[]): CappedValue[] | null;
}

/** Types of a fixed, small size: passed as they are. */
const FIXED = new Set<DuckDBTypeId>([
  DuckDBTypeId.BOOLEAN,
  DuckDBTypeId.TINYINT,
  DuckDBTypeId.SMALLINT,
  DuckDBTypeId.INTEGER,
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.UTINYINT,
  DuckDBTypeId.USMALLINT,
  DuckDBTypeId.UINTEGER,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UHUGEINT,
  DuckDBTypeId.FLOAT,
  DuckDBTypeId.DOUBLE,
  DuckDBTypeId.DECIMAL,
  DuckDBTypeId.DATE,
  DuckDBTypeId.TIME,
  DuckDBTypeId.TIME_NS,
  DuckDBTypeId.TIME_TZ,
  DuckDBTypeId.TIMESTAMP,
  DuckDBTypeId.TIMESTAMP_S,
  DuckDBTypeId.TIMESTAMP_MS,
  DuckDBTypeId.TIMESTAMP_NS,
  DuckDBTypeId.TIMESTAMP_TZ,
  DuckDBTypeId.INTERVAL,
  DuckDBTypeId.UUID,
  DuckDBTypeId.ENUM,
  DuckDBTypeId.SQLNULL,
  DuckDBTypeId.INTEGER_LITERAL,
]);
const TEXT = new Set<DuckDBTypeId>([DuckDBTypeId.VARCHAR, DuckDBTypeId.STRING_LITERAL]);
/** Wide types whose text is their JSON (as the readers print them); the others' is DuckDB's cast. */
const NESTED = new Set<DuckDBTypeId>([
  DuckDBTypeId.LIST,
  DuckDBTypeId.STRUCT,
  DuckDBTypeId.MAP,
  DuckDBTypeId.ARRAY,
  DuckDBTypeId.UNION,
]);

type Kind = 'fixed' | 'text' | 'wide';

/** Rows of a DuckDB chunk. */
const CHUNK_ROWS = 2048;
/** The most a chunk of cut cells may hold without the running sum (4 bytes a character at worst). */
const CHUNK_BYTES = 256 * 1024 * 1024;

/** How one column of the user's query is carried: by value, cut text, or value-or-cut-text. */
function kindOf(type: DuckDBTypeId, cutWide: boolean): Kind {
  if (TEXT.has(type)) return 'text';
  if (FIXED.has(type) || !cutWide) return 'fixed';
  return 'wide';
}

/** The wrapper's SQL for `body` with columns of `kinds` (see the file's comment); `budget`: it has `_past`. */
function wrapperSql(
  body: string,
  kinds: readonly Kind[],
  types: readonly DuckDBTypeId[],
  caps: Caps,
): { sql: string; budget: boolean } {
  const n = caps.cellChars;
  const inner: string[] = [];
  const sizes: string[] = [];
  kinds.forEach((kind, j) => {
    const ref = `#${j + 1}`;
    if (kind === 'text') {
      inner.push(`left(${ref}, ${n + 1}) as c${j}`);
      sizes.push(`coalesce(length(c${j}), 0)`);
    } else if (kind === 'wide') {
      const text = NESTED.has(types[j]) ? `to_json(${ref})::varchar` : `${ref}::varchar`;
      inner.push(`${ref} as c${j}`, `left(${text}, ${n + 1}) as t${j}`);
      sizes.push(`coalesce(length(t${j}), 0)`);
    } else inner.push(`${ref} as c${j}`);
  });
  const worstChunk = CHUNK_ROWS * 4 * (n + 1) * sizes.length;
  const budget = caps.answerChars !== undefined && worstChunk > CHUNK_BYTES;
  const blank = (cell: string) => (budget ? `case when _past then null else ${cell} end` : cell);
  const outer = kinds.flatMap((kind, j) =>
    kind === 'wide'
      ? [
          `case when ${budget ? '_past or ' : ''}length(t${j}) > ${n} then null else c${j} end`,
          `case when ${budget ? 'not _past and ' : ''}length(t${j}) > ${n} then t${j} end`,
        ]
      : [kind === 'text' ? blank(`c${j}`) : `c${j}`],
  );
  let from = `(select ${inner.join(', ')} from (\n${body}\n) as _q)`;
  if (budget) {
    const past = `sum(_n) over (rows between unbounded preceding and current row) - _n > ${2 * (caps.answerChars ?? 0)}`;
    from = `(select *, ${past} as _past from (select *, ${sizes.join(' + ')} as _n from ${from}))`;
    outer.push('_past');
  }
  const limit = caps.maxRows === undefined ? '' : ` limit ${caps.maxRows + 1}`;
  return { sql: `select ${outer.join(', ')} from ${from}${limit}`, budget };
}

/**
 * Checks `sql` (prepareQuery) and prepares it wrapped under `caps`; without caps, or for an EXPLAIN, it
 * comes prepared as it is. Throws the sandbox's `query: ...` errors.
 */
export async function prepareCapped(conn: DuckDBConnection, sql: string, caps: Caps | null): Promise<CappedQuery> {
  const { StatementType } = await import('@duckdb/node-api');
  const checked = await prepareQuery(conn, sql);
  const columns: ResultColumn[] = [];
  const types: DuckDBTypeId[] = [];
  for (let i = 0; i < checked.columnCount; i++) {
    columns.push({ name: checked.columnName(i), type: String(checked.columnType(i)) });
    types.push(checked.columnTypeId(i));
  }
  if (caps === null || checked.statementType === StatementType.EXPLAIN)
    return { prepared: checked, columns, row: (values) => [...values] };
  checked.destroySync();
  const kinds = types.map((t) => kindOf(t, caps.cutWide === true));
  const { sql: wrapper, budget } = wrapperSql(await statementBody(conn, sql), kinds, types, caps);
  const prepared = await prepareQuery(conn, wrapper);
  return {
    prepared,
    columns,
    row: (values) => {
      if (budget && values[values.length - 1] === true) return null;
      const row: CappedValue[] = [];
      let at = 0;
      for (const kind of kinds) {
        if (kind === 'wide') {
          const cut = values[at + 1];
          row.push(typeof cut === 'string' ? new CutText(cut) : values[at]);
          at += 2;
        } else row.push(values[at++]);
      }
      return row;
    },
  };
}
