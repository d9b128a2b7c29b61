/** The options, example and help text of `clinetrail report` (a yargs builder). */
import type { Argv } from 'yargs';
import { LOG_FORMAT_OPTION } from './command-log.js';
import { examplesBlock } from './help-examples.js';

export function reportOptions<T>(y: Argv<T>) {
  return y
    .option('out', { type: 'string', demandOption: true, describe: 'Output folder of a load' })
    .option('to', {
      type: 'string',
      demandOption: true,
      describe: 'The HTML file to write (a new or regular file, outside OUT and the evidence)',
    })
    .option('force', { type: 'boolean', default: false, describe: 'Replace --to if it exists' })
    .option('log-format', LOG_FORMAT_OPTION)
    .epilogue(examplesBlock([['$0 report --out wh --to /cases/acme/report.html', 'One self-contained page for a browser']]))
    .epilogue(
      'The page is self-contained: no script, and a Content-Security-Policy that forbids every network fetch. It is made from read-only queries on OUT/fleet.duckdb (OUT is not written) and is capped on a big fleet: each cap is said where it cuts. Times are UTC. Findings come from the findings table of clinetrail hunt when it exists.',
    );
}
