/** The options, examples and help text of `clinetrail query` and `clinetrail export` (yargs builders). */
import type { Argv } from 'yargs';
import type { OutputFormat } from './format.js';
import { type ExportFormat, PART_BYTES_DEFAULT } from '../warehouse/export.js';
import { LOG_FORMAT_OPTION } from './command-log.js';
import { examplesBlock } from './help-examples.js';
import { TEMP_MAX_DEFAULT, TEMP_MAX_ENV } from '../warehouse/query-sandbox.js';

const ALLOW_READ = {
  type: 'string',
  array: true,
  nargs: 1,
  describe:
    'A folder the query may read too, e.g. of an IOC list to join (repeatable). DuckDB then lets the query reach that whole folder; the statement check still refuses every write',
} as const;

const SANDBOX = `Sandbox: the query reads only the warehouse's files and the --allow-read folders, writes no file, loads no extension, and is one statement: select, from, with, values, table, describe, show, summarize, or explain of those.`;

export function queryOptions<T>(y: Argv<T>) {
  return y
    .positional('sql', { type: 'string', demandOption: true, describe: 'The SQL text: one query' })
    .option('out', { type: 'string', demandOption: true, describe: 'Output folder of a load' })
    .option('format', {
      choices: ['table', 'csv', 'json'] as const,
      default: 'table' as OutputFormat,
      describe: 'Output format',
    })
    .option('allow-read', ALLOW_READ)
    .epilogue(
      examplesBlock([
        [
          '$0 query --out wh "select host, count(*) from events where kind = \'say:command\' group by all"',
          'Commands Cline ran, per host',
        ],
        [
          '$0 query --out wh --allow-read /cases/iocs "select e.* from events e join read_csv(\'/cases/iocs/iocs.csv\') i on contains(e.text, i.indicator)"',
          'Rows that hold an indicator of an IOC list',
        ],
      ]),
    )
    .epilogue(
      `${SANDBOX} It spills into a folder of its own under OUT/tmp (or TMPDIR if OUT is read-only), removed when it ends, of at most ${TEMP_MAX_ENV} (default ${TEMP_MAX_DEFAULT}).\n\nOutput: times in UTC, ISO 8601 (2026-05-01T10:00:00.123000Z) whatever TZ is. json: one object per line, numbers and booleans as JSON types (an integer beyond 2^53-1 or a DECIMAL of more than 15 digits as a string of its digits), NULL as null. csv: NULL is an empty field, an empty string "". table: NULL is ∅, cells cut at 100 display columns, aligned per block of 1000 rows (the header is printed again when a later block needs wider columns). The result is streamed: any size in bounded memory.`,
    );
}

export function exportOptions<T>(y: Argv<T>) {
  return y
    .option('out', { type: 'string', demandOption: true, describe: 'Output folder of a load' })
    .option('to', {
      type: 'string',
      demandOption: true,
      describe:
        'The file to write (a new or regular file, outside OUT and the evidence); for parquet-dataset a folder (a new one, or one it wrote before)',
    })
    .option('format', {
      choices: ['timesketch', 'jsonl', 'csv', 'parquet', 'parquet-dataset'] as const satisfies readonly ExportFormat[],
      demandOption: true,
      describe:
        "timesketch (JSONL a Timesketch import takes as is), jsonl, csv, parquet, or parquet-dataset (a folder of parts of --part-size, in the selection's order, for Trino, Spark, Athena)",
    })
    .option('part-size', {
      type: 'string',
      requiresArg: true,
      defaultDescription: `${PART_BYTES_DEFAULT / 1024 / 1024}MB`,
      describe: 'parquet-dataset: close a part once it holds this much (a size: 128MB, 1GB, 512KB, or bytes)',
    })
    .option('where', { type: 'string', describe: 'An SQL condition on the columns of the events view: one expression' })
    .option('sql', {
      type: 'string',
      describe: 'A query whose rows to export instead of the events view (checked as query checks it)',
    })
    .conflicts('where', 'sql')
    .option('force', { type: 'boolean', default: false, describe: 'Replace --to if it exists' })
    .option('allow-read', ALLOW_READ)
    .option('log-format', LOG_FORMAT_OPTION)
    .epilogue(
      examplesBlock([
        ['$0 export --out wh --format timesketch --to /cases/acme/cline.jsonl', 'Every dated event, for a Timesketch import'],
        ['$0 export --out wh --format csv --to ws042.csv --where "host = \'WS-042\'"', "One host's events as CSV"],
        ['$0 export --out wh --format parquet --to s.parquet --sql "select * from sessions"', 'Any query, as Parquet'],
        [
          '$0 export --out wh --format parquet-dataset --to /data/cline-events --force',
          'The whole fleet for Trino, Spark or Athena',
        ],
      ]),
    )
    .epilogue(
      `DuckDB writes the file itself (COPY), streamed in bounded memory, into a folder beside --to and put in place whole: a failed export leaves no file under that name. --to is written only onto nothing or, with --force, a regular file: a folder, device, FIFO, socket or a link to one, --to inside OUT or inside the evidence of OUT's loads (links resolved), a missing folder of --to, or an existing --to without --force exits 2 before anything is written, as does a --where that is more than one expression. timesketch lines carry message, datetime (ISO 8601 UTC), timestamp (epoch microseconds), timestamp_desc and every other column; undated rows are left out and counted. jsonl and csv follow the query output rules (times ISO 8601 UTC); parquet keeps DuckDB's types, but for a 128-bit integer (the text of its digits). row_id is the text of its UUID in every format (0cc175b9-c0f1-b6a8-31c3-99e269772661), which every reader keeps as text and DuckDB joins to the warehouse as it is. parquet-dataset writes the rows in the selection's order (the events view: by host and time) into part-00000.parquet, part-00001.parquet, ..., each closed at the first row group that brings it to --part-size (the last holds the rest), each marked in its footer as clinetrail's; --force replaces only a folder that holds nothing but such parts (or nothing). The selection is checked as query checks a statement (one read-only query, the same sandbox; an explain has no rows to export). Progress and the summary (rows written, rows left out) go to stderr.`,
    );
}
