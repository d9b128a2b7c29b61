/**
 * Harness of the hostile-input suite: runs the built CLI (dist/, built by `make test` before vitest),
 * builds the control host from the reader fixtures, and reads the warehouse read-only. A command runs in
 * this process (`runCommandLine` of dist/src/cli/commands.js, what `node dist/src/cli/main.js` runs on its
 * argv) unless the test needs a process of its own: then it is `node dist/src/cli/main.js` as a child
 * process with a hard timeout. Both run the same compiled modules, so they have the same code version
 * (core/code-version.ts) and may load into one OUT in turn. A CLI start costs Node, yargs, parquet-wasm and
 * DuckDB's module again: a demo load took 3.0 s as a child process against 1.0 s in a process that had
 * loaded before.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, lstatSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'vitest';
import { queryWarehouse } from '../../src/warehouse/build.js';
import { captureCommandLine } from '../helpers/command-line.js';
import { REPO, fixture } from '../helpers/source.js';
import { sqlString } from '../../src/warehouse/sql-literal.js';

export const CLI = path.join(REPO, 'dist', 'src', 'cli', 'main.js');
const COMMANDS = path.join(REPO, 'dist', 'src', 'cli', 'commands.js');

/** Fails with a clear message when `dist/` was not built (run `make test`, or `npx tsc -p tsconfig.json`). */
export function assertBuilt(): void {
  if (!existsSync(CLI)) {
    throw new Error(
      `${CLI} is missing: the hostile suite runs the built CLI; run \`make test\` or \`npx tsc -p tsconfig.json\` first`,
    );
  }
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  timedOut: boolean;
}

export interface CliOptions {
  /** Hard bound of a child run: it is SIGKILLed after this many ms (a hang fails the test, it never blocks it). */
  timeoutMs?: number;
  /** Called with each stderr chunk (progress lines), e.g. to act when discovery is done. */
  onStderr?: (text: string, child: ReturnType<typeof spawn>) => void;
  /** Called once the child is spawned, e.g. to kill it after a delay. */
  onSpawn?: (child: ReturnType<typeof spawn>) => void;
  /** Variables added to the child's environment (its own TMPDIR, CLINETRAIL_DUCKDB_MEMORY, ...). */
  env?: NodeJS.ProcessEnv;
  /**
   * Run as a child process even without env or hooks: where the test is about the process itself (a
   * second process beside another, its exit, a lock named by its pid). `env`, `onSpawn` and `onStderr`
   * imply it.
   */
  child?: boolean;
}

/** Whether a run needs a process of its own (see CliOptions.child). */
function needsChild(options: CliOptions): boolean {
  return options.child === true || options.env !== undefined || options.onSpawn !== undefined || options.onStderr !== undefined;
}

/**
 * The command line run in this process, on the same code the built CLI runs. Its timeout is the test's
 * own: a hang fails the test; it cannot be killed.
 */
async function runInProcess(args: string[]): Promise<CliRun> {
  assertBuilt();
  const { runCommandLine } = (await import(pathToFileURL(COMMANDS).href)) as typeof import('../../src/cli/commands.js');
  const t0 = Date.now();
  const run = await captureCommandLine(runCommandLine, args);
  return { ...run, signal: null, ms: Date.now() - t0, timedOut: false };
}

/**
 * Runs the command line `clinetrail ...args`: in this process, or as `node dist/src/cli/main.js ...args`
 * where the test needs a child (CliOptions.child), resolving when the child exits (or is killed at the timeout).
 */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliRun> {
  if (!needsChild(options)) return runInProcess(args);
  assertBuilt();
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...options.env, TZ: 'UTC' },
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    options.onSpawn?.(child);
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 240_000);
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      options.onStderr?.(stderr, child);
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - t0, timedOut });
    });
  });
}

/** Resolves once process `pid` is stopped (state T in /proc/PID/stat), or fails after 120 s. */
export async function waitUntilStopped(pid: number): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('T')) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`process ${pid} did not stop`);
}

/** `load --fleet FLEET --out OUT --full`, asserting nothing; callers check code and output. */
export function load(fleet: string, out: string, options: CliOptions = {}): Promise<CliRun> {
  return runCli(['load', '--fleet', fleet, '--out', out, '--full'], options);
}

/** A readable account of a run for assertion messages. */
export function describeRun(run: CliRun): string {
  return `exit ${run.code} signal ${run.signal} in ${run.ms} ms${run.timedOut ? ' (TIMED OUT, killed)' : ''}\n--- stdout\n${run.stdout}\n--- stderr (last 4000 chars)\n${run.stderr.slice(-4000)}`;
}

/** An argument error as the CLI promises it: exit 2, nothing on stdout, one `clinetrail: ` line matching `why`. */
export function expectArgumentError(run: CliRun, why: RegExp): void {
  const account = describeRun(run);
  expect(run.code, account).toBe(2);
  expect(run.stdout, account).toBe('');
  expect(run.stderr.endsWith('\n'), account).toBe(true);
  const lines = run.stderr.slice(0, -1).split('\n');
  expect(lines, account).toHaveLength(1);
  expect(lines[0], account).toMatch(/^clinetrail: /);
  expect(lines[0].slice('clinetrail: '.length), account).toMatch(why);
}

/** Rows of a query on OUT/fleet.duckdb, opened read-only. */
export async function query(out: string, sql: string): Promise<unknown[][]> {
  return (await queryWarehouse(out, sql)).rows;
}

/** A fresh work folder under os.tmpdir(). */
export function workDir(tag: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `clinetrail-hostile-${tag}-`));
}

/** Fixture images merged into the control host (they use disjoint store paths). */
const CONTROL_FIXTURES = [
  'vscode-tasks',
  'cline-tasks',
  'sdk-sessions',
  'hooks-log',
  'input-history',
  'settings',
  'sync-queue',
  'sessions-db',
  'search-index',
];

/** Copies every reader fixture into `<fleet>/<host>`: one host with all nine stores. */
export function makeControlHost(fleet: string, host = 'control'): string {
  const root = path.join(fleet, host);
  for (const name of CONTROL_FIXTURES) cpSync(fixture(name, 'img'), root, { recursive: true });
  return root;
}

/** What the control host looks like in a warehouse: every raw row and every files row, ordered. */
export async function controlSnapshot(out: string, host = 'control'): Promise<{ events: unknown[][]; files: unknown[][] }> {
  const h = host.replace(/'/g, "''");
  return {
    events: await query(out, `select * from raw_events where host = '${h}' order by all`),
    // mtime and sha are those of the copy; the fleet copies are made once per suite, so they compare.
    files: await query(out, `select * from files where host = '${h}' order by all`),
  };
}

let baselineCache: Promise<{ events: unknown[][]; files: unknown[][] }> | null = null;

/**
 * The control host loaded alone. `controlFleet` must hold only the control host, and the hostile
 * fleets must link to (or be) the same copy so mtimes compare.
 */
export function baselineOf(controlFleet: string): Promise<{ events: unknown[][]; files: unknown[][] }> {
  baselineCache ??= (async () => {
    const out = path.join(path.dirname(controlFleet), 'baseline-out');
    const run = await load(controlFleet, out);
    if (run.code !== 0) throw new Error(`baseline load of the control host failed: ${describeRun(run)}`);
    return controlSnapshot(out);
  })();
  return baselineCache;
}

/** Asserts that the control host in `out` has exactly the rows and files it has when loaded alone. */
export async function expectControlAsAlone(out: string, controlFleet: string): Promise<void> {
  const baseline = await baselineOf(controlFleet);
  expect(baseline.events.length).toBeGreaterThan(50);
  const now = await controlSnapshot(out);
  expect(now.events).toEqual(baseline.events);
  expect(now.files).toEqual(baseline.files);
}

/** Image-relative paths of every regular file under `root` (for listing what a host holds). */
export function filesUnder(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string, rel: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(d, e.name), r);
      else if (e.isFile()) out.push(r);
    }
  };
  walk(root, '');
  return out.sort();
}

/**
 * Every path under `dir` with its size, mtime and SHA-256 (folders as `dir`): equal before and after means
 * untouched. `keep` leaves out the paths (relative) it refuses, and what is under them.
 */
export function snapshotTree(dir: string, keep: (rel: string) => boolean = () => true): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const full = path.join(d, name);
      const rel = path.relative(dir, full);
      if (!keep(rel)) continue;
      const st = lstatSync(full);
      if (st.isDirectory()) {
        out[rel] = 'dir';
        walk(full);
      } else {
        out[rel] = `${st.size} ${st.mtimeMs} ${createHash('sha256').update(readFileSync(full)).digest('hex')}`;
      }
    }
  };
  walk(dir);
  return out;
}

/** SQL string literal (the warehouse's own). */
export const lit = sqlString;

/** The `files` row and the `parser:` rows of one evidence file (image-relative path). */
export async function evidenceOf(
  out: string,
  host: string,
  file: string,
): Promise<{ files: unknown[][]; parserRows: unknown[][] }> {
  const files = await query(
    out,
    `select count_rows, count_errors, first_error from files where host = ${lit(host)} and source_file = ${lit(file)}`,
  );
  const parserRows = await query(
    out,
    `select text from raw_events where host = ${lit(host)} and kind = 'parser' and (source_file = ${lit(file)} or contains(text, ${lit(file)}))`,
  );
  return { files, parserRows };
}

/** Asserts what the warehouse says about one planted case; returns a problem text or null. */
export async function caseProblem(
  out: string,
  c: { host: string; file: string; what: string; expect: string },
): Promise<string | null> {
  const { files, parserRows } = await evidenceOf(out, c.host, c.file);
  const label = `${c.host}: ${c.what} (${JSON.stringify(c.file)}, expect ${c.expect})`;
  const seen = `files=${JSON.stringify(files)} parser rows=${JSON.stringify(parserRows.map((r) => String(r[0]).slice(0, 200)))}`;
  const row = files[0] as [unknown, unknown, unknown] | undefined;
  const errors = row ? Number(row[1]) : 0;
  const rows = row ? Number(row[0]) : 0;
  switch (c.expect) {
    case 'error':
      if (!row || errors === 0 || parserRows.length === 0) return `${label}: no files row with an error and parser row; ${seen}`;
      return null;
    case 'clean':
      if (!row || errors !== 0 || rows === 0 || parserRows.length !== 0) return `${label}: not loaded cleanly; ${seen}`;
      return null;
    case 'listed':
      if (!row || errors !== 0) return `${label}: not listed without error; ${seen}`;
      return null;
    case 'problem':
      if (parserRows.length === 0) return `${label}: no parser row names it; ${seen}`;
      return null;
    default:
      return `${label}: unknown expectation`;
  }
}
