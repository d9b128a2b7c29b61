/**
 * Synthetic fleet generator for `make bench`: `node dist/bench/generate.js --dir D --seed N --hosts H --mb M --big-mb B`.
 * Writes D/fleet/<host>/... (one child folder per host image) in the real Cline layouts (Windows, macOS,
 * Linux, VS Code server, Cursor globalStorage; `~/.cline/data`), deterministic by seed (file bytes; not
 * mtimes), about M MB over H hosts, plus `host-big` holding one ui_messages.json of B MB written as a
 * stream (never built in memory). Writes D/fleet-manifest.json: bytes written and every transcript file.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  apiHistory,
  hookLines,
  imagePool,
  legacyStep,
  MODELS,
  prose,
  Rng,
  sdkTurn,
  sentence,
  subSeed,
  taskStart,
  type TaskGen,
} from './content.js';

export interface GenerateOptions {
  dir: string;
  seed: number;
  hosts: number;
  mb: number;
  bigMb: number;
}

/** A transcript the loader parses: ui_messages.json, api history of a task without one, SDK messages. */
export interface Transcript {
  path: string;
  kind: 'ui' | 'api' | 'sdk';
  bytes: number;
}

export interface FleetManifest {
  params: GenerateOptions;
  fleet: string;
  bytes_total: number;
  files_total: number;
  transcript_bytes: number;
  transcripts: Transcript[];
  big_file: string | null;
  seconds: number;
}

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** The repository root (bench/ or dist/bench/ under it). */
const REPO =
  [path.resolve(HERE, '..'), path.resolve(HERE, '..', '..')].find((d) => fs.existsSync(path.join(d, 'package.json'))) ??
  path.resolve(HERE, '..');

/** Refuses a bench folder inside the repository: generated data never goes there. */
export function checkDir(dir: string): string {
  const abs = path.resolve(dir);
  if (abs === REPO || abs.startsWith(REPO + path.sep))
    throw new Error(`bench: --dir ${abs} is inside the repository ${REPO}; use a folder under ${'/tmp'} instead`);
  return abs;
}

interface Layout {
  gsRoot: string;
  home: string;
  cwd: string;
  os: string;
  editor: string;
}

const USERS = ['alice', 'bob', 'carol', 'dmitri', 'jürgen', 'yuki', 'svc-build', 'maría'];

function layout(rng: Rng): Layout {
  const user = rng.pick(USERS);
  const gs = 'User/globalStorage/saoudrizwan.claude-dev';
  switch (rng.int(0, 4)) {
    case 0:
      return {
        home: `C/Users/${user}`,
        gsRoot: `C/Users/${user}/AppData/Roaming/Code/${gs}`,
        cwd: `C:\\Users\\${user}\\src\\app`,
        os: 'win32',
        editor: 'Visual Studio Code',
      };
    case 1:
      return {
        home: `Users/${user}`,
        gsRoot: `Users/${user}/Library/Application Support/Code/${gs}`,
        cwd: `/Users/${user}/dev/app`,
        os: 'darwin',
        editor: 'Visual Studio Code',
      };
    case 2:
      return {
        home: `Users/${user}`,
        gsRoot: `Users/${user}/Library/Application Support/Cursor/${gs}`,
        cwd: `/Users/${user}/dev/web`,
        os: 'darwin',
        editor: 'Cursor',
      };
    case 3:
      return {
        home: `home/${user}`,
        gsRoot: `home/${user}/.config/Code/${gs}`,
        cwd: `/home/${user}/proj`,
        os: 'linux',
        editor: 'Visual Studio Code',
      };
    default:
      return {
        home: `home/${user}`,
        gsRoot: `home/${user}/.vscode-server/data/${gs}`,
        cwd: `/home/${user}/proj`,
        os: 'linux',
        editor: 'Visual Studio Code',
      };
  }
}

/** Writes files and counts what was written. */
class Writer {
  bytes = 0;
  files = 0;
  transcripts: Transcript[] = [];
  write(file: string, text: string, kind?: Transcript['kind']): void {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    const n = Buffer.byteLength(text);
    this.bytes += n;
    this.files += 1;
    if (kind) this.transcripts.push({ path: file, kind, bytes: n });
  }
}

const T0 = 1_760_000_000_000;

/** Legacy tasks under one store root (`tasks/<id>/...` + `state/taskHistory.json`) up to `budget` bytes. */
function legacyStore(w: Writer, rng: Rng, images: string[], root: string, lay: Layout, budget: number, t0: number): void {
  const history: Record<string, unknown>[] = [];
  let used = 0;
  let start = t0;
  while (used < budget) {
    start += rng.int(60_000, 3_600_000);
    const id = String(start);
    const model = rng.pick(MODELS);
    const t: TaskGen = { rng, images, ts: start, cwd: lay.cwd, model, tokensIn: 0, tokensOut: 0, cost: 0 };
    const prompt = sentence(rng, rng.int(4, 30));
    const size = Math.min(budget - used + 1024, Math.floor(Math.exp((rng.int(0, 100) / 100) * Math.log(400)) * 1024)); // 1-400 KB
    const dir = path.join(root, 'tasks', id);
    const hasUi = rng.chance(0.95);
    if (hasUi) {
      const parts = [JSON.stringify(taskStart(t, prompt))];
      let n = parts[0].length;
      while (n < size) {
        for (const m of legacyStep(t)) {
          const s = JSON.stringify(m);
          parts.push(s);
          n += s.length;
        }
      }
      parts.push(
        JSON.stringify({
          ts: (t.ts += 900),
          type: 'say',
          say: 'completion_result',
          text: prose(rng, rng.int(50, 400)),
          lastCheckpointHash: rng.id(7),
        }),
      );
      w.write(path.join(dir, 'ui_messages.json'), `[${parts.join(',')}]`, 'ui');
      used += n;
    }
    if (!hasUi || rng.chance(0.6)) {
      const turns = hasUi ? rng.int(1, 12) : Math.max(1, Math.floor(size / 4000));
      const text = JSON.stringify(apiHistory({ ...t, ts: start }, prompt, turns));
      w.write(path.join(dir, 'api_conversation_history.json'), text, hasUi ? undefined : 'api');
      used += text.length;
    }
    if (rng.chance(0.8)) {
      const meta = {
        files_in_context: [
          {
            path: 'src/app.ts',
            record_state: 'active',
            record_source: 'read_tool',
            cline_read_date: start + 3000,
            cline_edit_date: null,
          },
        ],
        model_usage: [{ ts: start + 390, model_id: model.id, model_provider_id: model.provider, mode: 'act' }],
        environment_history: [
          {
            ts: start + 380,
            os_name: lay.os,
            os_version: '10.0.22631',
            os_arch: 'x64',
            host_name: lay.editor,
            host_version: '1.104.0',
            cline_version: '3.89.2',
          },
        ],
      };
      w.write(path.join(dir, 'task_metadata.json'), JSON.stringify(meta, null, 2));
    }
    history.push({
      id,
      ulid: rng.id(26).toUpperCase(),
      ts: t.ts,
      task: prompt,
      tokensIn: t.tokensIn,
      tokensOut: t.tokensOut,
      cacheWrites: 0,
      cacheReads: 0,
      totalCost: Math.round(t.cost * 1e4) / 1e4,
      size,
      cwdOnTaskInitialization: lay.cwd,
      modelId: model.id,
      apiProvider: model.provider,
    });
  }
  w.write(path.join(root, 'state', 'taskHistory.json'), JSON.stringify(history));
}

/** SDK sessions, hooks.jsonl and globalState.json under `~/.cline/data`, up to `budget` bytes. */
function clineData(w: Writer, rng: Rng, images: string[], data: string, lay: Layout, budget: number, t0: number): void {
  const hooks: string[] = [];
  let used = 0;
  let start = t0;
  while (used < budget) {
    start += rng.int(60_000, 3_600_000);
    const sid = `${start}_${rng.id(5)}`;
    const dir = path.join(data, 'sessions', sid);
    const model = rng.pick(MODELS);
    const prompt = sentence(rng, rng.int(4, 25));
    const messagesPath = `/${lay.home}/.cline/data/sessions/${sid}/${sid}.messages.json`;
    const manifest = {
      version: 1,
      session_id: sid,
      source: rng.pick(['cli', 'vscode', 'jetbrains']),
      pid: rng.int(1000, 99999),
      started_at: new Date(start).toISOString(),
      ended_at: new Date(start + 600_000).toISOString(),
      exit_code: 0,
      status: rng.pick(['completed', 'completed', 'failed', 'cancelled']),
      interactive: true,
      provider: model.provider,
      model: model.id,
      cwd: lay.cwd,
      workspace_root: lay.cwd,
      enable_tools: true,
      enable_spawn: false,
      enable_teams: false,
      prompt,
      metadata: { title: prompt.slice(0, 120), checkpointEnabled: true },
      messages_path: messagesPath,
    };
    w.write(path.join(dir, `${sid}.json`), `${JSON.stringify(manifest, null, 2)}\n`);
    const size = Math.floor(Math.exp((rng.int(0, 100) / 100) * Math.log(600)) * 1024);
    const transcript = (file: string, agent: 'lead' | 'subagent', sessionId: string, origin: Record<string, unknown>) => {
      const state = { ts: start, n: 0 };
      const messages: unknown[] = [
        { id: `msg_${rng.id(12)}`, role: 'user', content: [{ type: 'text', text: prompt }], ts: start },
      ];
      let n = 0;
      while (n < size) {
        const turn = sdkTurn(rng, images, state, model);
        messages.push(...turn);
        n += JSON.stringify(turn).length * 1.3;
        if (agent === 'lead' && rng.chance(0.25)) hooks.push(...hookLines(rng, sid, lay.cwd, state.ts));
      }
      const payload = {
        version: 1,
        updated_at: new Date(state.ts).toISOString(),
        agent,
        sessionId,
        ...(agent === 'subagent' ? { taskType: 'subagent_task' } : {}),
        origin,
        messages,
      };
      const text = `${JSON.stringify(payload, null, 2)}\n`;
      w.write(file, text, 'sdk');
      used += text.length;
    };
    transcript(path.join(dir, `${sid}.messages.json`), 'lead', sid, { source: manifest.source, mode: 'user', sessionId: sid });
    if (rng.chance(0.15)) {
      const agentId = `agent_${start + 2500}_${rng.id(6)}`;
      transcript(path.join(dir, `${agentId}.messages.json`), 'subagent', `${sid}__${agentId}`, {
        source: manifest.source,
        mode: 'user',
        sessionId: `${sid}__${agentId}`,
        parentThreadId: sid,
        subagent: agentId,
      });
    }
  }
  if (hooks.length) w.write(path.join(data, 'logs', 'hooks.jsonl'), `${hooks.join('\n')}\n`);
  const state = {
    __vscodeMigrationVersion: 3,
    clineVersion: '4.1.25',
    'cline.generatedMachineId': rng.id(32),
    autoApprovalSettings: {
      version: 1,
      enabled: rng.chance(0.5),
      favorites: [],
      maxRequests: 20,
      actions: {
        readFiles: true,
        editFiles: rng.chance(0.5),
        executeSafeCommands: true,
        executeAllCommands: rng.chance(0.3),
        useBrowser: false,
        useMcp: true,
      },
      enableNotifications: false,
    },
    mode: 'act',
  };
  w.write(path.join(data, 'globalState.json'), JSON.stringify(state, null, 2));
}

/** The big file: one task whose ui_messages.json is `bigMb` MB, written in ~1 MB chunks. */
function bigHost(w: Writer, rng: Rng, images: string[], fleet: string, bigMb: number): string {
  const lay: Layout = {
    home: 'home/ops',
    gsRoot: 'home/ops/.config/Code/User/globalStorage/saoudrizwan.claude-dev',
    cwd: '/home/ops/monorepo',
    os: 'linux',
    editor: 'Visual Studio Code',
  };
  const root = path.join(fleet, 'host-big', lay.gsRoot);
  const id = String(T0 + 5_000_000);
  const file = path.join(root, 'tasks', id, 'ui_messages.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const t: TaskGen = { rng, images, ts: Number(id), cwd: lay.cwd, model: MODELS[0], tokensIn: 0, tokensOut: 0, cost: 0 };
  const target = bigMb * 1024 * 1024;
  const fd = fs.openSync(file, 'w');
  let written = 0;
  let chunk: string[] = [`[${JSON.stringify(taskStart(t, 'long-running migration of the monorepo 🚀'))}`];
  let chunkChars = chunk[0].length;
  const flush = () => {
    const buf = Buffer.from(chunk.join(''));
    fs.writeSync(fd, buf);
    written += buf.length;
    chunk = [];
    chunkChars = 0;
  };
  try {
    while (written + chunkChars < target) {
      for (const m of legacyStep(t)) {
        const s = `,${JSON.stringify(m)}`;
        chunk.push(s);
        chunkChars += s.length;
      }
      if (chunkChars >= 1 << 20) flush();
    }
    chunk.push(']');
    flush();
  } finally {
    fs.closeSync(fd);
  }
  w.bytes += written;
  w.files += 1;
  w.transcripts.push({ path: file, kind: 'ui', bytes: written });
  const history = [
    {
      id,
      ts: t.ts,
      task: 'long-running migration of the monorepo 🚀',
      tokensIn: t.tokensIn,
      tokensOut: t.tokensOut,
      totalCost: Math.round(t.cost * 1e4) / 1e4,
      cwdOnTaskInitialization: lay.cwd,
      modelId: MODELS[0].id,
    },
  ];
  w.write(path.join(root, 'state', 'taskHistory.json'), JSON.stringify(history));
  return file;
}

/** Generates the whole fleet under `<dir>/fleet` (removed first) and writes `<dir>/fleet-manifest.json`. */
export function generateFleet(options: GenerateOptions): FleetManifest {
  const dir = checkDir(options.dir);
  const fleet = path.join(dir, 'fleet');
  const t0 = performance.now();
  fs.rmSync(fleet, { recursive: true, force: true });
  fs.mkdirSync(fleet, { recursive: true });
  const images = imagePool(new Rng(subSeed(options.seed, 0)));
  const w = new Writer();
  const perHost = (options.mb * 1024 * 1024) / Math.max(1, options.hosts);
  for (let i = 0; i < options.hosts; i++) {
    const rng = new Rng(subSeed(options.seed, i + 1));
    const lay = layout(rng);
    const host = path.join(fleet, `host-${String(i).padStart(3, '0')}`);
    const hostT0 = T0 + rng.int(0, 90) * 86_400_000;
    const hasCline = rng.chance(0.6);
    const legacyBudget = hasCline ? perHost * 0.55 : perHost;
    const clineLegacy = hasCline && rng.chance(0.3) ? legacyBudget * 0.3 : 0;
    legacyStore(w, rng, images, path.join(host, lay.gsRoot), lay, legacyBudget - clineLegacy, hostT0);
    if (hasCline) {
      const data = path.join(host, lay.home, '.cline', 'data');
      if (clineLegacy > 0) legacyStore(w, rng, images, data, lay, clineLegacy, hostT0 + 1000);
      clineData(w, rng, images, data, lay, perHost * 0.45, hostT0 + 2000);
    }
  }
  const big = options.bigMb > 0 ? bigHost(w, new Rng(subSeed(options.seed, 1_000_000)), images, fleet, options.bigMb) : null;
  const manifest: FleetManifest = {
    params: { ...options, dir },
    fleet,
    bytes_total: w.bytes,
    files_total: w.files,
    transcript_bytes: w.transcripts.reduce((n, t) => n + t.bytes, 0),
    transcripts: w.transcripts,
    big_file: big,
    seconds: (performance.now() - t0) / 1000,
  };
  fs.writeFileSync(path.join(dir, 'fleet-manifest.json'), JSON.stringify(manifest));
  return manifest;
}

/** The manifest of a fleet already generated with exactly these options, or null. */
export function existingFleet(options: GenerateOptions): FleetManifest | null {
  const file = path.join(checkDir(options.dir), 'fleet-manifest.json');
  try {
    const m = JSON.parse(fs.readFileSync(file, 'utf8')) as FleetManifest;
    const p = m.params;
    const same = p.seed === options.seed && p.hosts === options.hosts && p.mb === options.mb && p.bigMb === options.bigMb;
    return same && m.transcripts.every((t) => fs.existsSync(t.path)) ? m : null;
  } catch {
    return null;
  }
}

function main(): void {
  const { values } = parseArgs({
    options: {
      dir: { type: 'string', default: '/tmp/clinetrail-bench' },
      seed: { type: 'string', default: '1' },
      hosts: { type: 'string', default: '200' },
      mb: { type: 'string', default: '1024' },
      'big-mb': { type: 'string', default: '1024' },
    },
  });
  const m = generateFleet({
    dir: values.dir!,
    seed: Number(values.seed),
    hosts: Number(values.hosts),
    mb: Number(values.mb),
    bigMb: Number(values['big-mb']),
  });
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  process.stdout.write(
    `fleet ${m.fleet}: ${m.files_total} files, ${mb(m.bytes_total)} MB written (${m.transcripts.length} transcripts, ${mb(m.transcript_bytes)} MB) in ${m.seconds.toFixed(1)} s\n`,
  );
  for (const t of m.transcripts) process.stdout.write(`${t.kind}\t${t.bytes}\t${t.path}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) main();
