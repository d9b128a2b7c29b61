// The driver's side of a run: the workspace it lays, the facts it records, and the copy of the home it keeps
// (without caches, nested .git renamed) beside facts.json.

import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { RequestLogEntry } from './mock-model-server.js';
import type { Plan } from './scenarios.js';
import type { FileFound, GenerationFacts, PlannedFile, SessionFacts } from './types.js';

/** A small git repo the sessions work in, so checkpoints can happen. */
export function makeWorkspace(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'README.md'), '# demo-project\n\nA throw-away workspace for the clinetrail real-producer corpus.\n');
  writeFileSync(join(dir, 'app.py'), 'def add(a, b):\n    return a + b\n');
  const git = ['-c', 'user.email=corpus@example.invalid', '-c', 'user.name=corpus'];
  const sh = (args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore', timeout: 60_000 });
  sh(['init', '-q', '-b', 'main']);
  sh([...git, 'add', '.']);
  sh([...git, 'commit', '-q', '-m', 'initial']);
}

export function newSessionFacts(plan: Plan, provider: string, model: string): SessionFacts {
  return {
    id: plan.scenario,
    scenario: `corpus case ${plan.scenario}`,
    description: plan.description,
    role: (plan.claims ?? []).length > 0 ? 'attack' : (plan.controls ?? []).length > 0 ? 'control' : 'ordinary',
    claims: plan.claims ?? [],
    controls: plan.controls ?? [],
    denied: false,
    prompts: [],
    provider,
    model,
    commands: plan.commands,
    filesRead: plan.filesRead,
    filesWritten: plan.filesWritten,
    filesWrittenFound: [],
    resumed: false,
    deleted: false,
    observedSessionId: null,
    runs: [],
    mockRequests: [],
    usageTotals: { promptTokens: 0, completionTokens: 0, cachedTokens: 0, requests: 0 },
    notes: [],
  };
}

/** What a reader of the records cares about: the planned text, whether or not the file ends with a newline. */
function fileFound(ws: string, w: PlannedFile): FileFound {
  const p = join(ws, w.path);
  if (!existsSync(p)) return { path: w.path, found: false, sameBytes: false, bytes: null, content: null };
  const text = readFileSync(p, 'utf8');
  const trim = (t: string) => t.replace(/\n$/, '');
  return {
    path: w.path,
    found: trim(text) === trim(w.content),
    sameBytes: text === w.content,
    bytes: Buffer.byteLength(text),
    content: text,
  };
}

/** Adds to each session what the mock saw for its scenario, and what the driver found in the workspace. */
export function attachMockLog(facts: GenerationFacts, mockLog: RequestLogEntry[], ws: string): void {
  const unmatched = mockLog.filter((e) => e.scenario === null).map((e) => e.seq);
  if (unmatched.length > 0) facts.notes.push(`mock requests matching no scenario: ${unmatched.join(', ')}`);
  for (const f of facts.sessions) {
    const mine = mockLog.filter((e) => e.scenario === f.scenario);
    f.mockRequests = mine.map(({ seq, at, path, model, stream, turnIndex, reply, usage }) => ({
      seq,
      at,
      path,
      model,
      stream,
      turnIndex,
      reply,
      usage,
    }));
    f.usageTotals = {
      promptTokens: mine.reduce((a, e) => a + e.usage.promptTokens, 0),
      completionTokens: mine.reduce((a, e) => a + e.usage.completionTokens, 0),
      cachedTokens: mine.reduce((a, e) => a + e.usage.cachedTokens, 0),
      requests: mine.length,
    };
    f.filesWrittenFound = f.filesWritten.map((w) => fileFound(ws, w));
    // A prompt of another scenario in this conversation means a follow-up reached the wrong session.
    for (const e of mine) {
      const others = [...e.lastUserMessage.matchAll(/corpus case ([a-z-]+)/g)].map((m) => m[1]).filter((k) => k !== f.id);
      if (others.length > 0) f.notes.push(`request ${e.seq} of this conversation carried a prompt of ${others.join(', ')}`);
    }
    const asked = [...new Set(mine.map((e) => e.model))].filter((m) => m !== f.model);
    if (asked.length > 0) f.notes.push(`the CLI asked the mock for model(s) ${asked.join(', ')}, not ${f.model}`);
  }
}

/**
 * Copies what the CLI wrote under HOME (`.cline/`) into `out/home`, nested .git renamed, and writes facts.json.
 * Everything else in the throw-away HOME is the driver's world (planted credentials, the profile, crontab and unit
 * the attack scenarios wrote) or npm's cache: left out, each named in `strippedFromHome`.
 */
export function keepHome(home: string, out: string, facts: GenerationFacts): void {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const dest = join(out, 'home');
  mkdirSync(dest, { recursive: true });
  for (const name of readdirSync(home).sort()) {
    if (name === '.cline') cpSync(join(home, name), join(dest, name), { recursive: true, verbatimSymlinks: true });
    else facts.strippedFromHome.push(name);
  }
  // git cannot commit a directory named .git inside the repository: keep it as dot-git (see corpus/README.md).
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (!statSync(p).isDirectory()) continue;
      if (name === '.git') {
        const to = join(dir, 'dot-git');
        renameSync(p, to);
        facts.renamed.push({ from: relative(dest, p), to: relative(dest, to), why: 'a nested .git cannot be committed' });
      } else walk(p);
    }
  };
  walk(dest);
  writeFileSync(join(out, 'facts.json'), `${JSON.stringify(facts, null, 2)}\n`);
}
