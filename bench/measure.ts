/**
 * One measured child process under GNU `/usr/bin/time -v`: wall clock (our own monotonic clock around the
 * spawn; time's own "Elapsed" line is kept as a check) and "Maximum resident set size". The peak RSS time
 * reports is the child's ru_maxrss from wait4(): the largest RSS of the child or of any descendant it
 * waited for (a maximum over processes, not a sum). Every measure here is one process (DuckDB runs in it).
 */
import { spawn } from 'node:child_process';

export interface Measured {
  wall_s: number;
  time_elapsed_s: number | null;
  peak_rss_mb: number | null;
  exit_code: number | null;
  stdout: string;
  stderr: string;
}

/** `h:mm:ss` or `m:ss.cc` of time -v's Elapsed line, in seconds. */
export function parseElapsed(text: string): number | null {
  const m = /Elapsed \(wall clock\) time[^:]*:\s*([\d:.]+)/.exec(text);
  if (!m) return null;
  return m[1].split(':').reduce((acc, part) => acc * 60 + Number(part), 0);
}

export function parseMaxRss(text: string): number | null {
  const m = /Maximum resident set size \(kbytes\):\s*(\d+)/.exec(text);
  return m ? Number(m[1]) / 1024 : null;
}

/** Runs `argv`, collecting its output; never rejects for a non-zero exit. */
function spawnCollect(argv: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
    );
  });
}

/** Runs `argv` under `/usr/bin/time -v`; never throws for a non-zero exit (the caller decides). */
export async function timed(argv: string[], cwd: string): Promise<Measured> {
  const t0 = performance.now();
  const r = await spawnCollect(['/usr/bin/time', '-v', ...argv], cwd);
  return {
    wall_s: (performance.now() - t0) / 1000,
    time_elapsed_s: parseElapsed(r.stderr),
    peak_rss_mb: parseMaxRss(r.stderr),
    exit_code: r.code,
    stdout: r.stdout,
    // whole: a load's JSON progress is read from it (bench/phases.ts); callers cut it for their messages
    stderr: r.stderr.split('\n\tCommand being timed')[0],
  };
}

/** Runs a command without measuring it (row counts and such); rejects on a non-zero exit. */
export async function run(argv: string[], cwd: string): Promise<string> {
  const r = await spawnCollect(argv, cwd);
  if (r.code !== 0) throw new Error(`${argv.join(' ')} exited ${r.code}: ${r.stderr.slice(-500)}`);
  return r.stdout;
}

export function median(values: number[]): number | null {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/** A fixed-width text table. */
export function table(header: string[], rows: Array<Array<string | number | null>>): string {
  const cells = rows.map((r) => r.map((c) => (c === null ? '-' : typeof c === 'number' ? fmt(c) : c)));
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i].length)));
  const line = (v: string[]) => `| ${v.map((s, i) => (i === 0 ? s.padEnd(widths[i]) : s.padStart(widths[i]))).join(' | ')} |`;
  return [
    line(header),
    `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...cells.map(line),
  ].join('\n');
}

export function fmt(n: number): string {
  if (Math.abs(n) >= 1000) return Math.round(n).toLocaleString('en-US');
  if (Math.abs(n) >= 100) return n.toFixed(0);
  if (Math.abs(n) >= 10) return n.toFixed(1);
  return n.toFixed(2);
}
