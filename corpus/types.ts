// Record shapes shared by the corpus driver's modules: what a run returned, and facts.json as written.

import type { RequestLogEntry } from './mock-model-server.js';

export type Generation = 'go-core' | 'legacy-node' | 'sdk';

export type Mode = 'plan' | 'act';

export interface Target {
  generation: Generation;
  major: number;
  version: string;
}

export interface RunResult {
  argv: string[];
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  startedAt: string;
  endedAt: string;
}

export interface PromptFact {
  text: string;
  mode: Mode;
  typedAt: string;
  /** How the prompt reached the CLI: argv, a pty, or an instance command (1.x `cline task send`). */
  via: string;
}

export interface PlannedFile {
  path: string;
  content: string;
}

export interface FileFound {
  path: string;
  /** The file is there with the planned content, compared modulo one trailing newline. */
  found: boolean;
  /** The bytes are exactly the planned ones (the legacy `write_to_file` drops the final newline). */
  sameBytes: boolean;
  bytes: number | null;
  /** The exact text found in the workspace, or null when the file is missing. */
  content: string | null;
}

export type MockRequestFact = Pick<RequestLogEntry, 'seq' | 'at' | 'path' | 'model' | 'stream' | 'turnIndex' | 'reply' | 'usage'>;

export interface SessionFacts {
  id: string;
  scenario: string;
  description: string;
  prompts: PromptFact[];
  provider: string;
  model: string;
  commands: { command: string; expectedExitCode: number }[];
  filesRead: string[];
  filesWritten: PlannedFile[];
  /** Checked by the driver in the workspace after the runs. */
  filesWrittenFound: FileFound[];
  resumed: boolean;
  deleted: boolean;
  /** The session or task id as the CLI reported it (only used to resume or delete). */
  observedSessionId: string | null;
  runs: RunResult[];
  mockRequests: MockRequestFact[];
  usageTotals: { promptTokens: number; completionTokens: number; cachedTokens: number; requests: number };
  notes: string[];
}

export interface GenerationFacts {
  package: string;
  version: string;
  generation: Generation;
  driver: string;
  drivenAt: string;
  home: string;
  workspace: string;
  mockBaseUrl: string;
  auth: RunResult[];
  sessions: SessionFacts[];
  skipped: { what: string; why: string }[];
  /** What the driver did around the sessions that is not one session's (instances started, retries). */
  notes: string[];
  strippedFromHome: string[];
  renamed: { from: string; to: string; why: string }[];
}
