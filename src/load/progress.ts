/**
 * Progress of a load on stderr: a live line on a terminal; on a pipe or file (nightly jobs) a plain line
 * every LOG_INTERVAL_MS and for every problem; with `--log-format json`, one JSON object per event. Names
 * from evidence (hosts, files, members, the messages quoting them) are printed through
 * core/terminal-text.ts: a text line never carries a control character, a JSON line carries them escaped.
 */
import type { RunRecord } from '../core/records.js';
import { printable, terminalSafeJson } from '../core/terminal-text.js';

export type LogFormat = 'text' | 'json';

/** What runLoad reports as it goes. */
export type LoadEvent =
  | { event: 'discovered'; hosts: number; partitions: number }
  | {
      event: 'problem';
      host: string;
      /** The path as the evidence names it: for a member of an archive, `ARCHIVE!MEMBER` (core/row.ts memberText). */
      file: string;
      /** For a member of an archive (or an encoded collection folder): the archive as given and the member as stored. */
      archive?: string;
      member?: string;
      message: string;
    }
  | {
      event: 'partition';
      host: string;
      store: string;
      unchanged: boolean;
      /** Why a written partition was read again (load/state.ts rereadReason), e.g. `inputs changed`. */
      reason?: string;
      rows: number;
      files: number;
      bytes: number;
      parser_errors: number;
    }
  | { event: 'models'; rebuilt: boolean }
  /** The models built host by host (warehouse/host-models.ts): of how many hosts, each one not current. */
  | { event: 'host-models'; hosts: number; ms: number }
  /** The hunt pack run into the warehouse just built (hunt/build-hunts.ts); `not_run` says why none ran. */
  | { event: 'hunts'; hunts: number; findings: number; not_run: string | null; ms: number }
  /** A host of the input whose image gave no store while the warehouse held data for it: kept. */
  | { event: 'kept-empty'; host: string }
  | { event: 'migrated'; partitions: number }
  | { event: 'done'; run: RunRecord; duplicates_dropped: number | null };

/** Seconds between plain progress lines when stderr is not a terminal. */
const LOG_INTERVAL_MS = 10_000;

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/** One event as a line of `--log-format json`: its time, then its fields. */
function jsonLine(e: object, at: number): string {
  return `${terminalSafeJson({ ts: new Date(at).toISOString(), ...e })}\n`;
}

/**
 * An error that ends the command, as a line of `--log-format json`: the shape of the progress events,
 * `{"ts":...,"event":"error","level":"error","message":...}`, written even with `--quiet`.
 */
export function errorJsonLine(message: string, at: number = Date.now()): string {
  return jsonLine({ event: 'error', level: 'error', message }, at);
}

export interface ProgressOptions {
  format: LogFormat;
  quiet: boolean;
  /** Where lines go (stderr). */
  write: (text: string) => void;
  isTTY: boolean;
  now?: () => number;
}

/** A sink for LoadEvents that renders them as the options say. */
export function createProgress(options: ProgressOptions): (e: LoadEvent) => void {
  const now = options.now ?? Date.now;
  const started = now();
  let total = 0;
  let done = 0;
  let rows = 0;
  let bytes = 0;
  let lastLine = 0;
  let live = false;
  const hostsSeen = new Set<string>();
  const status = () => {
    const elapsed = now() - started;
    const rate = elapsed > 0 ? bytes / 1024 / 1024 / (elapsed / 1000) : 0;
    const eta = done > 0 && done < total ? ` ETA ${duration(((total - done) * elapsed) / done)}` : '';
    return `[${done}/${total} partitions, ${hostsSeen.size} hosts] ${mb(bytes)} read, ${rows} rows, ${rate.toFixed(1)} MB/s${eta}`;
  };
  const clearLive = () => {
    if (live) options.write('\r\x1b[K');
    live = false;
  };
  return (e) => {
    if (options.format === 'json') {
      if (!options.quiet || e.event === 'done' || e.event === 'kept-empty') options.write(jsonLine(e, now()));
      return;
    }
    if (options.quiet) return;
    switch (e.event) {
      case 'discovered':
        total = e.partitions;
        options.write(`discovered ${e.hosts} host(s), ${e.partitions} partition(s)\n`);
        break;
      case 'problem':
        clearLive();
        options.write(`${printable(`${e.host}: ${e.file}: ${e.message}`)}\n`);
        break;
      case 'partition':
        done += 1;
        rows += e.rows;
        bytes += e.bytes;
        hostsSeen.add(e.host);
        if (options.isTTY) {
          options.write(`\r\x1b[K${status()}`);
          live = true;
        } else if (now() - lastLine >= LOG_INTERVAL_MS || done === total) {
          lastLine = now();
          options.write(`${status()}\n`);
        }
        break;
      case 'migrated':
        clearLive();
        options.write(`moved ${e.partitions} partition(s) of the old host=H/store=S layout to the current one\n`);
        break;
      case 'models':
        clearLive();
        options.write(e.rebuilt ? 'building warehouse models\n' : 'no partition changed: warehouse models kept\n');
        break;
      case 'host-models':
        clearLive();
        options.write(`models of ${e.hosts} host(s) built (${duration(e.ms)})\n`);
        break;
      case 'hunts':
        clearLive();
        options.write(
          e.not_run === null
            ? `hunts: ${e.findings} finding(s) of ${e.hunts} hunt(s) stored in the warehouse (${duration(e.ms)})\n`
            : `hunts ${e.not_run}\n`,
        );
        break;
      case 'done':
        clearLive();
        break;
    }
  };
}

/** `; N <what>: a, b` for a non-empty list of hosts (the first 10 named). */
function hostList(what: string, hosts: readonly string[] | null | undefined): string {
  if (!hosts || hosts.length === 0) return '';
  // a host name may be thousands of characters long (a collection's Hostname): the line shows its start
  const shown = hosts.slice(0, 10).map((h) => (h.length > 100 ? `${h.slice(0, 100)}...` : h));
  const named = shown.join(', ') + (hosts.length > 10 ? `, ... (+${hosts.length - 10})` : '');
  return `; ${hosts.length} ${what}: ${named}`;
}

/** The final summary line (stdout), printed whatever the log options; the hosts it names are printed through `printable`. */
export function summaryLine(run: RunRecord, out: string, elapsedMs: number): string {
  const secrets =
    run.secrets_redacted === false ? 'secrets kept (--keep-secrets)' : `${run.secrets_found ?? 0} secret(s) redacted`;
  return `${printable(
    `loaded ${run.hosts} host(s): ${run.partitions_written} partition(s) written, ${run.partitions_unchanged} unchanged, ` +
      `${run.partitions_removed} removed; ${run.files_read} file(s) read, ${run.files_unchanged} unchanged; ${run.rows_written} row(s), ` +
      `${run.parser_errors} parser error(s), ${run.duplicates_dropped ?? '-'} duplicate(s) dropped, ${secrets} in ${(elapsedMs / 1000).toFixed(1)} s -> ${out}` +
      hostList('host(s) not in this input kept', run.prune === true ? [] : run.hosts_absent) +
      hostList('host(s) not in this input withdrawn (--prune)', run.prune === true ? run.hosts_absent : []) +
      hostList('empty image(s), earlier data kept', run.hosts_kept_empty) +
      hostList('image(s) with no Cline data', hostsWith(run, 'no Cline data')) +
      hostList('image(s) not read whole (see the parser rows)', hostsWith(run, 'unreadable')) +
      hostList('encrypted image(s), not read (see the parser rows; --zip-password-file)', hostsWith(run, 'encrypted')) +
      hostList('image(s) whose host name another image claims, loaded as', renamed(run)) +
      (run.shard_count == null
        ? ''
        : `; shard ${run.shard_index}/${run.shard_count}: warehouse not assembled, run clinetrail models --out ${out} once every shard is done`),
  )}\n`;
}

/** `NAME#2 (NAME)`: the hosts renamed, each with the name it claims. */
function renamed(run: RunRecord): string[] {
  return (run.host_images ?? [])
    .filter((h) => h.hostname != null && h.hostname !== h.host)
    .map((h) => `${h.host} (${h.hostname})`);
}

function hostsWith(run: RunRecord, status: string): string[] {
  return (run.host_images ?? []).filter((h) => h.status === status).map((h) => h.host);
}
