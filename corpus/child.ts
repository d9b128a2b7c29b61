// Running the CLI as a child process: a hard timeout on every child, a pty through script(1) for the terminal
// UIs, keys typed into it, and the CLI's own daemons found and stopped by pid at the end.

import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { RunResult } from './types.js';

export const CHILD_TIMEOUT_MS = 300_000;

export const now = (): string => new Date().toISOString();

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export function log(msg: string): void {
  process.stderr.write(`[drive ${now()}] ${msg}\n`);
}

/** Polls `check` every 250 ms until it returns a value, for at most `timeoutMs`; null when it never did. */
export async function until<T>(check: () => T | null | undefined | false, timeoutMs: number): Promise<T | null> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() >= end) return null;
    await sleep(250);
  }
}

export interface KeyStep {
  atMs: number;
  keys: string;
}

/** A running child: its output so far, a way to type into it (pty runs), and its result once it ends. */
export interface Running {
  startedMs: number;
  output(): string;
  type(keys: string): void;
  done: Promise<RunResult>;
}

export interface ChildOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** Where stdout and stderr are written when the child ends (`<prefix>.stdout`, `<prefix>.stderr`). */
  logPrefix: string;
  /** Keep stdin open (a pty run types into it). */
  input?: boolean;
}

export function startChild(argv: string[], opts: ChildOptions): Running {
  const startedAt = now();
  const startedMs = Date.now();
  const child: ChildProcess = spawn(argv[0], argv.slice(1), {
    cwd: opts.cwd,
    env: opts.env,
    stdio: [opts.input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout?.on('data', (d: Buffer) => out.push(d));
  child.stderr?.on('data', (d: Buffer) => err.push(d));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }, opts.timeoutMs ?? CHILD_TIMEOUT_MS);
  const done = new Promise<RunResult>((resolvePromise) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      writeFileSync(`${opts.logPrefix}.stdout`, Buffer.concat(out));
      writeFileSync(`${opts.logPrefix}.stderr`, Buffer.concat(err));
      resolvePromise({ argv, exitCode: code, signal, timedOut, startedAt, endedAt: now() });
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      writeFileSync(`${opts.logPrefix}.stderr`, String(e));
      resolvePromise({ argv, exitCode: null, signal: null, timedOut, startedAt, endedAt: now() });
    });
  });
  return {
    startedMs,
    output: () => Buffer.concat(out).toString('utf8'),
    type: (keys: string) => {
      if (child.stdin?.writable) child.stdin.write(keys);
    },
    done,
  };
}

/** Runs a child to its end; `keys` are typed on a fixed schedule (pty runs). */
export function runChild(argv: string[], opts: ChildOptions & { keys?: KeyStep[] }): Promise<RunResult> {
  const running = startChild(argv, { ...opts, input: opts.input ?? opts.keys !== undefined });
  const timers = (opts.keys ?? []).map((k) => setTimeout(() => running.type(k.keys), k.atMs));
  return running.done.finally(() => {
    for (const t of timers) clearTimeout(t);
  });
}

/** The argv that runs `argv` under script(1), which gives it a pty (the terminal UIs need one). */
export function ptyArgv(argv: string[]): string[] {
  const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
  return ['script', '-qfec', argv.map(quote).join(' '), '/dev/null'];
}

export const PTY_ENV = { TERM: 'xterm-256color', COLUMNS: '100', LINES: '30' };

/** Types a text one character at a time, as a person would (the TUIs read a burst of keys as a paste). */
export async function typeSlowly(running: Running, text: string): Promise<void> {
  for (const ch of text) {
    running.type(ch);
    await sleep(25);
  }
}

/** Processes whose command line names the install folder: the CLI's own daemons (hub, cline-core, cline-host). */
function strayPids(installDir: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (cmd.includes(installDir)) pids.push(Number(name));
    } catch {
      // gone
    }
  }
  return pids;
}

export function killStrays(installDir: string, signal: NodeJS.Signals = 'SIGTERM'): number[] {
  const pids = strayPids(installDir);
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // gone
    }
  }
  return pids;
}
