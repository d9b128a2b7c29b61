/**
 * `make bench` / `node dist/bench/run.js [--small] [--rounds N] [--dir D] [--seed N] [--only core,memory,hosts]
 * [--scale-hosts 500,2000,5000] [--scale-generated 600]`: generates (or reuses)
 * the synthetic fleet under D (default /tmp/clinetrail-bench, never inside the repository), then measures,
 * in interleaved rounds, each as its own process under `/usr/bin/time -v`:
 *   full     clinetrail load of the fleet into a fresh OUT, its phases (discovery, partitions, host models,
 *            hunt pack) read from its JSON progress (bench/phases.ts) and set beside DuckDB's wall
 *   rerun    the same load again into the same OUT (nothing changed)
 *   make_rerun  `make load FLEET=... OUT=...` on that unchanged OUT: the README's nightly command, with its
 *            build step (tsc only when a source changed) and its table of rows per host and store (load --rows-table)
 *   changed  the same OUT after one small transcript of one host got one extra message
 *   shards   the fleet split in SHARDS (`load --shard K/2`, both at once, into one fresh OUT), then `models`:
 *            the recipe of docs/SHARDS.md run on this one machine
 *   floor    a bare streaming parse of the same transcript files (bench/floor.ts), with the readers'
 *            parser (readers/parse/json-elements.ts); floor_tokens the same with @streamparser/json
 *   duckdb   DuckDB read_json -> zstd Parquet of the same transcript files (bench/duckdb-baseline.ts)
 * and the scaling measures of bench/scaling.ts:
 *   memory   peak RSS of loading one 250 MB, then one 1 GB ui_messages.json (SMALL: 50 and 200 MB)
 *   hosts    per-host overhead: 1,000 tiny homes (SMALL: 200) against the same files under one host
 * and of bench/duplicates.ts:
 *   duplicates  the duplicate rule on 10 sessions x 100 identical prompts + 1,000 identical history lines
 *               (full size also x 10), against the same layout with distinct prompts
 * and of bench/hunts.ts:
 *   hunts    the hunt pack on the core fleet (ordinary work: every finding a false positive), timed, its
 *            findings counted per hunt (docs/BENCHMARKS.md)
 * and of bench/scale.ts (once, not per round: its loads take minutes each):
 *   scale    fleets of 500, 2,000 and 5,000 copies of the demo host (--scale-hosts; SMALL 50,200) and the
 *            600-host generated fleet (--scale-generated; SMALL 20, 0 for none): load, hunt and
 *            whole-timeline query, peak RSS and time per host (issue 26)
 * `--only` picks groups (default all six): core (the seven above), memory, hosts, duplicates, hunts, scale.
 * Prints a table plus a JSON summary (also written to D/bench-summary.json). Ratios are taken per
 * round, then the median over rounds is reported (feasibility.md: this machine is noisy).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { duplicateRule, type DuplicatesResult } from './duplicates.js';
import { checkDir, existingFleet, generateFleet, type FleetManifest, type GenerateOptions, type Transcript } from './generate.js';
import { fmt, median, run, table, timed, type Measured } from './measure.js';
import { coreFleet, huntPack, huntsText } from './hunts.js';
import { type LoadPhases, loadPhases } from './phases.js';
import { hostOverhead, memoryScaling, type HostsResult, type MemoryResult, type ScalingContext } from './scaling.js';
import { scaleGroup, scaleText } from './scale.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const NODE = process.execPath;
const CLI = path.join(REPO, 'dist', 'src', 'cli', 'main.js');
const MEASURES = ['full', 'rerun', 'make_rerun', 'changed', 'shards', 'floor', 'floor_tokens', 'duckdb'] as const;
/** Shard loads of the shards measure, all at once: one per core of these 2-core machines. */
const SHARDS = 2;
const GROUPS = ['core', 'memory', 'hosts', 'duplicates', 'hunts', 'scale'] as const;
type Group = (typeof GROUPS)[number];
type MeasureName = (typeof MEASURES)[number];

interface Sample extends Omit<Measured, 'stdout' | 'stderr'> {
  round: number;
  measure: MeasureName;
  /** The full load's phases, from its JSON progress (bench/phases.ts); absent for the other measures. */
  phases?: LoadPhases;
  rows: number | null;
  detail: string;
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/** The transcript rewritten by `changed`: a small ui_messages.json of an ordinary host. */
function pickChanged(m: FleetManifest): Transcript {
  const candidates = m.transcripts.filter(
    (t) => t.kind === 'ui' && !t.path.includes(`${path.sep}host-big${path.sep}`) && t.bytes > 2_000 && t.bytes < 200_000,
  );
  if (candidates.length === 0) throw new Error('bench: no small ui_messages.json to change');
  return candidates[0];
}

function check(m: Measured, what: string): Measured {
  if (m.exit_code !== 0) throw new Error(`bench: ${what} exited ${m.exit_code}: ${m.stderr.trim().slice(-600)}`);
  return m;
}

/** The clinetrail measures of one round, which share OUT: full, then rerun, then changed (restored after). */
async function loadGroup(round: number, m: FleetManifest, out: string, change: Transcript): Promise<Sample[]> {
  const load = (progress = ['--quiet']) => [NODE, CLI, 'load', '--fleet', m.fleet, '--out', out, ...progress];
  const summary = (x: Measured) => x.stdout.trim().split('\n').pop() ?? '';
  fs.rmSync(out, { recursive: true, force: true });
  // JSON progress on stderr in place of --quiet: a line per partition, a cost below this machine's spread
  const full = check(await timed(load(['--log-format', 'json']), REPO), 'full load');
  const counted = await run([NODE, CLI, 'query', '--out', out, '--format', 'json', 'select count(*) as n from raw_events'], REPO);
  const rows = Number((JSON.parse(counted.trim().split('\n')[0]) as { n: string | number }).n);
  const rerun = check(await timed(load(), REPO), 'unchanged re-run');
  const makeRerun = check(
    await timed(['make', '--no-print-directory', 'load', `FLEET=${m.fleet}`, `OUT=${out}`], REPO),
    'unchanged make load',
  );
  const original = fs.readFileSync(change.path);
  const st = fs.statSync(change.path);
  const text = original.toString('utf8');
  const extra = JSON.stringify({
    ts: 1_800_000_000_000 + round,
    type: 'say',
    say: 'user_feedback',
    text: `bench round ${round}: one more message 🙂`,
  });
  fs.writeFileSync(change.path, `${text.slice(0, text.lastIndexOf(']'))},${extra}]`);
  let changed: Measured;
  try {
    changed = check(await timed(load(), REPO), 'one-host-changed load');
  } finally {
    fs.writeFileSync(change.path, original);
    fs.utimesSync(change.path, st.atime, st.mtime);
  }
  const shards = await shardRun(m, `${out}-shards`);
  const sample = (measure: MeasureName, x: Measured, r: number | null): Sample => ({
    round,
    measure,
    wall_s: x.wall_s,
    time_elapsed_s: x.time_elapsed_s,
    peak_rss_mb: x.peak_rss_mb,
    exit_code: x.exit_code,
    rows: r,
    detail: summary(x),
  });
  return [
    { ...sample('full', full, rows), phases: loadPhases(full.stderr) },
    sample('rerun', rerun, null),
    sample('make_rerun', makeRerun, null),
    sample('changed', changed, null),
    sample('shards', shards.measured, shards.rows),
  ];
}

/**
 * SHARDS shard loads started together into a fresh OUT, then `models`, as one shell command under
 * /usr/bin/time: wall from the first start to the end of `models`, peak RSS the largest of the processes.
 */
async function shardRun(m: FleetManifest, out: string): Promise<{ measured: Measured; rows: number }> {
  fs.rmSync(out, { recursive: true, force: true });
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const load = (k: number) => `${q(NODE)} ${q(CLI)} load --fleet ${q(m.fleet)} --out ${q(out)} --quiet --shard ${k}/${SHARDS}`;
  const loads = Array.from({ length: SHARDS }, (_, i) => `${load(i + 1)} & p${i}=$!`).join('; ');
  const waits = Array.from({ length: SHARDS }, (_, i) => `wait $p${i} || exit 1`).join('; ');
  const script = `${loads}; ${waits}; ${q(NODE)} ${q(CLI)} models --out ${q(out)}`;
  const measured = check(await timed(['sh', '-c', script], REPO), 'shard loads + models');
  const counted = await run([NODE, CLI, 'query', '--out', out, '--format', 'json', 'select count(*) as n from raw_events'], REPO);
  fs.rmSync(out, { recursive: true, force: true });
  return { measured, rows: Number((JSON.parse(counted.trim().split('\n')[0]) as { n: string | number }).n) };
}

async function floorSample(round: number, manifestFile: string, tokens = false): Promise<Sample> {
  const x = check(
    await timed([NODE, path.join(HERE, 'floor.js'), '--manifest', manifestFile, ...(tokens ? ['--tokens'] : [])], REPO),
    'floor',
  );
  const r = JSON.parse(x.stdout.trim()) as { values: number };
  return {
    round,
    measure: tokens ? 'floor_tokens' : 'floor',
    wall_s: x.wall_s,
    time_elapsed_s: x.time_elapsed_s,
    peak_rss_mb: x.peak_rss_mb,
    exit_code: x.exit_code,
    rows: r.values,
    detail: x.stdout.trim(),
  };
}

async function duckdbSample(round: number, manifestFile: string, out: string): Promise<Sample> {
  const x = await timed([NODE, path.join(HERE, 'duckdb-baseline.js'), '--manifest', manifestFile, '--out', out], REPO);
  let rows: number | null = null;
  let detail = x.stderr.trim().slice(-600);
  if (x.exit_code === 0) {
    const r = JSON.parse(x.stdout.trim()) as { rows: number; ok: boolean };
    rows = r.rows;
    detail = x.stdout.trim();
  }
  fs.rmSync(out, { recursive: true, force: true });
  return {
    round,
    measure: 'duckdb',
    wall_s: x.wall_s,
    time_elapsed_s: x.time_elapsed_s,
    peak_rss_mb: x.peak_rss_mb,
    exit_code: x.exit_code,
    rows,
    detail,
  };
}

function machine(): Record<string, string | number> {
  const cpu = os.cpus()[0]?.model ?? 'unknown';
  return {
    nproc: os.availableParallelism(),
    cpu,
    mem_gib: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
    date: new Date().toISOString(),
  };
}

interface Report {
  text: string;
  summary: Record<string, unknown>;
  line: Record<string, unknown>;
}

/** The eight core measures (full, rerun, make_rerun, changed, shards, floor, floor_tokens, duckdb) over the generated fleet. */
async function core(dir: string, small: boolean, rounds: number, seed: number): Promise<Report> {
  const gen: GenerateOptions = coreFleet({ dir, seed, small });
  let m = existingFleet(gen);
  if (m) log(`reusing fleet ${m.fleet} (same seed and size)`);
  else {
    log(`generating ${gen.mb} MB over ${gen.hosts} hosts + a ${gen.bigMb} MB ui_messages.json under ${dir} ...`);
    m = generateFleet(gen);
  }
  const MB = 1024 * 1024;
  log(
    `fleet: ${m.files_total} files, ${(m.bytes_total / MB).toFixed(1)} MB; ${m.transcripts.length} transcripts, ${(m.transcript_bytes / MB).toFixed(1)} MB (generated in ${m.seconds.toFixed(1)} s)`,
  );
  const manifestFile = path.join(dir, 'fleet-manifest.json');
  const change = pickChanged(m);
  // untimed: make_rerun measures a nightly run, whose build step finds dist/ current (a build after an
  // edit is the developer's cost, not the nightly job's)
  check(await timed(['make', '--no-print-directory', 'build'], REPO), 'make build');
  const samples: Sample[] = [];
  for (let round = 1; round <= rounds; round++) {
    const steps: Array<() => Promise<Sample[]>> = [
      async () => loadGroup(round, m!, path.join(dir, 'out-load'), change),
      async () => [await floorSample(round, manifestFile), await floorSample(round, manifestFile, true)],
      async () => [await duckdbSample(round, manifestFile, path.join(dir, 'out-duckdb'))],
    ];
    for (let i = 0; i < steps.length; i++) {
      const got = await steps[(i + round - 1) % steps.length]();
      for (const s of got) log(`round ${round}: ${s.measure} ${s.wall_s.toFixed(2)} s, peak RSS ${s.peak_rss_mb?.toFixed(0)} MB`);
      samples.push(...got);
    }
  }
  const of = (name: MeasureName) => samples.filter((s) => s.measure === name);
  const wall = (name: MeasureName, round: number) => samples.find((s) => s.measure === name && s.round === round)?.wall_s ?? NaN;
  const perRound = (a: MeasureName, b: MeasureName) => Array.from({ length: rounds }, (_, i) => wall(a, i + 1) / wall(b, i + 1));
  const ratios = {
    full_over_floor: perRound('full', 'floor'),
    full_over_floor_tokens: perRound('full', 'floor_tokens'),
    full_over_duckdb: perRound('full', 'duckdb'),
    rerun_over_full: perRound('rerun', 'full'),
    make_rerun_over_full: perRound('make_rerun', 'full'),
    changed_over_full: perRound('changed', 'full'),
    shards_over_full: perRound('shards', 'full'),
  };
  const inputMb = m.transcript_bytes / MB;
  const medians = Object.fromEntries(
    MEASURES.map((name) => {
      const w = median(of(name).map((s) => s.wall_s));
      const rows = median(of(name).map((s) => s.rows ?? NaN));
      return [
        name,
        {
          wall_s: w,
          input_mb_s: w ? inputMb / w : null,
          rows: rows,
          rows_s: w && rows !== null ? rows / w : null,
          peak_rss_mb: median(of(name).map((s) => s.peak_rss_mb ?? NaN)),
        },
      ];
    }),
  ) as Record<
    MeasureName,
    { wall_s: number | null; input_mb_s: number | null; rows: number | null; rows_s: number | null; peak_rss_mb: number | null }
  >;
  const ratioMedians = Object.fromEntries(Object.entries(ratios).map(([k, v]) => [k, median(v)]));
  const phases = phaseMedians(of('full'), of('duckdb'));
  const labels: Record<MeasureName, string> = {
    full: 'clinetrail full load',
    rerun: 'clinetrail re-run, unchanged',
    make_rerun: 'make load, unchanged (build step + rows table)',
    changed: 'clinetrail re-run, one host changed',
    shards: `clinetrail ${SHARDS} shard loads at once + models`,
    floor: 'floor: bare parse (json-elements)',
    floor_tokens: 'floor: bare parse (@streamparser/json)',
    duckdb: 'DuckDB read_json -> Parquet',
  };
  const text = [
    `Fleet: ${m.params.hosts} hosts + host-big, ${(m.bytes_total / MB).toFixed(0)} MB in ${m.files_total} files; transcripts ${inputMb.toFixed(0)} MB in ${m.transcripts.length} files (big file ${m.params.bigMb} MB). Rounds: ${rounds}. Medians over rounds.`,
    '',
    table(
      ['measure', 'wall s', 'input MB/s', 'rows', 'rows/s', 'peak RSS MB'],
      MEASURES.map((n) => [
        labels[n],
        medians[n].wall_s,
        n === 'rerun' || n === 'make_rerun' || n === 'changed' ? null : medians[n].input_mb_s,
        medians[n].rows,
        medians[n].rows_s,
        medians[n].peak_rss_mb,
      ]),
    ),
    '',
    table(
      ['ratio (median of per-round ratios)', 'value', 'per round'],
      Object.entries(ratios).map(([k, v]) => [k.replace(/_/g, ' '), ratioMedians[k], v.map((x) => x.toFixed(2)).join(', ')]),
    ),
    '',
    'The full load by phase (its --log-format json progress; medians over rounds). DuckDB converts the files and does nothing else:',
    '',
    table(
      ['phase of the full load', 'wall s', 'share of the load', 'wall / DuckDB wall'],
      phases.map((p) => [p.phase, p.wall_s, p.share, p.over_duckdb]),
    ),
  ].join('\n');
  const summary = {
    fleet: { ...m, transcripts: undefined, transcript_files: m.transcripts.length },
    rounds,
    changed_file: change.path,
    medians,
    ratios,
    ratio_medians: ratioMedians,
    phases,
    samples,
  };
  const details = `load summaries: ${of('full')[0]?.detail} | rerun: ${of('rerun')[0]?.detail} | changed: ${of('changed')[0]?.detail}\nduckdb: ${of('duckdb')[0]?.detail}`;
  return { text: `${text}\n\n${details}`, summary, line: { medians, ratio_medians: ratioMedians, phases } };
}

/** Per phase of the full load: median seconds, median share of the load's wall, median of phase / DuckDB per round. */
function phaseMedians(
  full: Sample[],
  duckdb: Sample[],
): Array<{ phase: string; wall_s: number | null; share: number | null; over_duckdb: number | null }> {
  const names: Array<[keyof LoadPhases, string]> = [
    ['discovery_s', 'discovery'],
    ['partitions_s', 'partitions'],
    ['host_models_s', 'host models'],
    ['hunts_s', 'hunt pack'],
  ];
  return names.map(([key, phase]) => {
    const per = full.map((s) => ({
      s: s.phases?.[key] ?? NaN,
      wall: s.wall_s,
      duckdb: duckdb.find((d) => d.round === s.round)?.wall_s ?? NaN,
    }));
    return {
      phase,
      wall_s: median(per.map((x) => x.s)),
      share: median(per.map((x) => x.s / x.wall)),
      over_duckdb: median(per.map((x) => x.s / x.duckdb)),
    };
  });
}

const yesNo = (met: boolean | null) => (met === null ? '-' : met ? 'yes' : 'no');

function memoryReport(r: MemoryResult, rounds: number): Report {
  const text = [
    `Memory scaling: fleet of host-big only, one ui_messages.json; each load a fresh OUT, its own process. Rounds: ${rounds}. Medians over rounds.`,
    '',
    table(
      ['ui_messages.json', 'MB on disk', 'wall s', 'input MB/s', 'rows', 'peak RSS MB'],
      (['small', 'big'] as const).map((size) => {
        const mb = r[`${size}_bytes`] / 2 ** 20;
        const run = r[size];
        return [`${r[`${size}_mb`]} MB file`, mb, run.wall_s, run.wall_s ? mb / run.wall_s : null, run.rows, run.peak_rss_mb];
      }),
    ),
    `peak RSS growth ${r.small_mb} MB -> ${r.big_mb} MB: ${r.growth_pct === null ? '-' : `${r.growth_pct.toFixed(1)} %`} (target <= ${r.target_pct} %: ${yesNo(r.met)})`,
  ].join('\n');
  return {
    text,
    summary: { ...r },
    line: {
      small_mb: r.small_mb,
      big_mb: r.big_mb,
      small_peak_rss_mb: r.small.peak_rss_mb,
      big_peak_rss_mb: r.big.peak_rss_mb,
      growth_pct: r.growth_pct,
      met: r.met,
    },
  };
}

function hostsReport(r: HostsResult, rounds: number): Report {
  const text = [
    `Per-host overhead: ${r.homes} tiny homes (one legacy task each) against the same task files under 1 host; each load a fresh OUT. Rounds: ${rounds}. Medians over rounds.`,
    '',
    table(
      ['fleet', 'KB on disk', 'wall s', 'rows', 'peak RSS MB'],
      [
        [`${r.homes} hosts`, r.many_bytes / 1024, r.many.wall_s, r.many.rows, r.many.peak_rss_mb],
        ['1 host, same tasks', r.one_bytes / 1024, r.one.wall_s, r.one.rows, r.one.peak_rss_mb],
      ],
    ),
    `per-host overhead = (wall ${r.homes} hosts - wall 1 host) / ${r.homes}: ${r.per_host_ms === null ? '-' : `${fmt(r.per_host_ms)} ms`} (per round: ${r.per_round_ms.map((x) => x.toFixed(1)).join(', ')}; target <= ${r.target_ms} ms: ${yesNo(r.met)})`,
  ].join('\n');
  return {
    text,
    summary: { ...r },
    line: { homes: r.homes, many_wall_s: r.many.wall_s, one_wall_s: r.one.wall_s, per_host_ms: r.per_host_ms, met: r.met },
  };
}

function duplicatesReport(r: DuplicatesResult, rounds: number): Report {
  const rows = r.cases.flatMap((c) => [
    [`${c.label}: identical`, c.repeated.wall_s, c.repeated.peak_rss_mb, c.repeated.rows, c.repeated.dropped],
    [`${c.label}: distinct`, c.distinct.wall_s, c.distinct.peak_rss_mb, c.distinct.rows, c.distinct.dropped],
  ]);
  const text = [
    `Duplicate rule: one host, CLI sessions and a prompt history of one repeated prompt, against the same layout with distinct prompts; each load a fresh OUT. Rounds: ${rounds}. Medians over rounds.`,
    '',
    table(['fleet', 'wall s', 'peak RSS MB', 'rows', 'dropped'], rows),
    ...r.cases.map((c) => `${c.label}: wall identical / distinct ${c.wall_ratio === null ? '-' : c.wall_ratio.toFixed(2)}`),
  ].join('\n');
  const line = Object.fromEntries(
    r.cases.map((c) => [
      c.label,
      {
        identical_wall_s: c.repeated.wall_s,
        identical_peak_rss_mb: c.repeated.peak_rss_mb,
        distinct_wall_s: c.distinct.wall_s,
        distinct_peak_rss_mb: c.distinct.peak_rss_mb,
        wall_ratio: c.wall_ratio,
      },
    ]),
  );
  return { text, summary: { ...r }, line };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      small: { type: 'boolean', default: false },
      rounds: { type: 'string' },
      dir: { type: 'string', default: '/tmp/clinetrail-bench' },
      seed: { type: 'string', default: '1' },
      only: { type: 'string', default: GROUPS.join(',') },
      'scale-hosts': { type: 'string' },
      'scale-generated': { type: 'string' },
    },
  });
  if (!fs.existsSync(CLI)) throw new Error(`bench: ${CLI} not found; run make build first`);
  const dir = checkDir(values.dir!);
  const small = values.small === true;
  const rounds = Number(values.rounds ?? (small ? 1 : 3));
  const seed = Number(values.seed);
  const only = values
    .only!.split(',')
    .map((g) => g.trim())
    .filter(Boolean);
  const bad = only.filter((g) => !(GROUPS as readonly string[]).includes(g));
  if (bad.length || only.length === 0)
    throw new Error(`bench: --only takes a comma list of ${GROUPS.join(', ')}; got ${values.only}`);
  const want = (g: Group) => only.includes(g);
  fs.mkdirSync(dir, { recursive: true });
  const ctx: ScalingContext = { dir, seed, rounds, small, node: NODE, cli: CLI, repo: REPO, log };
  const reports: Partial<Record<Group, Report>> = {};
  if (want('core')) reports.core = await core(dir, small, rounds, seed);
  if (want('memory')) reports.memory = memoryReport(await memoryScaling(ctx), rounds);
  if (want('hosts')) reports.hosts = hostsReport(await hostOverhead(ctx), rounds);
  if (want('duplicates')) reports.duplicates = duplicatesReport(await duplicateRule(ctx), rounds);
  if (want('hunts')) {
    const r = await huntPack(ctx);
    reports.hunts = { text: huntsText(r, rounds), summary: { ...r }, line: { hunts_s: r.wall_s, hunt_findings: r.findings } };
  }
  if (want('scale')) {
    const tiny = (values['scale-hosts'] ?? (small ? '50,200' : '500,2000,5000')).split(',').filter(Boolean).map(Number);
    const generated = Number(values['scale-generated'] ?? (small ? 20 : 600));
    if (tiny.some((n) => !Number.isInteger(n) || n < 1) || !Number.isInteger(generated) || generated < 0)
      throw new Error('bench: --scale-hosts takes a comma list of host counts, --scale-generated a host count (0: none)');
    const r = await scaleGroup(ctx, tiny, generated);
    reports.scale = {
      text: scaleText(r),
      summary: { ...r },
      line: { per_host_growth: r.per_host_growth, load_rss_met: r.load_rss_met, read_rss_met: r.read_rss_met },
    };
  }
  const done = GROUPS.filter((g) => reports[g]);
  const extra = (pick: (r: Report) => Record<string, unknown>) =>
    Object.fromEntries(done.filter((g) => g !== 'core').map((g) => [g, pick(reports[g]!)]));
  // The core keys stay at the top level, as before the scaling measures were added.
  const summary = { machine: machine(), small, rounds, only: done, ...(reports.core?.summary ?? {}), ...extra((r) => r.summary) };
  // A run without core does not overwrite the core results of an earlier run in the same folder.
  const file = path.join(dir, reports.core ? 'bench-summary.json' : `bench-summary-${done.join('-')}.json`);
  fs.writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);
  process.stdout.write(`${done.map((g) => reports[g]!.text).join('\n\n')}\n\n`);
  process.stdout.write(
    `${JSON.stringify({ machine: summary.machine, ...(reports.core?.line ?? {}), ...extra((r) => r.line) })}\n(full summary: ${file})\n`,
  );
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(1);
});
