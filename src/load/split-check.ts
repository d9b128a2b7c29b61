/**
 * Whether every shard of a split (`load --shard K/N`, load/shard.ts) loaded its hosts, so that
 * `clinetrail models` never builds a warehouse that hides a host without saying so. What it reads:
 * - the run records (load/run-records.ts): a shard load writes its record as it starts, its hosts
 *   `shard not loaded`, and replaces it at its end; a shard killed or failed leaves the first one;
 * - `state/shards/split-<N>.json`, the whole input of the split (every host and image, all shards'),
 *   written by each shard as it starts: a shard that never started leaves nothing, and its hosts are
 *   known only from the others' listing;
 * - `state/shards/complete.json`, the newest start among the runs of the last split `models` found
 *   complete: the runs after it (and after the newest plain load, which covers every host) are the
 *   split's current round, in which every shard 1..N of its N (the N of the round's newest shard run)
 *   must have run and finished.
 * A shard of the round with no run is `not run`: `models` records it in `state/runs/` (`shard_missing`,
 * its hosts `shard not loaded`), once per round; one whose newest run has no end is `not finished`.
 */
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { NO_FIGURES, type RunStart, type UnfinishedRunRecord } from '../core/records.js';
import { readRunRecords, recordRun } from './run-records.js';
import { printable } from '../core/terminal-text.js';
import { type Shard, shardOfHost, shardText } from './shard.js';

/** The status of the hosts of a shard that did not finish or did not run (`hosts.status`). */
export const SHARD_NOT_LOADED = 'shard not loaded';

/** One host image of a split's input. */
interface ListedImage {
  host: string;
  image_path: string;
}

/** What `state/shards/split-<N>.json` holds. */
interface SplitListing {
  count: number;
  fleet: string | null;
  images: ListedImage[];
}

/** A shard of the current split that did not load its hosts. */
export interface ShardGap {
  shard: Shard;
  /** `not run`: no run of it in the round; `not finished`: its newest run was killed or failed. */
  state: 'not run' | 'not finished';
  /** Start of the run not finished; null for a shard not run. */
  started_at: string | null;
  /** Its hosts, sorted; for a shard not run, those of the split's listing (none known without one). */
  hosts: string[];
  /** For a shard not run: its host images by the listing, null when no listing names them. */
  images: ListedImage[] | null;
}

/** The current round of the split, as `models` finds it. */
export interface SplitCheck {
  /** N of the round, null when no shard load ran since the last complete split or plain load. */
  count: number | null;
  gaps: ShardGap[];
  /** The round's runs are those started after this (epoch ms; -Infinity: every run). */
  since: number;
  /** Newest start among the round's runs: the mark of the next round once this one is complete. */
  through: string | null;
  listing: SplitListing | null;
}

const shardsDir = (out: string) => path.join(out, 'state', 'shards');
const listingFile = (out: string, count: number) => path.join(shardsDir(out), `split-${count}.json`);
const completeFile = (out: string) => path.join(shardsDir(out), 'complete.json');
const time = (iso: unknown) => (typeof iso === 'string' ? Date.parse(iso) : Number.NaN);

async function readJson<T>(file: string): Promise<T | null> {
  const text = await fs.readFile(file, 'utf8').catch(() => null);
  try {
    return JSON.parse(text ?? 'null') as T | null;
  } catch {
    return null;
  }
}

async function writeJson(file: string, value: unknown, tmpTag: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(`${file}.${tmpTag}.tmp`, `${JSON.stringify(value)}\n`);
  await fs.rename(`${file}.${tmpTag}.tmp`, file);
}

const listed = (image: { host: string; root: string }): ListedImage => ({ host: image.host, image_path: image.root });

/**
 * What a shard load records as it starts, after its locks: the whole input of its split (every host
 * image it resolved, its own and the other shards'; each shard of a split writes the same listing), and
 * its run record with its hosts `shard not loaded`, which its end replaces.
 */
export async function recordShardStart(
  out: string,
  run: RunStart,
  input: ReadonlyArray<{ host: string; root: string }>,
  own: ReadonlyArray<{ host: string; root: string }>,
): Promise<void> {
  const count = run.shard_count ?? 1;
  const listing: SplitListing = { count, fleet: run.fleet, images: input.map(listed) };
  await writeJson(listingFile(out, count), listing, `${run.shard_index}`);
  await recordRun(out, { ...run, ...NO_FIGURES, host_images: own.map((i) => ({ ...listed(i), status: SHARD_NOT_LOADED })) });
}

/** The newest record of a list, by start. */
function newest<R extends { started_at?: unknown }>(records: R[]): R | undefined {
  return records.reduce<R | undefined>((a, r) => (a === undefined || time(r.started_at) > time(a.started_at) ? r : a), undefined);
}

/** The current round of the split of OUT and the shards of it that did not load their hosts. */
export async function checkSplit(out: string): Promise<SplitCheck> {
  const records = (await readRunRecords(out)).filter((r) => Number.isFinite(time(r.started_at)));
  const loads = records.filter((r) => r.shard_missing !== true);
  const mark = time((await readJson<{ through?: unknown }>(completeFile(out)))?.through);
  const plain = loads.filter((r) => r.shard_count == null && r.ended_at != null).map((r) => time(r.started_at));
  const since = Math.max(Number.isFinite(mark) ? mark : -Infinity, ...plain);
  const inRound = (r: (typeof records)[number]) => r.shard_count != null && time(r.started_at) > since;
  const round = loads.filter(inRound);
  const count = newest(round)?.shard_count ?? null;
  if (count == null) return { count: null, gaps: [], since, through: null, listing: null };
  const read = await readJson<Partial<SplitListing>>(listingFile(out, count));
  const listing = Array.isArray(read?.images) ? (read as SplitListing) : null;
  const gaps: ShardGap[] = [];
  for (let index = 1; index <= count; index++) {
    const shard = { index, count };
    const last = newest(round.filter((r) => r.shard_count === count && r.shard_index === index));
    if (last?.finished_at != null) continue;
    if (last !== undefined) {
      const hosts = (last.host_images ?? []).map((h) => h.host).sort();
      gaps.push({ shard, state: 'not finished', started_at: last.started_at ?? null, hosts, images: null });
      continue;
    }
    const images = listing?.images.filter((i) => shardOfHost(i.host, count) === index) ?? null;
    // a shard with no host to load hides none when it does not run (a small fleet, a large N)
    if (images?.length === 0) continue;
    gaps.push({ shard, state: 'not run', started_at: null, hosts: (images ?? []).map((i) => i.host).sort(), images });
  }
  return { count, gaps, since, through: newest(round)?.started_at ?? null, listing };
}

/**
 * Records each shard `not run` of the check in `state/runs/`: a record with `shard_missing`, its hosts
 * `shard not loaded`, so `load_runs` and `hosts` say so until it runs. Not again for a shard whose
 * record of this round is there already.
 */
export async function recordShardsNotRun(out: string, check: SplitCheck, clinetrailVersion: string): Promise<void> {
  const missing = check.gaps.filter((g) => g.state === 'not run');
  if (missing.length === 0) return;
  const recorded = (await readRunRecords(out)).filter(
    (r) => r.shard_missing === true && r.shard_count === check.count && time(r.started_at) > check.since,
  );
  for (const gap of missing) {
    if (recorded.some((r) => r.shard_index === gap.shard.index)) continue;
    const images = gap.images ?? [];
    const record: UnfinishedRunRecord = {
      ...NO_FIGURES,
      run_id: randomUUID(),
      clinetrail_version: clinetrailVersion,
      started_at: new Date().toISOString(),
      hosts: images.length,
      shard_index: gap.shard.index,
      shard_count: gap.shard.count,
      secrets_redacted: null,
      duplicates_dropped: null,
      finished_at: null,
      prune: null,
      host_images: images.map((i) => ({ ...i, status: SHARD_NOT_LOADED })),
      fleet: check.listing?.fleet ?? null,
      shard_missing: true,
    };
    await recordRun(out, record);
  }
}

/** After a build from a complete split: the next round starts after its runs. */
export async function markSplitComplete(out: string, check: SplitCheck): Promise<void> {
  if (check.count === null || check.gaps.length > 0) return;
  await writeJson(completeFile(out), { through: check.through, count: check.count }, 'models');
}

/** The warning `models` prints for a shard that did not load its hosts (names made printable). */
export function shardGapText(gap: ShardGap): string {
  const k = shardText(gap.shard);
  const what =
    gap.state === 'not run'
      ? `shard ${k} did not run`
      : `shard ${k} did not finish (its run started ${gap.started_at} was killed or failed)`;
  const hosts =
    gap.images === null && gap.state === 'not run'
      ? 'its hosts are not known (no shard of this split recorded its input)'
      : `${gap.hosts.length} host(s) not loaded, their earlier data kept if any: ${gap.hosts.map(printable).join(', ')}`;
  return `${what}: ${hosts}; run load --shard ${k}${gap.state === 'not run' ? '' : ' again'}, then models`;
}
