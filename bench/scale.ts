/**
 * The scale group of issue 26 (point 5), on its own until bench/run.ts prints it: fleets of N copies of
 * the demo host `lnx-u01` (6 stores each), each loaded into a fresh OUT, then hunted and queried for the
 * whole timeline, every command its own process under `/usr/bin/time -v` (bench/measure.ts), with its
 * peak RSS and its time per host. The targets: a load's peak RSS at most 450 MB at every N, the
 * time per host at 5,000 at most 1.2 x that at 500, `hunt` and the query at most 1.0 GB.
 *
 *   node dist/bench/scale.js [--dir D] [--hosts 500,2000,5000]
 *
 * Fleets and OUTs go under D/scale (default: the system's temporary folder), never inside the repository;
 * a fleet of the same N is reused.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Measured, table, timed } from './measure.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DEMO_HOST = path.join(REPO, 'fixtures', 'fleet', 'lnx-u01');
const CLI = path.join(REPO, 'dist', 'src', 'cli', 'main.js');

/** `--name value` of the command line, or `fallback`. */
function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}

/** D/scale/tiny-N: N copies of the demo host, `lnx-00001` ..., written once. */
function tinyFleet(root: string, hosts: number): string {
  const fleet = path.join(root, `tiny-${hosts}`);
  const done = path.join(root, `tiny-${hosts}.done`);
  if (fs.existsSync(done)) return fleet;
  fs.rmSync(fleet, { recursive: true, force: true });
  for (let i = 1; i <= hosts; i++)
    fs.cpSync(DEMO_HOST, path.join(fleet, `lnx-${String(i).padStart(5, '0')}`), { recursive: true });
  fs.writeFileSync(done, '');
  return fleet;
}

/** One command of the CLI, measured; a non-zero exit stops the bench. */
async function measured(args: string[]): Promise<Measured> {
  const m = await timed([process.execPath, CLI, ...args], REPO);
  if (m.exit_code !== 0) throw new Error(`bench: ${args[0]} exited ${m.exit_code}: ${m.stderr.trim().slice(-600)}`);
  return m;
}

const root = path.join(option('dir', os.tmpdir()), 'scale');
const counts = option('hosts', '500,2000,5000').split(',').map(Number);
const rows: Array<Array<string | number | null>> = [];
for (const hosts of counts) {
  const fleet = tinyFleet(root, hosts);
  const out = path.join(root, `out-${hosts}`);
  fs.rmSync(out, { recursive: true, force: true });
  const load = await measured(['load', '--fleet', fleet, '--out', out, '--quiet']);
  const hunt = await measured(['hunt', '--out', out]);
  const query = await measured(['query', '--out', out, '--format', 'csv', 'select * from events order by timestamp_utc']);
  for (const [what, m] of [
    ['load', load],
    ['hunt', hunt],
    ['query (whole timeline)', query],
  ] as const)
    rows.push([hosts, what, m.wall_s.toFixed(1), ((m.wall_s * 1000) / hosts).toFixed(1), m.peak_rss_mb]);
  fs.rmSync(out, { recursive: true, force: true });
}
process.stdout.write(`${table(['hosts', 'command', 'wall s', 'ms per host', 'peak RSS MB'], rows)}\n`);
