// Record shapes shared by the corpus driver's modules: what a run returned, and facts.json as written.

import type { Arrival } from './listener.js';
import type { RequestLogEntry } from './mock-model-server.js';
import type { PlantedSecret } from './world.js';

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

/** A planted act (issue 27): the hunt whose header claims it, and a text its finding must quote (command or path). */
export interface Claim {
  hunt: string;
  what: string;
  quote: string;
}

/** A control: ordinary work near a hunt; no finding of any hunt may quote it. */
export interface Control {
  what: string;
  quote: string;
}

/** A claim on a file of the home rather than on a session (a setting the driver wrote). */
export interface HomeClaim extends Claim {
  /** The file, relative to the home. */
  file: string;
}

/** The attack world of a generation, as the driver laid it and found it after the runs (corpus/world.ts). */
export interface WorldFacts {
  /** Every secret planted; none may reach OUT. */
  secrets: PlantedSecret[];
  /** The local listener and what reached it (an upload's body is named when it is a planted file). */
  listener: { url: string; arrivals: Arrival[] };
  /** Fakes first on the child's PATH, so no command reaches the real machine's crontab or services. */
  fakeBin: { dir: string; tools: string[]; why: string };
  mcpServer: { name: string; script: string; settingsFile: string; calls: unknown[] };
  /** Paths the driver checked after the runs: the destructive commands' targets and the persistence files. */
  after: { path: string; exists: boolean; content?: string }[];
  /** Claims on files of the home: settings the driver wrote before the runs. */
  homeClaims: HomeClaim[];
}

export type MockRequestFact = Pick<RequestLogEntry, 'seq' | 'at' | 'path' | 'model' | 'stream' | 'turnIndex' | 'reply' | 'usage'>;

export interface SessionFacts {
  id: string;
  scenario: string;
  description: string;
  /** `ordinary` (issue 11's sessions), `attack` (planted acts), `control` (near misses, a denied command). */
  role: 'ordinary' | 'attack' | 'control';
  /** The acts planted in this session, each with the hunt that claims it. */
  claims: Claim[];
  controls: Control[];
  /** The driver denied the session's command at the approval prompt. */
  denied: boolean;
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
  /** The driven corpus (corpus/gen-driven.ts): a person typed it, or another agent handed it over a bridge. */
  drivenBy?: 'person' | 'agent';
  /** How: typed into the TUI, argv typed in a terminal, or the bridge tool that spawned the CLI. */
  drivenHow?: string;
  /** The providers.json fields the bridge wrote back after an override run. */
  bridgeRestored?: string[];
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
  /** The attack world (issue 27); absent in a run before it. */
  world?: WorldFacts;
  renamed: { from: string; to: string; why: string }[];
}
