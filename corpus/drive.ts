// Drives the released Cline CLIs (npm package `cline`, one release per major) against the scripted mock model
// server and keeps the homes they write as fixtures/real-producer/cline-<version>/home, with a facts.json written
// from the driver's side (issue 11). Run by `make real-corpus [MAJORS=1|2|3|<version>]`; not part of `make test`.
//
// This file picks the versions, installs them, lays each generation's home and workspace, starts the mock, hands
// over to the generation's module (gen-*.ts), then stops what the CLI left running and keeps the home.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { killStrays, log, now, sleep } from './child.js';
import { attackPlans } from './attacks.js';
import { attachMockLog, keepHome, makeWorkspace } from './facts.js';
import { drivenPlans } from './driven-plans.js';
import { bridgeWorktree, driveDriven } from './gen-driven.js';
import { driveGoCore } from './gen-go-core.js';
import { driveLegacyNode } from './gen-legacy-node.js';
import { driveSdk } from './gen-sdk.js';
import { type Arrival, startListener } from './listener.js';
import { startMockServer } from './mock-model-server.js';
import { allPlans, mockScenarios } from './scenarios.js';
import type { Ctx } from './session.js';
import type { Generation, GenerationFacts, Target, WorldFacts } from './types.js';
import { makeWorld, mcpCalls, type World, worldAfter } from './world.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ROOT = '/tmp/clinetrail-real-corpus';
const FIXTURES = join(REPO, 'fixtures', 'real-producer');

/** The latest release of each major of the `cline` package, as the registry lists them. */
function pickVersions(): Target[] {
  const raw = execFileSync('npm', ['view', 'cline', 'versions', '--json'], { encoding: 'utf8', timeout: 120_000 });
  const versions = (JSON.parse(raw) as string[]).filter((v) => /^\d+\.\d+\.\d+$/.test(v));
  const latest = (major: number): string | undefined =>
    versions
      .filter((v) => Number(v.split('.')[0]) === major)
      .sort((a, b) => {
        const pa = a.split('.').map(Number);
        const pb = b.split('.').map(Number);
        return pa[0] - pb[0] || pa[1] - pb[1] || pa[2] - pb[2];
      })
      .at(-1);
  const out: Target[] = [];
  const gens: [number, Generation][] = [
    [1, 'go-core'],
    [2, 'legacy-node'],
    [3, 'sdk'],
  ];
  for (const [major, generation] of gens) {
    const version = latest(major);
    if (version) out.push({ generation, major, version });
  }
  return out;
}

function install(target: Target, installDir: string): void {
  if (existsSync(join(installDir, 'node_modules', 'cline', 'package.json'))) return;
  log(`installing cline@${target.version} into ${installDir}`);
  mkdirSync(installDir, { recursive: true });
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', installDir, `cline@${target.version}`], {
    stdio: 'inherit',
    timeout: 900_000,
  });
}

function childEnv(home: string, baseUrl: string, fakeBin: string): NodeJS.ProcessEnv {
  return {
    // A fixed PATH: the 1.x cline-core logs its environment, and the legacy engines list the tools found on PATH.
    // The world's fake crontab and systemctl come first: no command of the mock reaches the real machine's.
    PATH: [...new Set([fakeBin, dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'])].join(':'),
    HOME: home,
    USER: 'corpus',
    SHELL: '/bin/bash',
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    TERM: 'dumb',
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    // No self-update: 1.x starts `npm install cline` in the background unless it believes it runs in CI.
    CI: 'true',
    CLINE_NO_AUTO_UPDATE: '1',
    NO_UPDATE_NOTIFIER: '1',
    npm_config_update_notifier: 'false',
    OPENAI_BASE_URL: baseUrl,
  };
}

const DRIVERS: Record<Generation, (ctx: Ctx) => Promise<void>> = {
  'go-core': driveGoCore,
  'legacy-node': driveLegacyNode,
  sdk: driveSdk,
};

/** The install folder of the generation being driven, whose processes are stopped if the driver is interrupted. */
let active: string | null = null;
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    if (active) killStrays(active, 'SIGKILL');
    process.exit(130);
  });

/** `driven`: the driven corpus of a 3.x release (corpus/gen-driven.ts) instead of the generation's sessions. */
async function driveTarget(target: Target, driven = false): Promise<void> {
  const dir = join(ROOT, `${driven ? 'driven-' : ''}cline-${target.version}`);
  rmSync(dir, { recursive: true, force: true });
  const home = join(dir, 'home');
  const ws = join(dir, 'work', 'demo-project');
  const installDir = join(ROOT, 'install', `cline-${target.version}`);
  const logs = join(dir, 'logs');
  for (const d of [home, logs]) mkdirSync(d, { recursive: true });
  makeWorkspace(ws);
  install(target, installDir);
  const listener = await startListener();
  const world = makeWorld(dir, home, ws, listener.url);
  for (const s of new Set(world.secrets.map((x) => x.file))) listener.knowFile(s, readFileSync(join(dir, s)));
  const mock = await startMockServer({
    scenarios: [],
    logFile: join(logs, 'mock-requests.jsonl'),
    requestCap: 400,
    timeoutMs: 60 * 60_000,
  });
  const facts: GenerationFacts = {
    package: 'cline',
    version: target.version,
    generation: target.generation,
    driver: 'corpus/drive.ts',
    drivenAt: now(),
    home,
    workspace: ws,
    mockBaseUrl: mock.baseUrl,
    auth: [],
    sessions: [],
    skipped: [],
    notes: [],
    strippedFromHome: [],
    renamed: [],
  };
  // The scripts need the workspace path (3.x tools take absolute paths), so they are set once it exists.
  const plans = driven ? drivenPlans(ws, bridgeWorktree(dir)) : allPlans(ws, target.generation === 'sdk');
  if (!driven) for (const p of attackPlans(ws, home, world, listener.url, target.generation === 'sdk')) plans[p.scenario] = p;
  mock.setScenarios(mockScenarios(plans));
  const env = childEnv(home, mock.baseUrl, world.fakeBin);
  const ctx: Ctx = { target, dir, home, ws, installDir, logs, env, mock, facts, plans, runCount: 0 };
  active = installDir;
  try {
    await (driven ? driveDriven : DRIVERS[target.generation])(ctx);
  } finally {
    await sleep(2000);
    const killed = killStrays(installDir);
    if (killed.length > 0) log(`${target.version}: stopped stray processes ${killed.join(', ')}`);
    await sleep(1500);
    killStrays(installDir, 'SIGKILL');
    active = null;
    await mock.close();
    await listener.close();
  }
  if (!driven) facts.world = worldFacts(world, home, listener.url, listener.arrivals);
  attachMockLog(facts, mock.log, ws);
  keepHome(home, join(FIXTURES, ...(driven ? ['driven'] : []), `cline-${target.version}`), facts);
}

/** What the driver planted and found around the sessions (corpus/world.ts), for facts.json. */
function worldFacts(world: World, home: string, url: string, arrivals: Arrival[]): WorldFacts {
  return {
    secrets: world.secrets,
    listener: { url, arrivals },
    fakeBin: {
      dir: world.fakeBin,
      tools: ['crontab', 'systemctl'],
      why: "first on the child PATH (and again in the throw-away ~/.bash_profile, for the legacy engines' login shells): crontab and systemctl --user would reach the real machine; the fakes write into the throw-away HOME",
    },
    mcpServer: {
      name: 'corpus-tickets',
      script: world.mcpServerScript,
      settingsFile: '.cline/data/settings/cline_mcp_settings.json',
      calls: mcpCalls(world),
    },
    after: worldAfter(world, home),
    homeClaims: [
      {
        hunt: 'safety-turned-off',
        what: 'an MCP tool approved for good',
        quote: 'mcpServers.corpus-tickets.autoApprove=lookup_ticket',
        file: '.cline/data/settings/cline_mcp_settings.json',
      },
    ],
  };
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const targets = pickVersions();
  log(`versions: ${targets.map((t) => t.version).join(', ')}`);
  mkdirSync(ROOT, { recursive: true });
  // `driven` (make real-corpus MAJORS=driven): the driven corpus of the latest 3.x release only
  const sdk = targets.find((t) => t.generation === 'sdk');
  if (only.includes('driven')) {
    if (!sdk) throw new Error('no 3.x release of cline on the registry');
    return driveTarget(sdk, true);
  }
  for (const t of targets) {
    if (only.length > 0 && !only.includes(String(t.major)) && !only.includes(t.version)) continue;
    await driveTarget(t);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
