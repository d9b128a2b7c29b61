/**
 * A query's result read chunk by chunk (DuckDB's streaming result, about 2,048 rows a chunk), so that
 * `clinetrail query` prints a result of any size in bounded memory: each chunk is handed to `sink` and
 * awaited (the sink waits for stdout to drain) before the next is fetched.
 */
import type { DuckDBValue } from '@duckdb/node-api';
import { type QueryOptions, withQueryConnection } from './build.js';
import { prepareQuery } from './query-sandbox.js';

/** Where the result goes: the column names once, then each chunk's rows. */
export interface ResultSink {
  columns(names: string[]): Promise<void> | void;
  rows(rows: DuckDBValue[][]): Promise<void> | void;
}

/** Runs one checked query on OUT and streams its rows to `sink`; resolves to the number of rows. */
export async function streamQuery(outDir: string, sql: string, sink: ResultSink, options: QueryOptions = {}): Promise<number> {
  return withQueryConnection(outDir, options, async (conn) => {
    const prepared = await prepareQuery(conn, sql);
    try {
      const result = await prepared.stream();
      await sink.columns(result.columnNames());
      let count = 0;
      for (;;) {
        const chunk = await result.fetchChunk();
        if (chunk === null || chunk.rowCount === 0) break;
        count += chunk.rowCount;
        await sink.rows(chunk.getRows());
      }
      return count;
    } finally {
      prepared.destroySync();
    }
  });
}
