/**
 * The scale group of `node dist/bench/run.js` (issue 26 point 5): is the load flat in the number of hosts?
 * Fleets of N copies of the demo host `lnx-u01` (6 stores each; N = --scale-hosts, default 500, 2,000 and
 * 5,000) and the generated fleet of --scale-generated hosts (default 600: `--hosts 600 --mb 6000 --big-mb 0`
 * of bench/generate.ts, 6.9 GB), each loaded into a fresh OUT with `--no-hunts`, then hunted (`hunt`) and
 * queried for the whole timeline, every command its own process under `/usr/bin/time -v`
 * (bench/measure.ts), with its peak RSS and its time per host. The load and the hunt are measured apart, so
 * each peak is its own. The issue's targets: a load's peak RSS at most 450 MB on every fleet, the load's
 * time per host at the largest N at most 1.2 x that at the smallest, `hunt` and the query at most 1.0 GB.
 *
 * Fleets and OUTs go under D/scale (never inside the repository); a fleet of the same N (or the same
 * generator options) is reused. The query's rows go to a file under D/scale, removed with its OUT.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { existingFleet, generateFleet } from './generate.js';
import { type Measured, table, timed } from './measure.js';
import type { ScalingContext } from './scaling.js';

/** The issue's targets. */
const LOAD_RSS_TARGET_MB = 450;
const READ_RSS_TARGET_MB = 1024;
const PER_HOST_GROWTH_TARGET = 1.2;

/** One fleet's three commands. */
export interface ScaleFleet {
  fleet: string;
  hosts: number;
  load: ScaleCommand;
  hunt: ScaleCommand;
  query: ScaleCommand;
}

export interface ScaleCommand {
  wall_s: number;
  ms_per_host: number;
  peak_rss_mb: number | null;
}

export interface ScaleResult {
  fleets: ScaleFleet[];
  /** Load time per host of the largest tiny fleet over that of the smallest (null with fewer than two). */
  per_host_growth: number | null;
  load_rss_met: boolean;
  read_rss_met: boolean;
  per_host_met: boolean | null;
}

/** D/scale/tiny-N: N copies of the demo host, `lnx-00001` ..., written once. */
function tinyFleet(ctx: ScalingContext, root: string, hosts: number): string {
  const fleet = path.join(root, `tiny-${hosts}`);
  const done = path.join(root, `tiny-${hosts}.done`);
  if (fs.existsSync(done)) return fleet;
  ctx.log(`scale: writing ${hosts} copies of the demo host under ${fleet} ...`);
  const demoHost = path.join(ctx.repo, 'fixtures', 'fleet', 'lnx-u01');
  fs.rmSync(fleet, { recursive: true, force: true });
  for (let i = 1; i <= hosts; i++)
    fs.cpSync(demoHost, path.join(fleet, `lnx-${String(i).padStart(5, '0')}`), { recursive: true });
  fs.writeFileSync(done, '');
  return fleet;
}

/** The generated fleet of `hosts` hosts, 10 MB each, no big file (generated once per seed and size). */
function generatedFleet(ctx: ScalingContext, root: string, hosts: number): string {
  const gen = { dir: path.join(root, `generated-${hosts}`), seed: ctx.seed, hosts, mb: hosts * 10, bigMb: 0 };
  fs.mkdirSync(gen.dir, { recursive: true });
  const found = existingFleet(gen);
  if (found) return found.fleet;
  ctx.log(`scale: generating ${gen.mb} MB over ${hosts} hosts under ${gen.dir} ...`);
  return generateFleet(gen).fleet;
}

/** A word for `sh -c`. */
const shellWord = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * One command of the CLI, measured, its stdout into `stdout` when given (a whole timeline is not held by
 * the bench: `exec` makes the shell the CLI, so time measures the CLI alone); a non-zero exit stops the bench.
 */
async function measured(ctx: ScalingContext, args: string[], hosts: number, stdout?: string): Promise<ScaleCommand> {
  const argv = [ctx.node, ctx.cli, ...args];
  const m: Measured = await timed(
    stdout === undefined ? argv : ['sh', '-c', `exec ${argv.map(shellWord).join(' ')} > ${shellWord(stdout)}`],
    ctx.repo,
  );
  if (m.exit_code !== 0) throw new Error(`bench: ${args[0]} exited ${m.exit_code}: ${m.stderr.trim().slice(-600)}`);
  return { wall_s: m.wall_s, ms_per_host: (m.wall_s * 1000) / hosts, peak_rss_mb: m.peak_rss_mb };
}

/** Loads, hunts and queries one fleet in a fresh OUT (removed after). */
async function measureFleet(ctx: ScalingContext, root: string, fleet: string, hosts: number): Promise<ScaleFleet> {
  const out = path.join(root, 'out');
  const rows = path.join(root, 'timeline.csv');
  fs.rmSync(out, { recursive: true, force: true });
  try {
    ctx.log(`scale: loading ${fleet} (${hosts} hosts) ...`);
    const load = await measured(ctx, ['load', '--fleet', fleet, '--out', out, '--quiet', '--no-hunts'], hosts);
    const hunt = await measured(ctx, ['hunt', '--out', out], hosts);
    const sql = 'select * from events order by host, timestamp_utc';
    const query = await measured(ctx, ['query', '--out', out, '--format', 'csv', sql], hosts, rows);
    return { fleet, hosts, load, hunt, query };
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
    fs.rmSync(rows, { force: true });
  }
}

/** The scale group: `tiny` fleets of copies of the demo host, then the generated fleet (0: none). */
export async function scaleGroup(ctx: ScalingContext, tiny: number[], generated: number): Promise<ScaleResult> {
  const root = path.join(ctx.dir, 'scale');
  fs.mkdirSync(root, { recursive: true });
  const fleets: ScaleFleet[] = [];
  for (const hosts of tiny) fleets.push(await measureFleet(ctx, root, tinyFleet(ctx, root, hosts), hosts));
  const tinyDone = [...fleets];
  if (generated > 0) fleets.push(await measureFleet(ctx, root, generatedFleet(ctx, root, generated), generated));
  const sorted = tinyDone.sort((a, b) => a.hosts - b.hosts);
  const growth = sorted.length < 2 ? null : sorted[sorted.length - 1].load.ms_per_host / sorted[0].load.ms_per_host;
  return {
    fleets,
    per_host_growth: growth,
    load_rss_met: fleets.every((f) => (f.load.peak_rss_mb ?? Infinity) <= LOAD_RSS_TARGET_MB),
    read_rss_met: fleets.every(
      (f) => Math.max(f.hunt.peak_rss_mb ?? Infinity, f.query.peak_rss_mb ?? Infinity) <= READ_RSS_TARGET_MB,
    ),
    per_host_met: growth === null ? null : growth <= PER_HOST_GROWTH_TARGET,
  };
}

/** The group's table and its targets, as `make bench` prints them. */
export function scaleText(r: ScaleResult): string {
  const yesNo = (met: boolean | null) => (met === null ? '-' : met ? 'yes' : 'no');
  const rows = r.fleets.flatMap((f) =>
    (
      [
        ['load --no-hunts', f.load],
        ['hunt', f.hunt],
        ['query (whole timeline)', f.query],
      ] as const
    ).map(([what, c]) => [
      `${f.hosts} (${path.basename(f.fleet) === 'fleet' ? 'generated' : 'tiny'})`,
      what,
      c.wall_s,
      c.ms_per_host,
      c.peak_rss_mb,
    ]),
  );
  return [
    'Scale: fleets of N copies of the demo host lnx-u01 and the generated fleet; each command its own process on a fresh OUT.',
    '',
    table(['hosts', 'command', 'wall s', 'ms per host', 'peak RSS MB'], rows),
    `load peak RSS <= ${LOAD_RSS_TARGET_MB} MB on every fleet: ${yesNo(r.load_rss_met)}; hunt and query <= ${READ_RSS_TARGET_MB} MB: ${yesNo(r.read_rss_met)}`,
    `load time per host, largest tiny fleet / smallest: ${r.per_host_growth === null ? '-' : r.per_host_growth.toFixed(2)} (target <= ${PER_HOST_GROWTH_TARGET}: ${yesNo(r.per_host_met)})`,
  ].join('\n');
}
