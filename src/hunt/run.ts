/**
 * Runs hunts and returns their findings, without storing anything: `clinetrail hunt` stores them
 * (hunt/findings-table.ts), the MCP server returns them. Each hunt's SELECT passes the query sandbox's
 * statement check (warehouse/query-sandbox.ts) as its own text, then runs wrapped in a projection onto the
 * finding columns, which is checked again, the way an export wraps its selection.
 *
 * Where a hunt runs is its header's `scope` (hunt/pack.ts). A `host` hunt looks at one host's rows at a
 * time, so it runs batch by batch of hosts, each batch in a sandboxed warehouse of its own that computes
 * the batch's timeline once for all the hunts (warehouse/host-batch-query.ts): its memory is that of a
 * batch and its time grows with the fleet, never with the fleet squared. A `fleet` hunt runs on the
 * fleet's warehouse connection, over the per-host tables. The findings of every batch are gathered in a
 * small DuckDB of their own and sorted and cut there, so they are the rows and the order one query over
 * the whole fleet gives.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { openDuckDB } from '../warehouse/duckdb-open.js';
import { type HostBatch, hostBatches, withHostBatchConnection } from '../warehouse/host-batch-query.js';
import { codeOf } from '../warehouse/model-statements.js';
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
 * The hunt's SELECT projected onto the finding columns, at most one row past the cap, with the agent and
 * time source of its evidence row: a hunt says what it found, the row says whose record it is (issue 31)
 * and how its time was known (issue 28). The evidence comes from int_timeline, the rows of events without
 * events' sort of every row. The rows' order is given where the batches' findings meet (ORDER_BY).
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
left join (select row_id as evidence_row, agent, timestamp_utc, timestamp_source from int_timeline) evidence
  on evidence.evidence_row = finding.row_id::uuid
order by ${ORDER_BY}
limit ${MAX_FINDINGS_PER_HUNT + 1}`;
}

/** The order of one hunt's findings: by host and time, then file, row and summary. */
const ORDER_BY = 'host, timestamp_us nulls last, source_file, row_id::uuid, summary';

/** The columns of a finding as the wrapped SELECT gives them, and as the gathering table holds them. */
const FOUND_COLUMNS: ReadonlyArray<readonly [string, string]> = [
  ['host', 'VARCHAR'],
  ['session_id', 'VARCHAR'],
  ['row_id', 'VARCHAR'],
  ['timestamp_us', 'BIGINT'],
  ['timestamp_iso', 'VARCHAR'],
  ['summary', 'VARCHAR'],
  ['source_file', 'VARCHAR'],
  ['agent', 'VARCHAR'],
  ['timestamp_source', 'VARCHAR'],
];

/** Checks that a hunt's own text is one read-only query (the sandbox's check), without running it. */
async function assertReadOnly(conn: DuckDBConnection, hunt: Hunt): Promise<void> {
  try {
    (await prepareQuery(conn, hunt.sql)).destroySync();
  } catch (err) {
    throw new Error(`hunt ${hunt.id}: ${(err as Error).message.split('\n')[0]}`);
  }
}

/** How a run of hunts reports and is stopped. */
export interface HuntOptions {
  /** Hears each hunt as it ends, in the order given (a host hunt ends with the last batch). */
  onHunt?: (run: HuntRun) => void;
  /** Hears each hunt as it starts on a connection (its batch's, or the fleet's). */
  onStart?: (hunt: Hunt) => void;
  /** Hears each batch's connection as it opens, so that a caller can interrupt it (the MCP server). */
  onConnection?: (conn: DuckDBConnection) => void;
  /** Once aborted, no further hunt or batch starts. */
  signal?: AbortSignal;
  /** Most hosts in one batch (default: the model build's batches); the tests cut a small fleet into several. */
  hostsPerBatch?: number;
}

/**
 * Views a batch computes once for its hunts (in this order: `commands` and `file_accesses` read
 * `tool_calls`), when one of them names it: the pack reads each of them in several hunts, and their rules
 * (sql/37 shell_read, the path rules of sql/45) cost more than reading their rows again
 * (docs/BENCHMARKS.md "The hunts' views computed once per batch").
 */
const BATCH_STORED_VIEWS = ['tool_calls', 'commands', 'file_accesses'] as const;

/**
 * The views of BATCH_STORED_VIEWS whose name is a word of one of `hunts`' SQL, its comments aside (a
 * header's words are not what the hunt reads). A name missed costs time only: the view is then run as
 * written.
 */
function viewsToStore(hunts: readonly Hunt[]): string[] {
  const code = hunts.map((h) => codeOf(h.sql));
  return BATCH_STORED_VIEWS.filter((view) => code.some((sql) => new RegExp(`\\b${view}\\b`, 'i').test(sql)));
}

/** Where the hunts' findings meet: a small DuckDB of its own, one table. */
class Gathered {
  private constructor(
    private readonly close: () => void,
    readonly conn: DuckDBConnection,
  ) {}

  static async open(): Promise<Gathered> {
    const { instance, conn } = await openDuckDB(':memory:', {});
    await conn.run(`create table found (hunt_ix INTEGER, ${FOUND_COLUMNS.map(([c, t]) => `${c} ${t}`).join(', ')})`);
    return new Gathered(() => {
      conn.closeSync();
      instance.closeSync();
    }, conn);
  }

  /** Adds the rows the wrapped SELECT of hunt `ix` gave. */
  async add(ix: number, rows: unknown[][]): Promise<void> {
    const appender = await this.conn.createAppender('found');
    for (const row of rows) {
      appender.appendInteger(ix);
      for (const [c, [, type]] of FOUND_COLUMNS.entries()) {
        const v = row[c];
        if (v === null || v === undefined) appender.appendNull();
        else if (type === 'BIGINT') appender.appendBigInt(v as bigint);
        else appender.appendVarchar(String(v));
      }
      appender.endRow();
    }
    appender.closeSync();
  }

  /** The findings of hunt `ix`, in order, at most one past the cap. */
  async of(ix: number): Promise<unknown[][]> {
    const columns = FOUND_COLUMNS.map(([c]) => c).join(', ');
    const sql = `select ${columns} from found where hunt_ix = ${ix} order by ${ORDER_BY} limit ${MAX_FINDINGS_PER_HUNT + 1}`;
    return (await this.conn.runAndReadAll(sql)).getRows() as unknown[][];
  }

  dispose(): void {
    this.close();
  }
}

/** Runs `hunts` (their indexes in `all`) one after another on `conn`, into `gathered`; adds each one's time to `ms`. */
async function runOn(
  conn: DuckDBConnection,
  all: readonly Hunt[],
  hunts: readonly Hunt[],
  gathered: Gathered,
  ms: number[],
  options: HuntOptions,
): Promise<void> {
  for (const hunt of hunts) {
    stopIfAborted(options.signal);
    const ix = all.indexOf(hunt);
    const t0 = Date.now();
    options.onStart?.(hunt);
    await assertReadOnly(conn, hunt);
    try {
      await gathered.add(ix, (await readQuery(conn, wrapped(hunt))).getRows() as unknown[][]);
    } catch (err) {
      throw new Error(`hunt ${hunt.id}: ${(err as Error).message.split('\n')[0]}`);
    }
    ms[ix] += Date.now() - t0;
  }
}

function stopIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Error('hunt: stopped');
}

/** A finding of `hunt` from a row of the gathering table. */
function finding(hunt: Hunt, row: unknown[]): Finding {
  const [host, session, rowId, us, iso, summary, sourceFile, agent, timeSource] = row;
  return {
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
  };
}

/**
 * The findings of `hunts` on the warehouse of `outDir`: the `host` hunts batch by batch of hosts, the
 * `fleet` hunts on `fleet` (a connection to the fleet's warehouse: a query's, warehouse/build.ts
 * `withQueryConnection`, or the model build's), each hunt's findings sorted by host and time, the hunts in
 * the order given. A hunt that fails stops the run with an error naming it.
 */
export async function selectFindings(
  outDir: string,
  fleet: DuckDBConnection,
  hunts: readonly Hunt[],
  options: HuntOptions = {},
): Promise<Finding[]> {
  const ms = hunts.map(() => 0);
  const gathered = await Gathered.open();
  try {
    let perHost = hunts.filter((h) => h.scope === 'host');
    const batches: HostBatch[] | null = perHost.length > 0 ? await hostBatches(outDir, fleet, options.hostsPerBatch) : [];
    // hosts' models on disk that are not those fleet.duckdb reads: the warehouse answers, as it is
    if (batches === null) perHost = [];
    const stored = viewsToStore(perHost);
    for (const batch of batches ?? []) {
      stopIfAborted(options.signal);
      await withHostBatchConnection(
        outDir,
        batch,
        (conn) => runOn(conn, hunts, perHost, gathered, ms, options),
        (conn) => options.onConnection?.(conn),
        stored,
      );
    }
    await runOn(
      fleet,
      hunts,
      hunts.filter((h) => !perHost.includes(h)),
      gathered,
      ms,
      options,
    );
    const findings: Finding[] = [];
    for (const [ix, hunt] of hunts.entries()) {
      const rows = await gathered.of(ix);
      const truncated = rows.length > MAX_FINDINGS_PER_HUNT;
      for (const row of rows.slice(0, MAX_FINDINGS_PER_HUNT)) findings.push(finding(hunt, row));
      options.onHunt?.({ hunt, findings: Math.min(rows.length, MAX_FINDINGS_PER_HUNT), truncated, ms: ms[ix] });
    }
    return findings;
  } finally {
    gathered.dispose();
  }
}
