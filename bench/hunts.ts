/**
 * The `hunts` group of `make bench` (issue 27): the hunt pack on the bench's generated fleet, which is ordinary
 * work by construction (bench/content.ts plants no attack), so every finding there is a false positive of its
 * hunt, and a hunt that fires says why in its false-positives header (docs/BENCHMARKS.md). The fleet is the core
 * group's (generated, or reused when its seed and size match); one load with --no-hunts, then each round one
 * `clinetrail hunt` of the whole pack, timed, and its findings counted per hunt from hunt_runs.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { existingFleet, generateFleet, type GenerateOptions } from './generate.js';
import { median, run, table, timed } from './measure.js';
import type { ScalingContext } from './scaling.js';

export interface HuntsResult {
  hosts: number;
  events: number;
  /** The pack's wall time and peak RSS, medians over rounds. */
  wall_s: number | null;
  peak_rss_mb: number | null;
  /** Findings of each hunt on the fleet (the same every round: the fleet does not change). */
  findings: Record<string, number>;
}

/** The fleet of the core group at this size (bench/run.ts `core`). */
export function coreFleet(ctx: Pick<ScalingContext, 'dir' | 'seed' | 'small'>): GenerateOptions {
  return ctx.small
    ? { dir: ctx.dir, seed: ctx.seed, hosts: 20, mb: 60, bigMb: 100 }
    : { dir: ctx.dir, seed: ctx.seed, hosts: 200, mb: 1024, bigMb: 1024 };
}

export async function huntPack(ctx: ScalingContext): Promise<HuntsResult> {
  const gen = coreFleet(ctx);
  const m = existingFleet(gen) ?? generateFleet(gen);
  const out = path.join(ctx.dir, 'out-hunts');
  fs.rmSync(out, { recursive: true, force: true });
  ctx.log(`hunts: loading ${m.fleet} (--no-hunts) ...`);
  await run([ctx.node, ctx.cli, 'load', '--fleet', m.fleet, '--out', out, '--quiet', '--no-hunts'], ctx.repo);
  const query = async (sql: string) =>
    (await run([ctx.node, ctx.cli, 'query', '--out', out, '--format', 'json', sql], ctx.repo))
      .trim()
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Record<string, string | number>);
  const walls: number[] = [];
  const rss: number[] = [];
  for (let round = 1; round <= ctx.rounds; round++) {
    const x = await timed([ctx.node, ctx.cli, 'hunt', '--out', out], ctx.repo);
    if (x.exit_code !== 0) throw new Error(`bench: hunt exited ${x.exit_code}: ${x.stderr.trim().slice(-600)}`);
    walls.push(x.wall_s);
    if (x.peak_rss_mb !== null) rss.push(x.peak_rss_mb);
    ctx.log(`round ${round}: hunts ${x.wall_s.toFixed(2)} s, peak RSS ${x.peak_rss_mb?.toFixed(0)} MB`);
  }
  const findings = Object.fromEntries(
    (await query('select hunt_id, count_findings as n from hunt_runs order by hunt_id')).map((r) => [
      String(r.hunt_id),
      Number(r.n),
    ]),
  );
  const [size] = await query('select count(distinct host) as hosts, count(*) as events from events');
  fs.rmSync(out, { recursive: true, force: true });
  return {
    hosts: Number(size.hosts),
    events: Number(size.events),
    wall_s: median(walls),
    peak_rss_mb: median(rss),
    findings,
  };
}

/** The group's table: each hunt's findings on a fleet of ordinary work. */
export function huntsText(r: HuntsResult, rounds: number): string {
  return [
    `Hunt pack on the bench fleet (${r.hosts} hosts, ${r.events} events, ordinary work): ${r.wall_s?.toFixed(1)} s, peak RSS ${r.peak_rss_mb?.toFixed(0)} MB (median of ${rounds}). Every finding is a false positive.`,
    '',
    table(
      ['hunt', 'findings'],
      Object.entries(r.findings).map(([id, n]) => [id, String(n)]),
    ),
  ].join('\n');
}
