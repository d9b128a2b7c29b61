/**
 * `clinetrail query`'s output: the result streamed a slice of rows at a time (warehouse/query-stream.ts),
 * each slice's values printed by the rules of warehouse/values.ts in the format of cli/format.ts and
 * written to stdout before the next slice is decoded, waiting while stdout is full. Memory stays bounded
 * whatever the number of rows (one DuckDB chunk, one slice, plus up to TABLE_BLOCK cut rows for a
 * table). A table prints at most CELL_UNITS of a text, so DuckDB cuts longer texts before they leave it
 * (warehouse/capped-query.ts); csv and json print every cell whole.
 */
import { CELL_UNITS, type OutputFormat, resultWriter } from './format.js';
import { type CappedValue, CutText } from '../warehouse/capped-query.js';
import { outValue } from '../warehouse/values.js';
import { streamQuery } from '../warehouse/query-stream.js';

/** A cell as printed (a CutText only comes where wide values are cut, which `query` does not ask for). */
function printed(value: CappedValue) {
  return value instanceof CutText ? value.text : outValue(value);
}

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
      rows: (rows) => write(writer.rows(rows.map((r) => r.map(printed)))),
    },
    { allowRead, caps: format === 'table' ? { cellChars: CELL_UNITS } : undefined },
  );
  await write(writer.end());
}
