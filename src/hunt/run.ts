/**
 * Runs hunts on a read-only warehouse connection and returns their findings, without storing anything:
 * `clinetrail hunt` stores them (hunt/findings-table.ts), the MCP server and the report may show them as
 * they come. Each hunt's SELECT passes the query sandbox's statement check (warehouse/query-sandbox.ts)
 * as its own text, then runs wrapped in a projection onto the finding columns, which is checked again,
 * the way an export wraps its selection.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { prepareQuery, readQuery } from '../warehouse/query-sandbox.js';
import type { Hunt, Severity } from './pack.js';

/** Most findings kept of one hunt; a hunt that finds more is cut there, and says so (`HuntRun.truncated`). */
export const MAX_FINDINGS_PER_HUNT = 100_000;

/** One finding: the hunt's fields and the evidence row its SELECT returned. */
export interface Finding {
  hunt_id: string;
  title: string;
  severity: Severity;
  /** The hunt's ATT&CK technique ids, comma separated, or null. */
  attack: string | null;
  host: string;
  session_id: string | null;
  /** `events.row_id` of the evidence row as its text (a UUID's, sql/01), or null when the evidence is no single row. */
  row_id: string | null;
  /** ISO 8601 UTC with microseconds (`2026-05-01T10:00:00.123000Z`), or null when the row has no time. */
  timestamp_utc: string | null;
  /** The same instant as epoch microseconds (what the findings table stores). */
  timestamp_us: bigint | null;
  summary: string;
  source_file: string | null;
  /** The agent of the evidence row (events.agent: cline, roo-code, kilo-code), or null when the evidence is no single row. */
  agent: string | null;
  /**
   * Where the finding's time comes from (events.timestamp_source): the evidence row's when the finding has that
   * row's time, `derived` when the hunt computed another, null when it has none. A settings finding dated by its
   * file's mtime says `file_mtime`, so the report never places it among recorded times.
   */
  timestamp_source: string | null;
}

/** What one hunt gave, for progress and summaries. */
export interface HuntRun {
  hunt: Hunt;
  findings: number;
  /** It found more than MAX_FINDINGS_PER_HUNT; the rest were left out. */
  truncated: boolean;
  ms: number;
}

/**
 * The hunt's SELECT projected onto the finding columns, in a stable order, at most one row past the cap, with
 * the agent and time source of its evidence row: a hunt says what it found, the row says whose record it is
 * (issue 31) and how its time was known (issue 28).
 */
function wrapped(hunt: Hunt): string {
  return `select finding.host::varchar as host, finding.session_id::varchar as session_id, finding.row_id::uuid::varchar as row_id,
  epoch_us(finding.timestamp_utc::timestamptz) as timestamp_us,
  strftime(make_timestamp(epoch_us(finding.timestamp_utc::timestamptz)), '%Y-%m-%dT%H:%M:%S.%fZ') as timestamp_iso,
  finding.summary::varchar as summary, finding.source_file::varchar as source_file, evidence.agent,
  case when finding.timestamp_utc is null then null
       when evidence.timestamp_utc = finding.timestamp_utc::timestamptz then evidence.timestamp_source
       else 'derived' end as timestamp_source
from (
${hunt.sql}
) finding
left join (select row_id as evidence_row, agent, timestamp_utc, timestamp_source from events) evidence
  on evidence.evidence_row = finding.row_id::uuid
order by host, timestamp_us nulls last, source_file, finding.row_id::uuid, summary
limit ${MAX_FINDINGS_PER_HUNT + 1}`;
}

/** Checks that a hunt's own text is one read-only query (the sandbox's check), without running it. */
async function assertReadOnly(conn: DuckDBConnection, hunt: Hunt): Promise<void> {
  try {
    (await prepareQuery(conn, hunt.sql)).destroySync();
  } catch (err) {
    throw new Error(`hunt ${hunt.id}: ${(err as Error).message.split('\n')[0]}`);
  }
}

/**
 * The findings of `hunts` on `conn` (a read-only warehouse connection: warehouse/build.ts
 * `withQueryConnection`), hunt by hunt in the order given, each hunt's sorted by host and time.
 * `onHunt` hears each hunt as it ends. A hunt that fails stops the run with an error naming it.
 */
export async function selectFindings(
  conn: DuckDBConnection,
  hunts: readonly Hunt[],
  onHunt: (run: HuntRun) => void = () => {},
): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const hunt of hunts) {
    const t0 = Date.now();
    await assertReadOnly(conn, hunt);
    let rows: unknown[][];
    try {
      rows = (await readQuery(conn, wrapped(hunt))).getRows() as unknown[][];
    } catch (err) {
      throw new Error(`hunt ${hunt.id}: ${(err as Error).message.split('\n')[0]}`);
    }
    const truncated = rows.length > MAX_FINDINGS_PER_HUNT;
    for (const [host, session, rowId, us, iso, summary, sourceFile, agent, timeSource] of rows.slice(0, MAX_FINDINGS_PER_HUNT)) {
      findings.push({
        hunt_id: hunt.id,
        title: hunt.title,
        severity: hunt.severity,
        attack: hunt.attack.length > 0 ? hunt.attack.join(',') : null,
        host: String(host),
        session_id: (session as string | null) ?? null,
        row_id: (rowId as string | null) ?? null,
        timestamp_utc: (iso as string | null) ?? null,
        timestamp_us: (us as bigint | null) ?? null,
        summary: String(summary ?? ''),
        source_file: (sourceFile as string | null) ?? null,
        agent: (agent as string | null) ?? null,
        timestamp_source: (timeSource as string | null) ?? null,
      });
    }
    onHunt({ hunt, findings: Math.min(rows.length, MAX_FINDINGS_PER_HUNT), truncated, ms: Date.now() - t0 });
  }
  return findings;
}
