/**
 * `clinetrail query` without a process: the same queryWarehouse the CLI calls, and what the CLI makes of
 * its answer (cli/main.ts): the result in `format` (cli/format.ts) on stdout and exit 0, or one
 * `clinetrail: <first line of the message>` line on stderr and exit 1 (a failed query is never a usage
 * error). A CLI start costs Node, yargs and DuckDB's module (~0.5-1 s on these machines); each suite
 * still runs a few statements through the real CLI to hold this mapping to it.
 */
import { formatResult, type OutputFormat } from '../../src/cli/format.js';
import { queryWarehouse, type QueryOptions } from '../../src/warehouse/build.js';

export interface QueryOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

export async function queryInProcess(
  out: string,
  sql: string,
  format: OutputFormat = 'table',
  options: QueryOptions = {},
): Promise<QueryOutcome> {
  try {
    return { code: 0, stdout: formatResult(await queryWarehouse(out, sql, options), format), stderr: '' };
  } catch (err) {
    return { code: 1, stdout: '', stderr: `clinetrail: ${(err as Error).message.split('\n')[0]}\n` };
  }
}
