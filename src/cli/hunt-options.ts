/** The options, examples and help text of `clinetrail hunt` (a yargs builder). */
import type { Argv } from 'yargs';
import type { OutputFormat } from './format.js';
import { LOG_FORMAT_OPTION } from './command-log.js';
import { examplesBlock } from './help-examples.js';

export function huntOptions<T>(y: Argv<T>) {
  return y
    .option('out', { type: 'string', describe: 'Output folder of a load (not needed with --list)' })
    .option('id', {
      type: 'string',
      array: true,
      nargs: 1,
      describe: 'Run only this hunt (repeatable); default: the whole pack',
    })
    .option('list', {
      type: 'boolean',
      default: false,
      describe: 'List the hunts of the pack (id, severity, ATT&CK, title) and stop',
    })
    .option('format', {
      choices: ['table', 'csv', 'json'] as const,
      default: 'table' as OutputFormat,
      describe: 'Format of the summary (or of the list) on stdout',
    })
    .option('log-format', LOG_FORMAT_OPTION)
    .epilogue(
      examplesBlock([
        ['$0 hunt --out wh', 'Run every hunt of the pack; the findings go to the table findings of wh/fleet.duckdb'],
        ['$0 hunt --out wh --id secret-in-prompt --id credential-access', 'Run two hunts only'],
        ['$0 hunt --list', 'The hunts of the pack'],
      ]),
    )
    .epilogue(
      'The hunts are the SQL files of hunts/ (docs/HUNTS.md), each run as a read-only query in the query sandbox. Their findings replace the tables findings and hunt_runs of OUT/fleet.duckdb (a copy is written and renamed into place, under the OUT lock, as a load does). A load that rebuilds the models runs the whole pack into the new warehouse itself (unless --no-hunts), so findings always match the rows it holds; run hunt to re-run after editing the pack, or to run some hunts (--id). stdout: one line per hunt and host (hunt_id, severity, host, findings; a hunt that found nothing has one line with no host). stderr: one progress line per hunt. Exit codes: 0 done (with or without findings); 1 a hunt or the write failed; 2 bad arguments (an unknown --id, no --out, an --out that does not exist or holds no warehouse); 3 a load, models or another hunt holds OUT.',
    );
}
