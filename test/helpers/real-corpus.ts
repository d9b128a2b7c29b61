/**
 * The real-producer corpus (fixtures/real-producer, corpus/README.md): homes the released Cline CLIs wrote
 * when corpus/drive.ts drove them, and beside each the driver's own record, facts.json. Tests take their
 * expectations from the facts, never from what clinetrail printed.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fixture } from './source.js';

export interface CorpusRun {
  exitCode: number | null;
  timedOut: boolean;
}

export interface CorpusSession {
  id: string;
  observedSessionId: string | null;
  deleted: boolean;
  resumed: boolean;
  provider: string;
  model: string;
  prompts: Array<{ text: string; mode: string }>;
  commands: Array<{ command: string; expectedExitCode: number }>;
  runs: CorpusRun[];
  mockRequests: Array<{ model: string | null }>;
  usageTotals: { promptTokens: number; completionTokens: number; cachedTokens: number; requests: number };
}

export interface CorpusFacts {
  version: string;
  /** `go-core` (1.0.x), `legacy-node` (2.x), `sdk` (3.x). */
  generation: string;
  workspace: string;
  sessions: CorpusSession[];
  renamed: Array<{ from: string; to: string }>;
}

export interface Corpus {
  /** The corpus folder name, `cline-<version>`. */
  name: string;
  home: string;
  facts: CorpusFacts;
}

const ROOT = fixture('real-producer');

/** Every generation in the corpus, oldest first. */
export function corpora(): Corpus[] {
  return fs
    .readdirSync(ROOT)
    .filter((name) => fs.existsSync(path.join(ROOT, name, 'facts.json')))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    .map((name) => ({
      name,
      home: path.join(ROOT, name, 'home'),
      facts: JSON.parse(fs.readFileSync(path.join(ROOT, name, 'facts.json'), 'utf8')) as CorpusFacts,
    }));
}

/**
 * A copy of a corpus home at `dest` as the CLI left it: the folders the driver renamed to be committed
 * (a nested `.git` saved as `dot-git`) get their names back.
 */
export function copyHome(corpus: Corpus, dest: string): void {
  fs.cpSync(corpus.home, dest, { recursive: true });
  for (const { from, to } of corpus.facts.renamed ?? []) fs.renameSync(path.join(dest, to), path.join(dest, from));
}

/** Sessions whose every run ended with exit 0 and in time: what was typed is all in the records. */
export function completedSessions(facts: CorpusFacts): CorpusSession[] {
  return facts.sessions.filter(
    (s) =>
      s.observedSessionId !== null && !s.deleted && s.runs.length > 0 && s.runs.every((r) => r.exitCode === 0 && !r.timedOut),
  );
}
