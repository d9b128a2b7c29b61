/**
 * `clinetrail query` without a process: the CLI's own command line (cli/commands.ts runCommandLine) run
 * in this process, its stdout and stderr captured. A CLI start costs Node, yargs and DuckDB's module
 * (~0.5-1 s on these machines); each suite still runs a few statements through the real CLI process.
 */
import { runCommandLine } from '../../src/cli/commands.js';
import type { OutputFormat } from '../../src/cli/format.js';
import { captureCommandLine, type CapturedRun } from './command-line.js';

export type QueryOutcome = CapturedRun;

export function queryInProcess(
  out: string,
  sql: string,
  format: OutputFormat = 'table',
  options: { allowRead?: readonly string[] } = {},
): Promise<QueryOutcome> {
  const allow = (options.allowRead ?? []).flatMap((dir) => ['--allow-read', dir]);
  return captureCommandLine(runCommandLine, ['query', '--out', out, '--format', format, ...allow, sql]);
}
