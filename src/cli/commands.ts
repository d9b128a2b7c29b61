/**
 * The clinetrail command line as a function: the arguments and two output sinks in, the exit code out.
 * cli/main.ts runs it on the process's argv and streams; tests run the same function in-process.
 * Progress goes to stderr, results to stdout. Exit codes: 0 done; 1 the load, models or query failed
 * (I/O error, SQL error); 2 bad arguments or paths; 3 another load holds OUT (load/lock.ts: or, for a
 * shard load or models, a load they may not run beside); 4 a load kept an empty image's earlier data; 5 a
 * load could not read a host image (it kept its earlier data); 6 `models` built, but shards of the split
 * did not load their hosts. A bad argument is refused
 * before anything is written, with one `clinetrail: ` line on stderr (one JSON error event with
 * `--log-format json`).
 */
import yargs from 'yargs';
import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { HostImage } from '../discover/discover.js';
import type { OutputFormat } from './format.js';
import { exportOptions, queryOptions } from './query-options.js';
import { mcpOptions } from './mcp-options.js';
import { loadOptions, modelsOptions } from './load-options.js';
import { reportOptions } from './report-options.js';
import { huntOptions } from './hunt-options.js';
import { commandLog } from './command-log.js';
import { examplesBlock } from './help-examples.js';
import { parseShard, type Shard } from '../load/shard.js';
import { shardGapText } from '../load/split-check.js';
import { createProgress, errorJsonLine, summaryLine, type LogFormat } from '../load/progress.js';
import { noWarehouseError, oldLayoutError } from '../core/layout.js';
import { runLoad, UsageError } from '../load/run.js';
import { parseHostTimeZones } from './host-tz.js';
import { partitionRows } from '../load/partition-rows.js';
import { clinetrailVersion } from '../load/state.js';
import { LockHeldError } from '../load/lock.js';
import { OwnFault } from '../core/own-fault.js';
import { printable } from '../core/terminal-text.js';
import { type HostStatus, NOT_READ_STATUSES } from '../load/membership.js';

/**
 * Exit codes; `keptEmpty`: the load finished, but a host image gave nothing and its earlier data was kept;
 * `notRead`: the load finished, but a host image could not be read (encrypted, unreadable), its earlier
 * data kept; `shardsNotLoaded`: `models` built the warehouse, but shards of the split did not run or finish.
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, locked: 3, keptEmpty: 4, notRead: 5, shardsNotLoaded: 6 } as const;

/** The passwords of `--zip-password-file`: one per line (a trailing CR dropped), empty lines skipped. */
function readPasswords(file: string | undefined): string[] {
  if (file === undefined) return [];
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`load: --zip-password-file ${file}: ${(err as Error).message}`);
  }
  const passwords = text
    .split('\n')
    .map((l) => l.replace(/\r$/, ''))
    .filter((l) => l !== '');
  if (passwords.length === 0) throw new UsageError(`load: --zip-password-file ${file} holds no password`);
  return passwords;
}

function parseHost(spec: string): HostImage {
  const eq = spec.indexOf('=');
  if (eq <= 0 || eq === spec.length - 1) throw new UsageError(`load: --host wants NAME=PATH, got '${spec}'`);
  return { host: spec.slice(0, eq), root: path.resolve(spec.slice(eq + 1)) };
}

/** The `--concurrency` text as a number: a whole number of at least 1 (runLoad refuses any other). */
function parseConcurrency(text: string): number {
  if (!/^[0-9]+$/.test(text) || Number(text) < 1)
    throw new UsageError(`load: --concurrency wants a whole number of at least 1, got '${text}'`);
  return Number(text);
}

/** The `--part-size` text as bytes: a whole number, with KB, MB or GB (powers of 1024) or none; at least 1KB. */
function parsePartSize(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const m = /^([0-9]+)\s*(B|KB|KIB|MB|MIB|GB|GIB)?$/i.exec(text.trim());
  const unit = { B: 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[(m?.[2] ?? 'B')[0].toUpperCase() as 'B' | 'K' | 'M' | 'G'];
  const bytes = m === null ? Number.NaN : Number(m[1]) * unit;
  if (!(bytes >= 1024 && bytes <= 1024 ** 4))
    throw new UsageError(`export: --part-size wants a size from 1KB to 1024GB (128MB, 1GB, or bytes), got '${text}'`);
  return bytes;
}

/** The `--shard K/N` text as a shard (load/shard.ts), or a usage error. */
function parseShardArg(text: string | undefined): Shard | undefined {
  if (text === undefined) return undefined;
  const shard = parseShard(text);
  if (typeof shard === 'string') throw new UsageError(`load: ${shard}`);
  return shard;
}

/**
 * Refuses an option that takes one value but was given more than once: yargs makes it an array, which
 * would otherwise reach the command as a value of the wrong type (`--fleet a --fleet b`).
 */
function once<T>(command: string, name: string, value: T | T[]): T {
  if (Array.isArray(value)) throw new UsageError(`${command}: --${name} given more than once`);
  return value;
}

/**
 * The `--out` of query, export, hunt, report and mcp: a folder that exists, of the current layout, and
 * (but for mcp, which serves an OUT before its first load and answers `no_warehouse` meanwhile) that
 * holds a warehouse. Anything else is a bad path: exit 2, like every argument error.
 */
function queryOut(command: string, out: string, needsWarehouse = true): string {
  if (out === '') throw new UsageError(`${command}: --out wants the output folder of a load, got ''`);
  const st = statSync(out, { throwIfNoEntry: false });
  if (st === undefined) throw new UsageError(`${command}: --out ${out} not found`);
  if (!st.isDirectory()) throw new UsageError(`${command}: --out ${out} is not a folder`);
  const resolved = path.resolve(out);
  const problem = oldLayoutError(resolved) ?? (needsWarehouse ? noWarehouseError(resolved) : null);
  if (problem !== null) throw new UsageError(`${command}: ${problem}`);
  return resolved;
}

/**
 * Whether errors go out as JSON events: the last `--log-format` of the arguments says json. Read from
 * the raw arguments, so that arguments yargs refuses are reported in the format asked for too.
 */
function wantsJson(argv: readonly string[]): boolean {
  let format: string | undefined;
  argv.forEach((arg, i) => {
    if (arg === '--log-format' || arg === '--logFormat') format = argv[i + 1];
    else if (arg.startsWith('--log-format=') || arg.startsWith('--logFormat=')) format = arg.slice(arg.indexOf('=') + 1);
  });
  return format === 'json';
}

/** The `--allow-read` folders, each of which must be an existing folder. */
function allowReadDirs(command: string, dirs: readonly string[]): string[] {
  return dirs.map((dir) => {
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory())
      throw new UsageError(`${command}: --allow-read ${dir} is not a folder`);
    return path.resolve(dir);
  });
}

/** Where a command's output goes: results to `stdout`, progress and errors to `stderr`. */
export interface CommandIO {
  /** May return a promise that resolves once the text is written (stdout full: a slow reader of a pipe). */
  stdout: (text: string) => void | Promise<void>;
  stderr: (text: string) => void;
  /** The input of `mcp` (its protocol messages); the process's stdin when not given. */
  stdin?: NodeJS.ReadableStream;
  /** Whether stderr is a terminal (a live progress line) or a pipe or file (a line every 10 s). */
  stderrIsTTY: boolean;
  /** The terminal's width, when stdout is one: `--help` is wrapped to it (at most HELP_MAX_WIDTH). */
  columns?: number;
}

/** The width of `--help` when stdout is no terminal, and the widest it gets on a wide one (lines stay readable). */
const HELP_WIDTH = 80;
const HELP_MAX_WIDTH = 120;

/** Arguments yargs refused: the message and a pointer to --help, exit 2. */
class ArgumentError extends UsageError {}

/**
 * The error as one line on stderr: `clinetrail: <message>`, or a JSON error event with `--log-format
 * json`. Returns the exit code of the error. A message may quote evidence (an own fault names the archive
 * member it was copying): the text line is printed through `printable`, and an own fault's message is
 * kept whole, since a line break in it is a name's, not the end of what it says.
 */
function report(err: unknown, io: CommandIO, json: boolean): number {
  const raw = err instanceof Error ? err.message : String(err);
  let message: string;
  if (err instanceof ArgumentError) {
    // yargs' messages may span lines ("Invalid values:\n  Argument: ..."): one line, and where to look
    const flat = raw
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '')
      .join(' ');
    message = `${/^Did you mean /.test(flat) ? `Unknown command. ${flat}` : flat} (see clinetrail --help)`;
  } else {
    message = err instanceof OwnFault ? raw : raw.split('\n')[0];
  }
  io.stderr(json ? errorJsonLine(message) : `clinetrail: ${printable(message)}\n`);
  return err instanceof UsageError ? EXIT.usage : err instanceof LockHeldError ? EXIT.locked : EXIT.failed;
}

/** Runs one command line (`argv` without node and the script); resolves to its exit code, never rejects. */
export async function runCommandLine(argv: readonly string[], io: CommandIO): Promise<number> {
  let code: number = EXIT.ok;
  const json = wantsJson(argv);
  // what a load records as its version (package and code): it hashes the row-shaping modules, so it is
  // worked out only when asked for
  const asksVersion = argv.some((a) => a === '-V' || a === '--version' || a.startsWith('--version='));
  const version = `clinetrail${asksVersion ? ` ${await clinetrailVersion()}` : ''}`;
  // --help and --version: yargs hands their text to parseAsync's callback instead of console.log
  let shown = '';
  try {
    await yargs([...argv])
      .scriptName('clinetrail')
      .usage(
        '$0 <command> [options]\n\nLoads the records Cline (the AI coding agent) leaves in home directories, from a fleet of collected host images, into Parquet and a DuckDB warehouse for SQL hunting.',
      )
      .command('load', 'Load host images into OUT (Parquet partitions + fleet.duckdb)', loadOptions, async (args) => {
        const outArg = once('load', 'out', args.out);
        const fleet = once('load', 'fleet', args.fleet);
        const concurrencyArg = once('load', 'concurrency', args.concurrency);
        const concurrency = concurrencyArg === undefined ? 2 : parseConcurrency(concurrencyArg);
        const logFormat = once('load', 'log-format', args.logFormat) as LogFormat;
        const hosts = (args.host ?? []).map(parseHost);
        const shard = parseShardArg(once('load', 'shard', args.shard));
        const zipPasswords = readPasswords(once('load', 'zip-password-file', args.zipPasswordFile));
        const hostTimeZones = parseHostTimeZones(args.hostTz ?? []);
        const onEvent = createProgress({
          format: logFormat,
          quiet: args.quiet,
          isTTY: io.stderrIsTTY,
          write: io.stderr,
        });
        const t0 = Date.now();
        const out = path.resolve(outArg);
        const run = await runLoad({
          fleet: fleet === undefined || fleet === '' ? fleet : path.resolve(fleet),
          hosts,
          out: outArg,
          concurrency,
          full: args.full,
          keepSecrets: args.keepSecrets,
          prune: args.prune,
          noHunts: args.hunts === false,
          acceptEmpty: args.acceptEmpty ?? [],
          shard,
          zipPasswords,
          hostTimeZones,
          onEvent,
        });
        for (const host of run.hosts_kept_empty) {
          if (args.logFormat === 'json') continue; // the kept-empty event said it
          io.stderr(
            `clinetrail: warning: ${printable(host)}: the image gave no Cline store; the data the warehouse held of it is kept (--accept-empty ${printable(host)} replaces it)\n`,
          );
        }
        if (run.hosts_kept_empty.length > 0) code = EXIT.keptEmpty;
        for (const h of run.host_images.filter((i) => NOT_READ_STATUSES.includes(i.status as HostStatus))) {
          code = EXIT.notRead;
          if (args.logFormat !== 'json')
            io.stderr(
              `clinetrail: warning: ${printable(h.host)}: ${printable(h.image_path)} not read (${h.status}, see its parser row); what the warehouse held of it is kept\n`,
            );
        }
        onEvent({ event: 'done', run, duplicates_dropped: run.duplicates_dropped });
        io.stdout(summaryLine(run, out, Date.now() - t0));
        if (args.rowsTable) {
          // format.js loads DuckDB's value classes (warehouse/values.ts): not for a load that prints no table
          const { resultWriter } = await import('./format.js');
          const table = resultWriter('table');
          const rows = (await partitionRows(out)).map((p) => [p.host, p.store, p.rows]);
          await io.stdout(`\n${table.header(['host', 'store', 'rows'])}${table.rows(rows)}${table.end()}`);
        }
      })
      .command(
        'models',
        'Build OUT/fleet.duckdb from the partitions once, after the shard loads of a split (load --shard K/N)',
        modelsOptions,
        async (args) => {
          const t0 = Date.now();
          const { hostsBuiltText, runModelsCommand } = await import('../load/models.js');
          const out = once('models', 'out', args.out);
          const log = commandLog('models', once('models', 'log-format', args.logFormat), io.stderr);
          const run = await runModelsCommand(out, { noHunts: args.hunts === false });
          const { hosts, raw_rows, duplicates_dropped, event_rows } = run;
          const seconds = (Date.now() - t0) / 1000;
          log.event(
            `models built: ${hosts} host(s), ${raw_rows} row(s), ${duplicates_dropped} duplicate(s) dropped, ${event_rows} event(s) in ${seconds.toFixed(1)} s -> ${path.resolve(out)}`,
            {
              event: 'done',
              hosts,
              raw_rows,
              duplicates_dropped,
              event_rows,
              seconds,
              shards_not_loaded: run.shards_not_loaded.length,
            },
          );
          if (run.hosts_built.length > 0)
            log.event(`warning: ${hostsBuiltText(run.hosts_built)}`, {
              event: 'hosts-built',
              level: 'warning',
              hosts: run.hosts_built,
            });
          for (const gap of run.shards_not_loaded)
            log.event(`warning: ${shardGapText(gap)}`, { event: 'shard-not-loaded', level: 'warning', ...gap });
          if (run.shards_not_loaded.length > 0) code = EXIT.shardsNotLoaded;
        },
      )
      .command(
        'query <sql>',
        'Run one query on OUT/fleet.duckdb, in a read-only sandbox, and print the result',
        queryOptions,
        async (args) => {
          const out = queryOut('query', once('query', 'out', args.out));
          const format = once('query', 'format', args.format) as OutputFormat;
          const allowRead = allowReadDirs('query', args.allowRead ?? []);
          const { runQuery } = await import('./query-run.js');
          await runQuery(out, once('query', 'sql', args.sql), format, allowRead, io.stdout);
        },
      )
      .command(
        'export',
        'Write a selection of OUT (the events view, filtered, or a query) to a file: timesketch, jsonl, csv or parquet; or to a folder of Parquet parts (parquet-dataset)',
        exportOptions,
        async (args) => {
          const out = queryOut('export', once('export', 'out', args.out));
          const { runExport } = await import('./export-run.js');
          await runExport(
            {
              out,
              to: once('export', 'to', args.to),
              format: once('export', 'format', args.format),
              where: once('export', 'where', args.where),
              sql: once('export', 'sql', args.sql),
              force: args.force,
              allowRead: allowReadDirs('export', args.allowRead ?? []),
              partBytes: parsePartSize(once('export', 'part-size', args.partSize)),
            },
            commandLog('export', once('export', 'log-format', args.logFormat), io.stderr),
          );
        },
      )
      // issue 15 (hunt pack): its own section, so the report and mcp commands merge beside it
      .command(
        'hunt',
        'Run the hunt pack (hunts/*.sql) on OUT/fleet.duckdb and store the findings in its table findings',
        huntOptions,
        async (args) => {
          const { runHunt } = await import('./hunt-run.js');
          await runHunt(
            {
              out: args.out === undefined ? undefined : queryOut('hunt', once('hunt', 'out', args.out)),
              ids: args.id ?? [],
              list: args.list,
              format: once('hunt', 'format', args.format) as OutputFormat,
            },
            io.stdout,
            commandLog('hunt', once('hunt', 'log-format', args.logFormat), io.stderr),
          );
        },
      )
      // issue 15: the fleet report (src/report/, cli/report-run.ts)
      .command(
        'report',
        'Write a self-contained HTML report of the fleet in OUT (read-only queries; no network when viewed)',
        reportOptions,
        async (args) => {
          const out = queryOut('report', once('report', 'out', args.out));
          const { runReport } = await import('./report-run.js');
          const log = commandLog('report', once('report', 'log-format', args.logFormat), io.stderr);
          await runReport({ out, to: once('report', 'to', args.to), force: args.force }, log);
        },
      )
      // issue 15: the MCP server (src/mcp/, cli/mcp-options.ts)
      .command(
        'mcp',
        'Serve OUT to an MCP client (Cline, Claude Desktop, ...) over stdio: list tables, read-only queries, session timelines',
        mcpOptions,
        async (args) => {
          const out = queryOut('mcp', once('mcp', 'out', args.out), false);
          const { serveMcp } = await import('../mcp/server.js');
          await serveMcp({ out, input: io.stdin ?? process.stdin, write: io.stdout, log: (line) => io.stderr(`${line}\n`) });
        },
      )
      .demandCommand(1, 'Give a command: load, models, query, export, hunt, report or mcp')
      .strict()
      .recommendCommands()
      .epilogue(
        examplesBlock([
          [
            '$0 load --fleet /cases/acme/collections --out /cases/acme/warehouse',
            'Load a fleet: each child folder or archive is a host image',
          ],
          [
            `$0 query --out /cases/acme/warehouse "select host, count(*) from events where kind = 'say:command' group by all"`,
            'Commands Cline ran, per host',
          ],
          [
            '$0 report --out /cases/acme/warehouse --to /cases/acme/report.html',
            'The fleet report, with the findings of the hunt pack',
          ],
        ]),
      )
      .epilogue(
        'Exit codes: 0 done; 1 the command failed (load, models, query, export, hunt, report); 2 bad arguments or paths; 3 another load (or models, a hunt, or a shard load in conflict) holds OUT; 4 loaded, but a host image gave no Cline store and its earlier data was kept; 5 loaded, but a host image could not be read (an encrypted archive without its password, a corrupt or truncated archive, an image not searched): its status in hosts is encrypted or unreadable, its parser row says why, its earlier data is kept; 6 models built, but shards of the split did not run or finish.',
      )
      .fail((msg, err) => {
        throw err ?? new ArgumentError(msg);
      })
      .exitProcess(false)
      .wrap(Math.min(io.columns ?? HELP_WIDTH, HELP_MAX_WIDTH))
      .help()
      .alias('help', 'h')
      .version(version)
      .alias('version', 'V')
      .parseAsync([...argv], {}, (_err, _args, output) => {
        shown = output;
      });
  } catch (err) {
    return report(err, io, json);
  }
  if (shown !== '') io.stdout(`${shown}\n`);
  return code;
}
