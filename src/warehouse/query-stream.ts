/**
 * A query's result read chunk by chunk (DuckDB's streaming result, 2,048 rows a chunk, DuckDB running
 * one chunk ahead: query-sandbox.ts STREAM_BUFFER), so that `clinetrail query` prints a result of any
 * size in bounded memory and the MCP server stops at its limits. Each chunk is handed to `sink` in slices
 * of SLICE_ROWS rows, each awaited (the CLI's sink waits for stdout to drain) before the next is decoded:
 * a chunk of 2,048 texts of 1 MB is never decoded whole. A slice is read through vectors of its own,
 * whose decoded values go with it (the chunk's own vectors keep every value they decoded), and the
 * chunk's memory is given back to DuckDB when it has been read. With `caps`, DuckDB cuts what the reader
 * will not keep before it reaches the chunk (capped-query.ts). With `signal`, the read stops between
 * slices once it is aborted (the MCP server's time limit; it also interrupts DuckDB).
 */
import type { DuckDBConnection, DuckDBDataChunk } from '@duckdb/node-api';
import { type QueryOptions, withQueryConnection } from './build.js';
import { type CappedQuery, type CappedValue, type Caps, prepareCapped } from './capped-query.js';

/** Rows decoded at once. */
const SLICE_ROWS = 64;

/** Where the result goes: the column names (and DuckDB types) once, then the rows, a slice at a time. */
export interface ResultSink {
  columns(names: string[], types: string[]): Promise<void> | void;
  /** Returning (or resolving to) 'stop' ends the read: nothing further is decoded or fetched. */
  rows(rows: CappedValue[][]): unknown;
  /** The read met a row past `caps.answerChars` and stopped there (that row is not handed over). */
  pastAnswerSize?(): void;
}

/** How a read is bounded. */
export interface StreamOptions {
  caps?: Caps;
  signal?: AbortSignal;
}

/** Hands one chunk to `sink` slice by slice; resolves to the rows handed over and whether to stop. */
async function handChunk(
  chunk: DuckDBDataChunk,
  query: CappedQuery,
  sink: ResultSink,
  signal: AbortSignal | undefined,
): Promise<{ count: number; stop: boolean }> {
  const vectors = Array.from({ length: chunk.columnCount }, (_, c) => chunk.getColumnVector(c));
  let count = 0;
  for (let start = 0; start < chunk.rowCount; start += SLICE_ROWS) {
    if (signal?.aborted) return { count, stop: true };
    const size = Math.min(SLICE_ROWS, chunk.rowCount - start);
    const slices = vectors.map((v) => v.slice(start, size));
    const rows: CappedValue[][] = [];
    let past = false;
    for (let r = 0; r < size && !past; r++) {
      const row = query.row(slices.map((s) => s.getItem(r)));
      if (row === null) past = true;
      else rows.push(row);
    }
    count += rows.length;
    if (rows.length > 0 && (await sink.rows(rows)) === 'stop') return { count, stop: true };
    if (past) {
      sink.pastAnswerSize?.();
      return { count, stop: true };
    }
  }
  return { count, stop: false };
}

/** Runs one checked query on an open sandboxed connection and streams its rows to `sink`; resolves to the rows handed over. */
export async function streamOnConnection(
  conn: DuckDBConnection,
  sql: string,
  sink: ResultSink,
  options: StreamOptions = {},
): Promise<number> {
  const query = await prepareCapped(conn, sql, options.caps ?? null);
  try {
    const result = await query.prepared.stream();
    await sink.columns(
      query.columns.map((c) => c.name),
      query.columns.map((c) => c.type),
    );
    let count = 0;
    while (!options.signal?.aborted) {
      const chunk = await result.fetchChunk();
      if (chunk === null || chunk.rowCount === 0) break;
      try {
        const handed = await handChunk(chunk, query, sink, options.signal);
        count += handed.count;
        if (handed.stop) break;
      } finally {
        // the chunk's strings go back now, not when the garbage collector finds the chunk
        chunk.reset();
      }
    }
    return count;
  } finally {
    query.prepared.destroySync();
  }
}

/** Runs one checked query on OUT and streams its rows to `sink`; resolves to the number of rows. */
export async function streamQuery(
  outDir: string,
  sql: string,
  sink: ResultSink,
  options: QueryOptions & StreamOptions = {},
): Promise<number> {
  return withQueryConnection(outDir, options, (conn) => streamOnConnection(conn, sql, sink, options));
}
