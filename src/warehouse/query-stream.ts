/**
 * A query's result read chunk by chunk (DuckDB's streaming result, about 2,048 rows a chunk), so that
 * `clinetrail query` prints a result of any size in bounded memory: each chunk is handed to `sink` and
 * awaited (the sink waits for stdout to drain) before the next is fetched. The MCP server streams on
 * its own connection (streamOnConnection) and stops at its row limit.
 */
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { type QueryOptions, withQueryConnection } from './build.js';
import { prepareQuery } from './query-sandbox.js';

/** Where the result goes: the column names (and DuckDB types) once, then each chunk's rows. */
export interface ResultSink {
  columns(names: string[], types: string[]): Promise<void> | void;
  /** Returning (or resolving to) 'stop' ends the read: no further chunk is fetched. */
  rows(rows: DuckDBValue[][]): unknown;
}

/** Runs one checked query on an open sandboxed connection and streams its rows to `sink`; resolves to the rows handed over. */
export async function streamOnConnection(conn: DuckDBConnection, sql: string, sink: ResultSink): Promise<number> {
  const prepared = await prepareQuery(conn, sql);
  try {
    const result = await prepared.stream();
    await sink.columns(
      result.columnNames(),
      result.columnTypes().map((t) => t.toString()),
    );
    let count = 0;
    for (;;) {
      const chunk = await result.fetchChunk();
      if (chunk === null || chunk.rowCount === 0) break;
      count += chunk.rowCount;
      if ((await sink.rows(chunk.getRows())) === 'stop') break;
    }
    return count;
  } finally {
    prepared.destroySync();
  }
}

/** Runs one checked query on OUT and streams its rows to `sink`; resolves to the number of rows. */
export async function streamQuery(outDir: string, sql: string, sink: ResultSink, options: QueryOptions = {}): Promise<number> {
  return withQueryConnection(outDir, options, (conn) => streamOnConnection(conn, sql, sink));
}
