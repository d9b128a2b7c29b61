/**
 * `clinetrail query`'s output: the result streamed chunk by chunk (warehouse/query-stream.ts), each
 * chunk's values printed by the rules of warehouse/values.ts in the format of cli/format.ts and written to
 * stdout before the next chunk is read, waiting while stdout is full. Memory stays bounded whatever the
 * size of the result (one chunk, plus up to TABLE_BLOCK cut rows for a table).
 */
import { type OutputFormat, resultWriter } from './format.js';
import { outValue } from '../warehouse/values.js';
import { streamQuery } from '../warehouse/query-stream.js';

/** Runs one query on OUT and writes its result to `stdout` in `format`. */
export async function runQuery(
  out: string,
  sql: string,
  format: OutputFormat,
  allowRead: readonly string[],
  stdout: (text: string) => void | Promise<void>,
): Promise<void> {
  const writer = resultWriter(format);
  const write = async (text: string) => {
    if (text !== '') await stdout(text);
  };
  await streamQuery(
    out,
    sql,
    {
      columns: (names) => write(writer.header(names)),
      rows: (rows) => write(writer.rows(rows.map((r) => r.map(outValue)))),
    },
    { allowRead },
  );
  await write(writer.end());
}
