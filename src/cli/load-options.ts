/** The options, examples and help text of `clinetrail load` and `clinetrail models` (yargs builders). */
import type { Argv } from 'yargs';
import { LOG_FORMAT_OPTION } from './command-log.js';
import { examplesBlock } from './help-examples.js';

export function loadOptions<T>(y: Argv<T>) {
  return y
    .option('fleet', {
      type: 'string',
      requiresArg: true,
      describe:
        'Folder whose child folders and archives (.zip, .tar, .tar.gz, .tgz) are host images, each named by its folder or archive name (a Velociraptor collection: its Hostname)',
    })
    .option('host', {
      type: 'string',
      array: true,
      describe: 'A host image (folder or archive) named explicitly, NAME=PATH (repeatable)',
    })
    .option('out', { type: 'string', demandOption: true, describe: 'Output folder: parquet/, fleet.duckdb, state/' })
    .option('concurrency', {
      // a string, checked by parseConcurrency: yargs' number type makes 'abc' null and '2.5' 2.5
      type: 'string',
      defaultDescription: '2',
      describe: 'Partitions (host, store) written at once, each in a worker thread (a whole number >= 1)',
    })
    .option('full', {
      type: 'boolean',
      default: false,
      describe: 'Read every partition again, even where no file changed',
    })
    .option('keep-secrets', {
      type: 'boolean',
      default: false,
      describe:
        'Store texts with their API keys and tokens as found (default: each is replaced by [REDACTED:<kind>:<fingerprint>] and listed in the secrets table)',
    })
    .option('quiet', {
      type: 'boolean',
      default: false,
      describe: 'No progress on stderr (the summary line still goes to stdout)',
    })
    .option('rows-table', {
      type: 'boolean',
      default: false,
      describe:
        'After the summary line, print on stdout the rows per host and store of the whole warehouse, from the partition manifests (what `select host, store, count(*) from raw_events` gives, without a query)',
    })
    .option('prune', {
      type: 'boolean',
      default: false,
      describe:
        'Withdraw the hosts the warehouse holds that are not in this input (default: a load updates the hosts it is given and keeps every other)',
    })
    .option('hunts', {
      type: 'boolean',
      default: true,
      describe:
        'Run the hunt pack (hunts/*.sql) into the warehouse whenever the models are rebuilt, so findings and hunt_runs always match it; --no-hunts builds it with no finding and a hunt_runs row saying so',
    })
    .option('accept-empty', {
      type: 'string',
      array: true,
      describe:
        'A host whose image now gives no Cline store: replace its earlier data with nothing (default: the data is kept, the load exits 4) (repeatable)',
    })
    .option('zip-password-file', {
      type: 'string',
      requiresArg: true,
      describe:
        'A file of passwords, one per line, tried on each zip whose members are encrypted (ZipCrypto or AES); without one, such a zip is not read (status encrypted, exit 5)',
    })
    .option('host-tz', {
      type: 'string',
      array: true,
      describe:
        "The time zone of a host's local clocks, HOST=Area/City (an IANA zone, e.g. Europe/Berlin), or a CSV file of host,time_zone lines (repeatable): the 1.x logs' times, written with no zone, are read in it (default: as if UTC); hosts.time_zone records it",
    })
    .option('shard', {
      type: 'string',
      requiresArg: true,
      describe:
        'Load only shard K of N (1 <= K <= N) of the hosts, assigned by a hash of the host name, beside the other shards running at the same time on this OUT; builds no model: run clinetrail models --out OUT once every shard is done',
    })
    .option('log-format', {
      choices: ['text', 'json'] as const,
      default: 'text',
      describe:
        'Progress on stderr: text (a live line on a terminal, a line every 10 s otherwise) or json (one object per event)',
    })
    .epilogue(
      examplesBlock([
        ['$0 load --fleet /cases/acme/collections --out /cases/acme/warehouse', 'Load every host image of a fleet'],
        ['$0 load --host WS-042=/mnt/ws042 --out ./wh', 'Load one image under an explicit host name'],
        [
          'parallel $0 load --fleet F --out wh --shard {}/4 ::: 1 2 3 4 && $0 models --out wh',
          'Four shards at once, then the models once (deploy/ has Kubernetes and Slurm recipes)',
        ],
      ]),
    );
}

export function modelsOptions<T>(y: Argv<T>) {
  return y
    .option('out', { type: 'string', demandOption: true, describe: 'Output folder of a load' })
    .option('hunts', {
      type: 'boolean',
      default: true,
      describe: 'Run the hunt pack into the warehouse built (--no-hunts: no finding, and a hunt_runs row saying so)',
    })
    .option('log-format', LOG_FORMAT_OPTION)
    .epilogue(
      examplesBlock([
        [
          '$0 models --out /cases/acme/warehouse',
          'After the shard loads (load --shard K/N) of a split are all done: build fleet.duckdb once',
        ],
      ]),
    )
    .epilogue(
      'Builds OUT/fleet.duckdb from the partitions every load and shard load committed (their manifests), runs the hunt pack into it (unless --no-hunts), then deletes the files no manifest names (older generations, withdrawn partitions), as a plain load does at its end. It takes OUT for itself: it is refused (exit 3) while a load or any shard load runs, and a load or shard load started meanwhile is refused. On an OUT written by plain loads it rebuilds the same warehouse. Prints one line on stderr: rows, duplicates dropped, time; then one warning line per shard of the split that did not run or finish since the last complete build, naming its hosts (status shard not loaded in hosts; load_runs shows the shard). Exit codes: 0 built; 1 the build failed (fleet.duckdb is kept as it was); 2 bad --out; 3 a load holds OUT; 6 built, but shards of the split did not run or finish.',
    );
}
