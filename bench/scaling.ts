/**
 * The two scaling measures of `node dist/bench/run.js` (issue 4), each load its own process under
 * `/usr/bin/time -v` (bench/measure.ts):
 *   memory  peak RSS of a full load of a fleet holding only `host-big` with one ui_messages.json of A MB,
 *           then of B MB (full size 250 MB and 1024 MB, SMALL 50 and 200); growth = (B - A) / A.
 *   hosts   a fleet of N tiny homes (one legacy task of a few KB each; full size 1,000, SMALL 200) loaded
 *           into a fresh OUT, and the same task files under ONE host loaded into another fresh OUT;
 *           per-host overhead = (wall of N hosts - wall of 1 host) / N.
 * Fleets go under D/scaling (never inside the repository). The big-file fleets are reused when the seed
 * and size match (bench/generate.ts); the tiny fleets are rewritten each run (a few seconds).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commandOutput, MODELS, prose, Rng, sentence, subSeed } from './content.js';
import { existingFleet, generateFleet, type FleetManifest } from './generate.js';
import { median, run, timed, type Measured } from './measure.js';

/** Per-host overhead target of issue 14 (issue 4's was 20 ms). */
const PER_HOST_TARGET_MS = 10;

export interface ScalingContext {
  dir: string;
  seed: number;
  rounds: number;
  small: boolean;
  node: string;
  cli: string;
  repo: string;
  log: (line: string) => void;
}

export interface LoadSample {
  round: number;
  wall_s: number;
  time_elapsed_s: number | null;
  peak_rss_mb: number | null;
  rows: number;
  detail: string;
}

export interface MemoryResult {
  small_mb: number;
  big_mb: number;
  small_bytes: number;
  big_bytes: number;
  small: { wall_s: number | null; peak_rss_mb: number | null; rows: number | null };
  big: { wall_s: number | null; peak_rss_mb: number | null; rows: number | null };
  growth_pct: number | null;
  target_pct: number;
  met: boolean | null;
  samples: Array<LoadSample & { size_mb: number }>;
}

export interface HostsResult {
  homes: number;
  many_bytes: number;
  one_bytes: number;
  many: { wall_s: number | null; peak_rss_mb: number | null; rows: number | null };
  one: { wall_s: number | null; peak_rss_mb: number | null; rows: number | null };
  per_round_ms: number[];
  per_host_ms: number | null;
  target_ms: number;
  met: boolean | null;
  samples: Array<LoadSample & { layout: 'many' | 'one' }>;
}

/** `load --fleet F --out O --quiet` into a fresh O (removed before and after), then its row count. */
export async function loadFresh(ctx: ScalingContext, fleet: string, out: string, round: number): Promise<LoadSample> {
  fs.rmSync(out, { recursive: true, force: true });
  const x: Measured = await timed([ctx.node, ctx.cli, 'load', '--fleet', fleet, '--out', out, '--quiet'], ctx.repo);
  if (x.exit_code !== 0) throw new Error(`bench: load of ${fleet} exited ${x.exit_code}: ${x.stderr.trim().slice(-600)}`);
  const counted = await run(
    [ctx.node, ctx.cli, 'query', '--out', out, '--format', 'json', 'select count(*) as n from raw_events'],
    ctx.repo,
  );
  const rows = Number((JSON.parse(counted.trim().split('\n')[0]) as { n: string | number }).n);
  fs.rmSync(out, { recursive: true, force: true });
  return {
    round,
    wall_s: x.wall_s,
    time_elapsed_s: x.time_elapsed_s,
    peak_rss_mb: x.peak_rss_mb,
    rows,
    detail: x.stdout.trim().split('\n').pop() ?? '',
  };
}

/** Medians of wall, peak RSS and rows over samples. */
export const stats = <T extends LoadSample>(s: T[]) => ({
  wall_s: median(s.map((x) => x.wall_s)),
  peak_rss_mb: median(s.map((x) => x.peak_rss_mb ?? NaN)),
  rows: median(s.map((x) => x.rows)),
});

/** A fleet of `host-big` only, its ui_messages.json `bigMb` MB (generated once per seed and size). */
function bigOnlyFleet(ctx: ScalingContext, bigMb: number): FleetManifest {
  const gen = { dir: path.join(ctx.dir, 'scaling', `big-${bigMb}`), seed: ctx.seed, hosts: 0, mb: 0, bigMb };
  fs.mkdirSync(gen.dir, { recursive: true });
  const found = existingFleet(gen);
  if (found) {
    ctx.log(`reusing ${found.fleet} (one ${bigMb} MB ui_messages.json)`);
    return found;
  }
  ctx.log(`generating one ${bigMb} MB ui_messages.json under ${gen.dir} ...`);
  return generateFleet(gen);
}

export async function memoryScaling(ctx: ScalingContext): Promise<MemoryResult> {
  const [a, b] = ctx.small ? [50, 200] : [250, 1024];
  const fa = bigOnlyFleet(ctx, a);
  const fb = bigOnlyFleet(ctx, b);
  const samples: MemoryResult['samples'] = [];
  for (let round = 1; round <= ctx.rounds; round++) {
    const order =
      round % 2
        ? ([
            [a, fa],
            [b, fb],
          ] as const)
        : ([
            [b, fb],
            [a, fa],
          ] as const);
    for (const [mb, f] of order) {
      const s = await loadFresh(ctx, f.fleet, path.join(ctx.dir, 'scaling', `out-big-${mb}`), round);
      ctx.log(
        `round ${round}: memory ${mb} MB file: ${s.wall_s.toFixed(2)} s, peak RSS ${s.peak_rss_mb?.toFixed(0)} MB, ${s.rows} rows`,
      );
      samples.push({ ...s, size_mb: mb });
    }
  }
  const small = stats(samples.filter((s) => s.size_mb === a));
  const big = stats(samples.filter((s) => s.size_mb === b));
  const growth =
    small.peak_rss_mb && big.peak_rss_mb !== null ? ((big.peak_rss_mb - small.peak_rss_mb) / small.peak_rss_mb) * 100 : null;
  return {
    small_mb: a,
    big_mb: b,
    small_bytes: fa.transcript_bytes,
    big_bytes: fb.transcript_bytes,
    small,
    big,
    growth_pct: growth,
    target_pct: 15,
    met: growth === null ? null : growth <= 15,
    samples,
  };
}

const GS = 'User/globalStorage/saoudrizwan.claude-dev';
const T0 = 1_760_000_000_000;

/** Tiny task `i` (deterministic by seed and i): ui_messages.json of a few KB and its taskHistory entry. */
function tinyTask(seed: number, i: number, cwd: string): { id: string; ui: string; history: Record<string, unknown> } {
  const rng = new Rng(subSeed(seed, 2_000_000 + i));
  const model = MODELS[i % MODELS.length];
  let ts = T0 + i * 3_600_000;
  const id = String(ts);
  const at = () => (ts += rng.int(50, 4000));
  const prompt = sentence(rng, rng.int(4, 20));
  const tokensIn = rng.int(800, 30000);
  const tokensOut = rng.int(20, 2000);
  const cost = Math.round(tokensIn * 3 + tokensOut * 15) / 1e6;
  const cmd = rng.pick(['npm test', 'pytest -q', 'git status', 'make build']);
  const messages = [
    { ts, type: 'say', say: 'task', text: prompt },
    {
      ts: at(),
      type: 'say',
      say: 'api_req_started',
      text: JSON.stringify({
        request: `<task>\n${prompt}\n</task>\n${prose(rng, rng.int(200, 700))}`,
        tokensIn,
        tokensOut,
        cacheWrites: 0,
        cacheReads: 0,
        cost,
      }),
      modelInfo: { modelId: model.id, providerId: model.provider, mode: 'act' },
    },
    { ts: at(), type: 'say', say: 'text', text: prose(rng, rng.int(100, 600)), partial: false },
    { ts: at(), type: 'ask', ask: 'command', text: cmd },
    { ts: at(), type: 'say', say: 'command_output', text: commandOutput(rng, rng.int(300, 1500)) },
    { ts: at(), type: 'say', say: 'completion_result', text: prose(rng, rng.int(50, 300)), lastCheckpointHash: rng.id(7) },
  ];
  const history = {
    id,
    ts,
    task: prompt,
    tokensIn,
    tokensOut,
    cacheWrites: 0,
    cacheReads: 0,
    totalCost: cost,
    cwdOnTaskInitialization: cwd,
    modelId: model.id,
    apiProvider: model.provider,
  };
  return { id, ui: JSON.stringify(messages), history };
}

/**
 * Writes `<root>/many/host-NNNN/...` (one tiny task per host) and `<root>/one/host-0000/...` (all N tasks
 * under one home, one taskHistory.json listing them all). The task files are byte-identical in both.
 */
function tinyFleets(
  root: string,
  seed: number,
  homes: number,
): { many: string; one: string; manyBytes: number; oneBytes: number } {
  fs.rmSync(root, { recursive: true, force: true });
  const many = path.join(root, 'many');
  const one = path.join(root, 'one');
  const home = 'home/dev';
  const gs = `${home}/.config/Code/${GS}`;
  const cwd = '/home/dev/proj';
  let manyBytes = 0;
  let oneBytes = 0;
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    return Buffer.byteLength(text);
  };
  const all: Record<string, unknown>[] = [];
  for (let i = 0; i < homes; i++) {
    const t = tinyTask(seed, i, cwd);
    const hostRoot = path.join(many, `host-${String(i).padStart(4, '0')}`, gs);
    manyBytes += write(path.join(hostRoot, 'tasks', t.id, 'ui_messages.json'), t.ui);
    manyBytes += write(path.join(hostRoot, 'state', 'taskHistory.json'), JSON.stringify([t.history]));
    oneBytes += write(path.join(one, 'host-0000', gs, 'tasks', t.id, 'ui_messages.json'), t.ui);
    all.push(t.history);
  }
  oneBytes += write(path.join(one, 'host-0000', gs, 'state', 'taskHistory.json'), JSON.stringify(all));
  return { many, one, manyBytes, oneBytes };
}

export async function hostOverhead(ctx: ScalingContext): Promise<HostsResult> {
  const homes = ctx.small ? 200 : 1000;
  const root = path.join(ctx.dir, 'scaling', `homes-${homes}`);
  const f = tinyFleets(root, ctx.seed, homes);
  ctx.log(
    `tiny fleets: ${homes} hosts ${(f.manyBytes / 1024 / 1024).toFixed(2)} MB, 1 host ${(f.oneBytes / 1024 / 1024).toFixed(2)} MB, under ${root}`,
  );
  const samples: HostsResult['samples'] = [];
  const perRound: number[] = [];
  for (let round = 1; round <= ctx.rounds; round++) {
    const order = round % 2 ? (['many', 'one'] as const) : (['one', 'many'] as const);
    const got: Partial<Record<'many' | 'one', LoadSample>> = {};
    for (const layout of order) {
      const s = await loadFresh(ctx, f[layout], path.join(root, `out-${layout}`), round);
      ctx.log(
        `round ${round}: hosts ${layout === 'many' ? `${homes} hosts` : '1 host'}: ${s.wall_s.toFixed(2)} s, peak RSS ${s.peak_rss_mb?.toFixed(0)} MB, ${s.rows} rows`,
      );
      samples.push({ ...s, layout });
      got[layout] = s;
    }
    if (got.many!.rows !== got.one!.rows)
      throw new Error(
        `bench: ${homes} hosts gave ${got.many!.rows} rows, 1 host ${got.one!.rows}; the two fleets must hold the same tasks`,
      );
    perRound.push(((got.many!.wall_s - got.one!.wall_s) / homes) * 1000);
  }
  const perHost = median(perRound);
  return {
    homes,
    many_bytes: f.manyBytes,
    one_bytes: f.oneBytes,
    many: stats(samples.filter((s) => s.layout === 'many')),
    one: stats(samples.filter((s) => s.layout === 'one')),
    per_round_ms: perRound,
    per_host_ms: perHost,
    target_ms: PER_HOST_TARGET_MS,
    met: perHost === null ? null : perHost <= PER_HOST_TARGET_MS,
    samples,
  };
}
