// A long-lived 1.x instance (cline-host + cline-core), started the way the Go CLI starts one (same binaries, flags,
// NODE_PATH, NODE_ENV, log files under ~/.cline/logs) but without its deadline: the Go CLI gives a new instance
// 12 s to register in ~/.cline/data/locks.db and kills it after that, and cline-core needs longer on a loaded
// machine. The sessions then reach it with the CLI's own `--address` commands.

import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { log, sleep, until } from './child.js';
import type { Ctx } from './session.js';

export interface Instance {
  /** As cline-core registers itself; the CLI's `--address` must match it exactly. */
  address: string;
  core: ChildProcess;
  host: ChildProcess;
  coreLog: string;
}

const START_TIMEOUT_MS = 180_000;

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

/** The Go CLI's log file stamp (Go layout 2006-01-02-15-04-05; the children run with TZ=UTC). */
function stamp(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())}-${p(d.getUTCHours())}-${p(d.getUTCMinutes())}-${p(d.getUTCSeconds())}`;
}

function spawnLogged(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, logFile: string): ChildProcess {
  const fd = openSync(logFile, 'w');
  try {
    return spawn(cmd, args, { cwd, env, stdio: ['ignore', fd, fd], detached: true });
  } finally {
    closeSync(fd);
  }
}

const alive = (c: ChildProcess): boolean => c.exitCode === null && c.signalCode === null;

function killGroup(c: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (c.pid && alive(c)) process.kill(-c.pid, signal);
  } catch {
    // gone
  }
}

export async function startInstance(ctx: Ctx): Promise<Instance | null> {
  const nm = join(ctx.installDir, 'node_modules', 'cline');
  const logsDir = join(ctx.home, '.cline', 'logs');
  mkdirSync(logsDir, { recursive: true });
  const corePort = await freePort();
  let hostPort = await freePort();
  while (hostPort === corePort) hostPort = await freePort();
  const ts = stamp(new Date());
  const hostLog = join(logsDir, `cline-host-${ts}-localhost-${hostPort}.log`);
  const coreLog = join(logsDir, `cline-core-${ts}-localhost-${corePort}.log`);
  const startedMs = Date.now();
  const host = spawnLogged(
    join(nm, 'bin', 'cline-host'),
    ['--verbose', '--port', String(hostPort), '--workspace', ctx.ws],
    ctx.ws,
    ctx.env,
    hostLog,
  );
  const coreEnv = { ...ctx.env, NODE_PATH: `${nm}/node_modules:${nm}/fake_node_modules`, NODE_ENV: 'development' };
  const core = spawnLogged(
    'node',
    [
      join(nm, 'cline-core.js'),
      '--port',
      String(corePort),
      '--host-bridge-port',
      String(hostPort),
      '--config',
      join(ctx.home, '.cline'),
    ],
    nm,
    coreEnv,
    coreLog,
  );
  const address = `127.0.0.1:${corePort}`;
  const registered = await until(() => {
    if (!alive(core)) return 'exited';
    return existsSync(coreLog) && readFileSync(coreLog, 'utf8').includes(`Registered instance in SQLite locks: ${address}`)
      ? 'registered'
      : null;
  }, START_TIMEOUT_MS);
  const secs = ((Date.now() - startedMs) / 1000).toFixed(1);
  if (registered !== 'registered') {
    ctx.facts.notes.push(`a cline-core instance on ${address} did not register (${registered ?? `not within ${secs} s`})`);
    await stopInstance({ address, core, host, coreLog });
    return null;
  }
  ctx.facts.notes.push(
    `instance ${address} started by the driver (cline-host --port ${hostPort} --workspace <workspace>; node cline-core.js ` +
      `--port ${corePort} --host-bridge-port ${hostPort} --config ~/.cline), registered after ${secs} s`,
  );
  log(`${ctx.target.version}: instance ${address} registered after ${secs} s`);
  return { address, core, host, coreLog };
}

/** SIGTERM to cline-core, as `cline instance kill` does (it then removes its lock and stops its host). */
export async function stopInstance(inst: Instance): Promise<void> {
  killGroup(inst.core, 'SIGTERM');
  await until(() => !alive(inst.core) && !alive(inst.host), 15_000);
  killGroup(inst.host, 'SIGTERM');
  await sleep(500);
  killGroup(inst.core, 'SIGKILL');
  killGroup(inst.host, 'SIGKILL');
}
