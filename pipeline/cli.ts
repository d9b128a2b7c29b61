#!/usr/bin/env node
/**
 * The clinetrail command line: `load` a fleet of host images into OUT, `query` the warehouse.
 * Progress goes to stderr, results to stdout. Exit codes: 0 done; 1 the load or query failed
 * (I/O error, SQL error); 2 bad arguments or paths; 3 another load holds OUT.
 */
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import * as path from 'node:path';
import type { HostImage } from './discover.js';
import { formatResult, type OutputFormat } from './format.js';
import { runLoad, UsageError } from './load.js';
import { LockHeldError } from './lock.js';
import { queryWarehouse } from './warehouse.js';

export const EXIT = { ok: 0, failed: 1, usage: 2, locked: 3 } as const;

function parseHost(spec: string): HostImage {
  const eq = spec.indexOf('=');
  if (eq <= 0 || eq === spec.length - 1) throw new UsageError(`load: --host wants NAME=PATH, got '${spec}'`);
  return { host: spec.slice(0, eq), root: path.resolve(spec.slice(eq + 1)) };
}

function fail(err: unknown): never {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`clinetrail: ${message.split('\n')[0]}\n`);
  process.exit(err instanceof UsageError ? EXIT.usage : err instanceof LockHeldError ? EXIT.locked : EXIT.failed);
}

async function main(): Promise<void> {
  await yargs(hideBin(process.argv))
    .scriptName('clinetrail')
    .usage('$0 <command> [options]\n\nLoads the records Cline (the AI coding agent) leaves in home directories, from a fleet of\ncollected host images, into Parquet and a DuckDB warehouse for SQL hunting.')
    .command(
      'load',
      'Load host images into OUT (Parquet partitions + fleet.duckdb)',
      (y) =>
        y
          .option('fleet', { type: 'string', describe: 'Folder whose child folders are host images, each named by its folder name' })
          .option('host', { type: 'string', array: true, describe: 'A host image named explicitly, NAME=PATH (repeatable)' })
          .option('out', { type: 'string', demandOption: true, describe: 'Output folder: parquet/, fleet.duckdb, state/' })
          .option('concurrency', { type: 'number', default: 2, describe: 'Partitions (host, store) written at once, each in a worker thread' })
          .option('full', { type: 'boolean', default: false, describe: 'Read every partition again, even where no file changed' })
          .option('keep-secrets', {
            type: 'boolean',
            default: false,
            describe: 'Store texts with their API keys and tokens as found (default: each is replaced by [REDACTED:<kind>:<fingerprint>] and listed in the secrets table)',
          })
          .option('quiet', { type: 'boolean', default: false, describe: 'No progress lines on stderr' })
          .example('$0 load --fleet /cases/acme/collections --out /cases/acme/warehouse', 'load every host image of a fleet')
          .example('$0 load --host WS-042=/mnt/ws042 --out ./wh', 'load one image under an explicit host name'),
      async (args) => {
        const hosts = (args.host ?? []).map(parseHost);
        const log = args.quiet ? undefined : (line: string) => process.stderr.write(`${line}\n`);
        const t0 = Date.now();
        const run = await runLoad({ fleet: args.fleet ? path.resolve(args.fleet) : undefined, hosts, out: args.out, concurrency: args.concurrency, full: args.full, keepSecrets: args.keepSecrets, log });
        process.stdout.write(
          `loaded ${run.hosts} host(s): ${run.partitions_written} partition(s) written, ${run.partitions_unchanged} unchanged, ` +
            `${run.partitions_removed} removed; ${run.files_read} file(s), ${run.rows_written} row(s), ${run.parser_errors} parser error(s), ${run.secrets_redacted === false ? 'secrets kept (--keep-secrets)' : `${run.secrets_found ?? 0} secret(s) redacted`} in ${((Date.now() - t0) / 1000).toFixed(1)} s -> ${path.resolve(args.out)}\n`,
        );
      },
    )
    .command(
      'query <sql>',
      'Run SQL on OUT/fleet.duckdb (read-only) and print the result',
      (y) =>
        y
          .positional('sql', { type: 'string', demandOption: true, describe: 'The SQL text' })
          .option('out', { type: 'string', demandOption: true, describe: 'Output folder of a load' })
          .option('format', { choices: ['table', 'csv', 'json'] as const, default: 'table' as OutputFormat, describe: 'Output format' })
          .example("$0 query --out wh \"select host, count(*) from events where kind = 'say:command' group by all\"", 'commands Cline ran, per host'),
      async (args) => {
        const result = await queryWarehouse(path.resolve(args.out), args.sql);
        process.stdout.write(formatResult(result, args.format as OutputFormat));
      },
    )
    .demandCommand(1, 'Give a command: load or query (see --help)')
    .strict()
    .epilogue('Exit codes: 0 done; 1 load or query failed; 2 bad arguments or paths; 3 another load holds OUT.')
    .fail((msg, err) => {
      if (err) fail(err);
      process.stderr.write(`clinetrail: ${msg}\nRun clinetrail --help for usage.\n`);
      process.exit(EXIT.usage);
    })
    .help()
    .parseAsync();
}

main().catch(fail);
