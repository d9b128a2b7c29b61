/**
 * `clinetrail hunt`: runs the hunt pack (or the hunts of `--id`) on OUT's warehouse in the query sandbox,
 * stores the findings in OUT/fleet.duckdb (hunt/findings-table.ts) under the OUT lock, and prints one
 * summary line per hunt and host on stdout; progress goes to stderr. `--list` prints the pack.
 */
import * as path from 'node:path';
import { type Hunt, loadHuntPack } from '../hunt/pack.js';
import { type HuntRun, selectFindings } from '../hunt/run.js';
import { storeFindings } from '../hunt/findings-table.js';
import { acquireLock } from '../load/lock.js';
import { UsageError } from '../load/load-inputs.js';
import { withQueryConnection } from '../warehouse/build.js';
import type { CommandLog } from './command-log.js';
import { type OutputFormat, resultWriter } from './format.js';
import type { OutValue } from '../warehouse/values.js';

/** What `clinetrail hunt` was asked. */
export interface HuntCommand {
  out: string | undefined;
  ids: readonly string[];
  list: boolean;
  format: OutputFormat;
}

type Write = (text: string) => void | Promise<void>;

async function printTable(stdout: Write, format: OutputFormat, columns: string[], rows: OutValue[][]): Promise<void> {
  const writer = resultWriter(format);
  const text = writer.header(columns) + writer.rows(rows) + writer.end();
  if (text !== '') await stdout(text);
}

/** The hunts `ids` names, in pack order; an id not in the pack is a usage error. */
function pick(pack: readonly Hunt[], ids: readonly string[]): Hunt[] {
  if (ids.length === 0) return [...pack];
  const known = new Set(pack.map((h) => h.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw new UsageError(
      `hunt: unknown hunt id ${unknown.map((id) => `'${id}'`).join(', ')} (clinetrail hunt --list lists them)`,
    );
  return pack.filter((h) => ids.includes(h.id));
}

/**
 * The OUT of a hunt, given resolved and checked as a query's (cli/commands.ts queryOut: it exists and
 * holds a warehouse, checked before the lock creates OUT/state); only `--list` goes without.
 */
function huntOut(out: string | undefined): string {
  if (out === undefined) throw new UsageError('hunt: give --out OUT, the output folder of a load (or --list)');
  return out;
}

/** The summary: per hunt, one row per host with its findings, or one row without host for a hunt that found none. */
function summaryRows(runs: readonly HuntRun[], hostsOf: Map<string, Map<string, number>>): OutValue[][] {
  const rows: OutValue[][] = [];
  for (const run of runs) {
    const hosts = [...(hostsOf.get(run.hunt.id) ?? new Map<string, number>())].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (hosts.length === 0) rows.push([run.hunt.id, run.hunt.severity, null, 0]);
    for (const [host, count] of hosts) rows.push([run.hunt.id, run.hunt.severity, host, count]);
  }
  return rows;
}

/** Runs `clinetrail hunt`. */
export async function runHunt(cmd: HuntCommand, stdout: Write, log: CommandLog): Promise<void> {
  const pack = await loadHuntPack();
  if (cmd.list) {
    const rows = pack.map((h) => [h.id, h.severity, h.attack.join(',') || null, h.title]);
    await printTable(stdout, cmd.format, ['id', 'severity', 'attack', 'title'], rows);
    return;
  }
  const hunts = pick(pack, cmd.ids);
  const out = huntOut(cmd.out);
  const release = await acquireLock(out, 'hunt');
  try {
    const runs: HuntRun[] = [];
    const onHunt = (run: HuntRun) => {
      runs.push(run);
      const cut = run.truncated ? ' (cut there: it found more)' : '';
      const { id: hunt_id, severity } = run.hunt;
      const fields = {
        event: 'hunt',
        hunt_id,
        severity,
        findings: run.findings,
        truncated: run.truncated,
        seconds: run.ms / 1000,
      };
      log.event(`hunt ${hunt_id}: ${run.findings} finding(s)${cut} in ${(run.ms / 1000).toFixed(1)} s`, fields);
    };
    const findings = await withQueryConnection(out, {}, (conn) => selectFindings(out, conn, hunts, { onHunt })).catch((err) => {
      // the query connection prefixes its errors with `query: `; a hunt's own error names the hunt
      throw new Error((err as Error).message.replace(/^query: (?=hunt )/, ''));
    });
    await storeFindings(out, runs, findings);
    const hostsOf = new Map<string, Map<string, number>>();
    for (const f of findings) {
      const hosts = hostsOf.get(f.hunt_id) ?? new Map<string, number>();
      hosts.set(f.host, (hosts.get(f.host) ?? 0) + 1);
      hostsOf.set(f.hunt_id, hosts);
    }
    await printTable(stdout, cmd.format, ['hunt_id', 'severity', 'host', 'findings'], summaryRows(runs, hostsOf));
    const warehouse = path.join(out, 'fleet.duckdb');
    log.event(`${findings.length} finding(s) of ${runs.length} hunt(s) stored in ${warehouse} (table findings)`, {
      event: 'done',
      findings: findings.length,
      hunts: runs.length,
      warehouse,
    });
  } finally {
    await release();
  }
}
