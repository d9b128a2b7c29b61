/**
 * What the fleet report shows, as read from the warehouse (report/read.ts) and rendered into HTML
 * (report/render.ts). Times are texts already in UTC (`2026-05-01T10:00:00Z`), counts plain numbers.
 */

/** A cell of a report query: what the SQL hands back after bigints became numbers. */
export type Cell = string | number | boolean | null;

/** The caps that keep the page bounded on a big fleet; each is said on the page where it cuts. */
export interface ReportCaps {
  hosts: number;
  chartHosts: number;
  commands: number;
  commandChars: number;
  models: number;
  secrets: number;
  settings: number;
  hunts: number;
  findings: number;
  sessions: number;
  rowsPerSession: number;
  textChars: number;
  /** Hosts with a section of their own (those with most findings, then most sessions). */
  hostSections: number;
  /** Rows of each list of a host's section (sessions, findings, settings, secrets). */
  perHost: number;
  /** Host rows of the fleet timeline. */
  timelineHosts: number;
  /** Findings shown with their surrounding rows (the first of the findings table). */
  contexts: number;
  /** Rows kept on each side of a finding's row in its session (besides the prompt before it and its result). */
  contextRows: number;
  /** Rows kept on each side of a finding's row in its file, for a row of no session (a settings file). */
  fileContextRows: number;
}

export const DEFAULT_CAPS: ReportCaps = {
  hosts: 500,
  chartHosts: 8,
  commands: 25,
  commandChars: 200,
  models: 50,
  secrets: 50,
  settings: 200,
  hunts: 100,
  findings: 200,
  sessions: 200,
  rowsPerSession: 40,
  textChars: 300,
  hostSections: 50,
  perHost: 20,
  timelineHosts: 30,
  contexts: 100,
  contextRows: 2,
  fileContextRows: 7,
};

/** The fleet at a glance. */
export interface Glance {
  hosts: number;
  hostImages: number;
  sessions: number;
  rows: number;
  undatedRows: number;
  parserErrors: number;
  firstUtc: string | null;
  lastUtc: string | null;
  secretFingerprints: number;
  lastLoadUtc: string | null;
  version: string | null;
}

export interface HostRow {
  host: string;
  status: string | null;
  sessions: number;
  rows: number;
  firstUtc: string | null;
  lastUtc: string | null;
  stores: string | null;
}

/** The bucket width of the charts: the smallest that gives at most about 60 bars over the time span. */
export type TimeUnit = 'day' | 'week' | 'month' | 'quarter' | 'year';

/** One bar of a chart: its bucket's start and a count per series. */
export interface Bucket {
  start: string;
  counts: Map<string, number>;
}

export interface Timeline {
  unit: TimeUnit;
  /** Sessions started per bucket, per host (the top hosts, the rest as one series). */
  sessions: Bucket[];
  /** Hosts that started a session per bucket. */
  activeHosts: Bucket[];
  series: string[];
  undatedSessions: number;
}

export interface CommandRow {
  command: string;
  length: number;
  runs: number;
  hosts: number;
  sessions: number;
  firstUtc: string | null;
  lastUtc: string | null;
}

export interface ModelRow {
  model: string;
  provider: string | null;
  hosts: number;
  sessions: number;
  rows: number;
  tokensIn: number | null;
  tokensOut: number | null;
  costUsd: number | null;
}

export interface SecretRow {
  fingerprint: string;
  kind: string;
  hosts: number;
  hostList: string;
  sessions: number;
  rows: number;
  firstUtc: string | null;
  lastUtc: string | null;
}

export interface SettingRow {
  host: string;
  /** Whose setting it is: cline, roo-code, kilo-code (safety_off.agent). */
  agent: string | null;
  home: string | null;
  /** `name=value` of a row of safety_off (sql/40). */
  setting: string;
  /** Which safeguard it turns off (safety_off.what). */
  what: string;
  rows: number;
  sessions: number;
  firstUtc: string | null;
  lastUtc: string | null;
  sourceFile: string | null;
}

/** `findings` is absent until `clinetrail hunt` has run on this OUT. */
export interface Findings {
  total: number;
  /** Hosts with a finding (byHost is capped). */
  hostsTotal: number;
  /** host -> severity -> count */
  byHost: { host: string; counts: Record<string, number>; total: number }[];
  hunts: { huntId: string; title: string; severity: string; attack: string | null; findings: number; hosts: number }[];
  rows: {
    severity: string;
    huntId: string;
    /** The evidence row's row_id as digits (null when the hunt named no row). */
    rowId: string | null;
    host: string;
    sessionId: string | null;
    timeUtc: string | null;
    /** Where timeUtc comes from (findings.timestamp_source): a file mtime or a derived time is shown as such. */
    timeSource: string | null;
    /** Whether timeUtc is a time the source recorded (sql/01 is_recorded_time), not an mtime or a derived one. */
    timeIsRecorded: boolean;
    summary: string | null;
    sourceFile: string | null;
    /** Whose record the evidence row is: cline, roo-code, kilo-code (findings.agent). */
    agent: string | null;
  }[];
}

export interface TimelineRow {
  timeUtc: string | null;
  turnType: string | null;
  kind: string | null;
  toolName: string | null;
  text: string | null;
  textLength: number;
  isError: boolean;
  source: string | null;
}

export interface SessionTimeline {
  host: string;
  sessionId: string;
  /** Whose session it is: cline, roo-code, kilo-code (sessions.agent). */
  agent: string | null;
  /** Who drove it: person, agent or unknown (sessions.driven_by), and the evidence codes it rests on. */
  drivenBy: string | null;
  drivenByEvidence: string | null;
  projectPath: string | null;
  firstUtc: string | null;
  lastUtc: string | null;
  models: string | null;
  findings: number;
  rowCount: number;
  rows: TimelineRow[];
}

/** Where a row of a finding's context stands: the finding's own row, its result, the prompt before it. */
export type ContextRole = 'finding' | 'result' | 'prompt' | null;

/** The rows around one finding's evidence row: its session's, or its file's when the row has no session. */
export interface FindingContext {
  rowId: string;
  /** `session`: rows of its session in timeline order; `file`: rows of its source file (a settings file). */
  scope: 'session' | 'file';
  /** How many rows the session or file holds. */
  scopeRows: number;
  /** The rows kept, each with its place in the session or file (1 = first), so the page can show the gaps. */
  rows: (TimelineRow & { role: ContextRole; position: number })[];
}

/** A host's own section: its sessions, findings, secrets by fingerprint, each capped with its total. */
export interface HostDetail {
  host: string;
  sessions: {
    sessionId: string;
    projectPath: string | null;
    firstUtc: string | null;
    lastUtc: string | null;
    rows: number;
    findings: number;
  }[];
  sessionsTotal: number;
  findings: {
    severity: string;
    huntId: string;
    rowId: string | null;
    timeUtc: string | null;
    timeSource: string | null;
    /** Whether timeUtc is a time the source recorded (sql/01 is_recorded_time). */
    timeIsRecorded: boolean;
    summary: string | null;
  }[];
  findingsTotal: number;
  secrets: {
    fingerprint: string;
    kind: string;
    rows: number;
    sessions: number;
    otherHosts: number;
    firstUtc: string | null;
    lastUtc: string | null;
  }[];
  secretsTotal: number;
}

/** Sessions started and findings per host and bucket, for the fleet timeline. */
export interface FleetTimeline {
  unit: TimeUnit;
  /** Every bucket from the first mark's to the last one's. */
  buckets: string[];
  /** The hosts drawn, by name; `hostsTotal` counts every host with a mark. */
  hosts: string[];
  hostsTotal: number;
  marks: { host: string; bucket: string; sessions: number; findings: number }[];
  undatedFindings: number;
}

export interface ReportData {
  out: string;
  generatedUtc: string;
  caps: ReportCaps;
  glance: Glance;
  hosts: HostRow[];
  timeline: Timeline;
  findings: Findings | null;
  commands: CommandRow[];
  commandsTotal: number;
  models: ModelRow[];
  modelsTotal: number;
  secrets: SecretRow[];
  secretsTotal: number;
  settings: SettingRow[];
  settingsTotal: number;
  sessions: SessionTimeline[];
  sessionsTotal: number;
  fleetTimeline: FleetTimeline;
  /** The chosen hosts' sections, by host name. */
  hostDetails: HostDetail[];
  /** Hosts that could have a section (every host image). */
  hostDetailsTotal: number;
  /** Contexts of the first findings, by row_id. */
  contexts: Map<string, FindingContext>;
}
