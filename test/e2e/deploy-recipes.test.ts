/**
 * The scheduler recipes of deploy/ (docs/SHARDS.md): each maps its scheduler's index
 * variable to `--shard K/N` so that the N tasks it declares run shards 1/N ... N/N, each once, and then
 * `models`. Each recipe's own command is run as the scheduler would run it (sh -c of the Kubernetes
 * container's args with JOB_COMPLETION_INDEX, bash of the Slurm batch script with SLURM_ARRAY_TASK_ID and
 * SLURM_ARRAY_TASK_COUNT, the parallel.sh script), with `clinetrail` on PATH a stand-in that records its
 * arguments and runs the real CLI on the demo fleet; the warehouse it leaves must hold every demo host.
 * The models steps of Slurm and Kubernetes fail with `models`' own code when a shard did not run, and
 * the Kubernetes Job's podFailurePolicy fails it at once on that code instead of retrying.
 *
 * GNU parallel is not installed on these machines: parallel.sh runs with a stand-in that does what
 * parallel does with `cmd {} ::: values` (one command per value, `{}` replaced), one after the other;
 * a run with the real GNU parallel is skipped where it is missing.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/source.js';
import { assertBuilt, CLI, query, workDir } from '../hostile/harness.js';

const DEPLOY = path.join(REPO, 'deploy');
const FLEET = path.join(REPO, 'fixtures', 'fleet');
const DEMO_HOSTS = readdirSync(FLEET, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();
const work = workDir('recipes');
const bin = path.join(work, 'bin');
const hasParallel = spawnSync('sh', ['-c', 'command -v parallel'], { encoding: 'utf8' }).status === 0;

/**
 * `clinetrail` on PATH: appends its arguments (JSON) to $CALLS, maps the recipe's paths ($MAP, JSON of
 * path -> path) and runs the real CLI with them.
 */
const FAKE_CLINETRAIL = `#!${process.execPath}
const { appendFileSync } = require('node:fs');
const { spawnSync } = require('node:child_process');
const args = process.argv.slice(2);
appendFileSync(process.env.CALLS, JSON.stringify(args) + '\\n');
const map = JSON.parse(process.env.MAP || '{}');
const r = spawnSync(process.execPath, [${JSON.stringify(CLI)}, ...args.map((a) => map[a] ?? a)], { stdio: 'inherit' });
process.exit(r.status ?? 1);
`;

/** GNU parallel's `[--jobs N] [--halt H] [--line-buffer] cmd ... {} ... ::: v1 v2 ...`, one value after the other. */
const FAKE_PARALLEL = `#!${process.execPath}
const { spawnSync } = require('node:child_process');
const argv = process.argv.slice(2);
const cut = argv.indexOf(':::');
let cmd = argv.slice(0, cut);
while (cmd[0].startsWith('--')) cmd = cmd.slice(cmd[0] === '--line-buffer' ? 1 : 2);
let failed = 0;
for (const v of argv.slice(cut + 1)) {
  const r = spawnSync(cmd[0], cmd.slice(1).map((a) => a.split('{}').join(v)), { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(Math.min(failed, 101));
`;

interface Ran {
  code: number | null;
  output: string;
}

/** Runs `command args` with the stand-ins first on PATH and `env`; resolves when it exits. */
function run(command: string, args: string[], env: Record<string, string>, bins = [bin]): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      env: { ...process.env, PATH: [...bins, process.env.PATH].join(':'), TZ: 'UTC', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** The calls the stand-in recorded. */
const calls = (file: string): string[][] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as string[]);

/** The `--shard` values of the recorded load calls, sorted. */
const shardsOf = (all: string[][]) =>
  all
    .filter((c) => c[0] === 'load')
    .map((c) => c[c.indexOf('--shard') + 1])
    .sort();

const expected = (n: number) => Array.from({ length: n }, (_, i) => `${i + 1}/${n}`).sort();

let tag = 0;
function fresh(): { out: string; callsFile: string } {
  tag += 1;
  const callsFile = path.join(work, `calls-${tag}.jsonl`);
  writeFileSync(callsFile, '');
  return { out: path.join(work, `out-${tag}`), callsFile };
}

const hostsOf = async (out: string) => (await query(out, 'select distinct host from raw_events order by 1')).map((r) => r[0]);

beforeAll(() => {
  assertBuilt();
  mkdirSync(bin, { recursive: true });
  writeFileSync(path.join(bin, 'clinetrail'), FAKE_CLINETRAIL);
  chmodSync(path.join(bin, 'clinetrail'), 0o755);
  const fakes = path.join(work, 'fake-parallel');
  mkdirSync(fakes);
  writeFileSync(path.join(fakes, 'parallel'), FAKE_PARALLEL);
  chmodSync(path.join(fakes, 'parallel'), 0o755);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('deploy/ recipes map the scheduler index to --shard', () => {
  it('k8s-indexed-job.yaml: JOB_COMPLETION_INDEX 0..completions-1 gives shards 1/N..N/N, then the models Job', async () => {
    const yaml = readFileSync(path.join(DEPLOY, 'k8s-indexed-job.yaml'), 'utf8');
    expect(yaml).toMatch(/^ {2}completionMode: Indexed$/m);
    const completions = Number(/^ {2}completions: (\d+)$/m.exec(yaml)?.[1]);
    expect(Number(/^ {2}parallelism: (\d+)$/m.exec(yaml)?.[1])).toBe(completions);
    const shards = /^ {12}- name: SHARDS\n {14}value: "(\d+)"$/m.exec(yaml)?.[1];
    expect(Number(shards)).toBe(completions);
    expect(yaml).toMatch(/^ {10}command: \["\/bin\/sh", "-c"\]\n {10}args:\n/m);
    // the one list item of args, a plain YAML scalar: its text is its value when it holds no ': ' or ' #'
    const script = /^ {10}args:\n {12}- (.+)$/m.exec(yaml)![1];
    expect(script).not.toMatch(/: | #|^["'&*!|>%@`]/);
    const { out, callsFile } = fresh();
    const map = JSON.stringify({ '/cases/fleet': FLEET, '/cases/warehouse': out });
    const runs = await Promise.all(
      Array.from({ length: completions }, (_, i) =>
        run('sh', ['-c', script], { JOB_COMPLETION_INDEX: String(i), SHARDS: shards!, CALLS: callsFile, MAP: map }),
      ),
    );
    for (const r of runs) expect(r.code, r.output).toBe(0);
    expect(shardsOf(calls(callsFile))).toEqual(expected(completions));
    const models = readFileSync(path.join(DEPLOY, 'k8s-models-job.yaml'), 'utf8');
    const command = JSON.parse(/^ {10}command: (\[.*\])$/m.exec(models)![1]) as string[];
    expect(command.slice(0, 2)).toEqual(['clinetrail', 'models']);
    const built = await run(command[0], command.slice(1), { CALLS: callsFile, MAP: map });
    expect(built.code, built.output).toBe(0);
    expect(await hostsOf(out)).toEqual(DEMO_HOSTS);
    expect(yaml).toContain('kubectl wait --for=condition=complete --timeout=24h job/clinetrail-shards');
  });

  it('slurm-array.sbatch: SLURM_ARRAY_TASK_ID over --array=1-N gives shards 1/N..N/N, then the dependent models step', async () => {
    const file = path.join(DEPLOY, 'slurm-array.sbatch');
    const text = readFileSync(file, 'utf8');
    const [, from, to] = /^#SBATCH --array=(\d+)-(\d+)$/m.exec(text)!.map(Number);
    expect(from).toBe(1);
    const { out, callsFile } = fresh();
    const env = { FLEET, OUT: out, CALLS: callsFile, SLURM_ARRAY_TASK_COUNT: String(to - from + 1) };
    const runs = await Promise.all(
      Array.from({ length: to - from + 1 }, (_, i) => run('bash', [file], { ...env, SLURM_ARRAY_TASK_ID: String(from + i) })),
    );
    for (const r of runs) expect(r.code, r.output).toBe(0);
    expect(shardsOf(calls(callsFile))).toEqual(expected(to));
    expect(text).toMatch(/^# +sbatch --dependency=afterok:\$jid .*deploy\/slurm-models\.sbatch$/m);
    const built = await run('bash', [path.join(DEPLOY, 'slurm-models.sbatch')], env);
    expect(built.code, built.output).toBe(0);
    expect(calls(callsFile).at(-1)).toEqual(['models', '--out', out]);
    expect(await hostsOf(out)).toEqual(DEMO_HOSTS);
  });

  it('parallel.sh: its ::: values give shards 1/N..N/N, then models (a stand-in for GNU parallel)', async () => {
    const { out, callsFile } = fresh();
    const r = await run('sh', [path.join(DEPLOY, 'parallel.sh'), FLEET, out, '3'], { CALLS: callsFile }, [
      bin,
      path.join(work, 'fake-parallel'),
    ]);
    expect(r.code, r.output).toBe(0);
    expect(shardsOf(calls(callsFile))).toEqual(expected(3));
    expect(calls(callsFile).at(-1)).toEqual(['models', '--out', out]);
    expect(await hostsOf(out)).toEqual(DEMO_HOSTS);
  });

  it('the models steps fail when a shard did not run, and the Kubernetes Job does not retry them', async () => {
    const { out, callsFile } = fresh();
    // shard 1/2 only: shard 2/2 never runs (the demo hosts all hash to it; models says so whichever it is)
    const shard = await run('clinetrail', ['load', '--fleet', FLEET, '--out', out, '--quiet', '--shard', '1/2'], {
      CALLS: callsFile,
    });
    expect(shard.code, shard.output).toBe(0);
    const slurm = await run('bash', [path.join(DEPLOY, 'slurm-models.sbatch')], { OUT: out, CALLS: callsFile });
    expect(slurm.output).toMatch(/^clinetrail: warning: shard 2\/2 did not run: /m);
    expect(slurm.code, slurm.output).toBe(6);
    const models = readFileSync(path.join(DEPLOY, 'k8s-models-job.yaml'), 'utf8');
    const command = JSON.parse(/^ {10}command: (\[.*\])$/m.exec(models)![1]) as string[];
    const k8s = await run(command[0], command.slice(1), { CALLS: callsFile, MAP: JSON.stringify({ '/cases/warehouse': out }) });
    expect(k8s.code, k8s.output).toBe(6);
    // that exit code fails the Job at once (a retry would not load the shard's hosts); 3, a shard still running, is retried
    const rule =
      /^ {2}podFailurePolicy:\n {4}rules:\n {6}- action: FailJob\n {8}onExitCodes: \{ containerName: (\S+), operator: In, values: \[(\d+)\] \}$/m.exec(
        models,
      );
    expect(rule?.slice(1)).toEqual([/^ {8}- name: (\S+)$/m.exec(models)?.[1], String(k8s.code)]);
  });

  it.skipIf(!hasParallel)('parallel.sh with the real GNU parallel (skipped: parallel is not installed)', async () => {
    const { out, callsFile } = fresh();
    const r = await run('sh', [path.join(DEPLOY, 'parallel.sh'), FLEET, out, '4'], { CALLS: callsFile });
    expect(r.code, r.output).toBe(0);
    expect(shardsOf(calls(callsFile))).toEqual(expected(4));
    expect(await hostsOf(out)).toEqual(DEMO_HOSTS);
  });
});
