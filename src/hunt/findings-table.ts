/**
 * The `findings` and `hunt_runs` tables of OUT/fleet.duckdb, written by the model build (the load runs the
 * hunt pack into the new warehouse before it replaces the old one: hunt/build-hunts.ts) and by `clinetrail hunt`
 * under the OUT lock. fleet.duckdb is never written in place: queries hold it open read-only, and DuckDB lets no
 * writer in beside them. `clinetrail hunt` copies it (it holds views and small tables, not the Parquet rows),
 * replaces the two tables in the copy, and renames the copy over it, as the model build does; a query that
 * opened the old file reads on undisturbed. So both tables always exist: a warehouse built without the hunts
 * (`load --no-hunts`, a pack that failed) has no finding and one `hunt_runs` row saying why (docs/HUNTS.md).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { replaceWarehouse } from '../warehouse/warehouse-swap.js';
import { sqlString } from '../warehouse/sql-literal.js';
import type { Finding, HuntRun } from './run.js';

export const FINDINGS_TABLE = 'findings';
export const HUNT_RUNS_TABLE = 'hunt_runs';

/** What the report and the MCP server say where no hunt has run on the warehouse. */
export function huntsNotRun(out: string): string {
  return `hunts not run yet: clinetrail hunt --out ${out}`;
}

/** `hunt_runs.status` of a hunt that ran. */
export const RAN = 'ran';

/** The columns of `findings` (the contract of issue 15), with their documentation. */
const TABLE_COLUMNS: ReadonlyArray<readonly [string, string, string]> = [
  ['hunt_id', 'VARCHAR', 'the hunt that found it: hunts/<hunt_id>.sql'],
  ['title', 'VARCHAR', "the hunt's title"],
  ['severity', 'VARCHAR', "the hunt's severity: info, low, medium, high or critical"],
  ['attack', 'VARCHAR', "the hunt's MITRE ATT&CK technique ids, comma separated, or NULL"],
  ['host', 'VARCHAR', 'image name of the evidence row'],
  ['session_id', 'VARCHAR', 'session of the evidence row, or NULL (settings rows have none)'],
  ['row_id', 'UUID', 'events.row_id of the evidence row: join events on it'],
  ['timestamp_utc', 'TIMESTAMPTZ', 'time of the evidence row, or NULL'],
  ['summary', 'VARCHAR', 'what the hunt saw, in one line (secrets stay [REDACTED:...] markers)'],
  ['source_file', 'VARCHAR', 'file of the evidence row, relative to the image root'],
  [
    'agent',
    'VARCHAR',
    'agent of the evidence row (events.agent): cline, roo-code or kilo-code; NULL when the evidence is no single row',
  ],
  [
    'timestamp_source',
    'VARCHAR',
    "where timestamp_utc comes from: the evidence row's events.timestamp_source (recorded, local_clock, derived, file_mtime) when it is that row's time, derived when the hunt computed it, NULL when there is no time",
  ],
];

const RUN_COLUMNS: ReadonlyArray<readonly [string, string, string]> = [
  ['hunt_id', 'VARCHAR', 'a hunt of the run'],
  ['title', 'VARCHAR', "the hunt's title"],
  ['severity', 'VARCHAR', "the hunt's severity"],
  ['attack', 'VARCHAR', "the hunt's ATT&CK technique ids, comma separated, or NULL"],
  ['count_findings', 'BIGINT', 'rows it put in findings'],
  ['is_truncated', 'BOOLEAN', 'it found more than the per-hunt cap; the rest are not in findings'],
  ['ran_at_utc', 'TIMESTAMPTZ', 'when clinetrail hunt (or the load that built the warehouse) stored the run'],
  [
    'status',
    'VARCHAR',
    "ran; or, on the one row of a warehouse whose hunts did not run (hunt_id null), why: 'not run: load --no-hunts', 'failed: <the error>'",
  ],
];

function createTable(name: string, columns: ReadonlyArray<readonly [string, string, string]>, grain: string): string[] {
  return [
    `create or replace table ${name} (${columns.map(([c, t]) => `${c} ${t}`).join(', ')})`,
    `comment on table ${name} is ${sqlString(grain)}`,
    ...columns.map(([c, , doc]) => `comment on column ${name}.${c} is ${sqlString(doc)}`),
  ];
}

async function appendFindings(conn: DuckDBConnection, findings: readonly Finding[]): Promise<void> {
  const { DuckDBTimestampTZValue } = await import('@duckdb/node-api');
  const appender = await conn.createAppender(FINDINGS_TABLE);
  const text = (v: string | null) => (v === null ? appender.appendNull() : appender.appendVarchar(v));
  for (const f of findings) {
    text(f.hunt_id);
    text(f.title);
    text(f.severity);
    text(f.attack);
    text(f.host);
    text(f.session_id);
    if (f.row_id === null) appender.appendNull();
    else appender.appendVarchar(f.row_id); // DuckDB casts the text into the UUID column
    if (f.timestamp_us === null) appender.appendNull();
    else appender.appendTimestampTZ(new DuckDBTimestampTZValue(f.timestamp_us));
    text(f.summary);
    text(f.source_file);
    text(f.agent);
    text(f.timestamp_source);
    appender.endRow();
  }
  appender.closeSync();
}

async function appendRuns(conn: DuckDBConnection, runs: readonly HuntRun[], ranAt: Date, notRun: string | null): Promise<void> {
  const { DuckDBTimestampTZValue } = await import('@duckdb/node-api');
  const appender = await conn.createAppender(HUNT_RUNS_TABLE);
  const at = new DuckDBTimestampTZValue(BigInt(ranAt.getTime()) * 1000n);
  for (const run of runs) {
    appender.appendVarchar(run.hunt.id);
    appender.appendVarchar(run.hunt.title);
    appender.appendVarchar(run.hunt.severity);
    if (run.hunt.attack.length === 0) appender.appendNull();
    else appender.appendVarchar(run.hunt.attack.join(','));
    appender.appendBigInt(BigInt(run.findings));
    appender.appendBoolean(run.truncated);
    appender.appendTimestampTZ(at);
    appender.appendVarchar(RAN);
    appender.endRow();
  }
  if (notRun !== null) {
    for (let i = 0; i < 7; i++) appender.appendNull();
    appender.appendVarchar(notRun);
    appender.endRow();
  }
  appender.closeSync();
}

/**
 * Creates or replaces `findings` and `hunt_runs` on `conn` (a writable connection to a warehouse file no query
 * reads yet) with the findings of `runs`, in one transaction; `notRun` (with no runs) says why none ran.
 */
export async function writeFindingsTables(
  conn: DuckDBConnection,
  runs: readonly HuntRun[],
  findings: readonly Finding[],
  ranAt: Date,
  notRun: string | null = null,
): Promise<void> {
  await conn.run('begin transaction');
  const grain =
    'one row per finding of the last hunt run (clinetrail hunt, or the load that built the warehouse): a row of events a hunt of hunts/ flagged';
  for (const sql of createTable(FINDINGS_TABLE, TABLE_COLUMNS, grain)) await conn.run(sql);
  for (const sql of createTable(
    HUNT_RUNS_TABLE,
    RUN_COLUMNS,
    'one row per hunt of the last hunt run; or one row (hunt_id null) saying why no hunt ran',
  ))
    await conn.run(sql);
  await appendFindings(conn, findings);
  await appendRuns(conn, runs, ranAt, notRun);
  await conn.run('commit');
  await conn.run('checkpoint');
}

/**
 * Replaces `findings` and `hunt_runs` in OUT/fleet.duckdb by those of this run (a copy written and
 * renamed over it). The caller holds the OUT lock, so no load replaces fleet.duckdb meanwhile.
 */
export async function storeFindings(
  outDir: string,
  runs: readonly HuntRun[],
  findings: readonly Finding[],
  ranAt: Date = new Date(),
): Promise<void> {
  await replaceWarehouse(outDir, 'fleet.hunt', 'current', (conn) => writeFindingsTables(conn, runs, findings, ranAt));
}

/**
 * Whether hunts ran on the warehouse on `conn` (the report and the MCP server ask): `findings` exists and
 * `hunt_runs` holds a hunt that ran (a warehouse stored before `hunt_runs.status` existed counts as run).
 */
export async function hasFindings(conn: DuckDBConnection): Promise<boolean> {
  const columns = (
    await conn.runAndReadAll(
      `select table_name, column_name from duckdb_columns() where schema_name = 'main'
       and table_name in (${sqlString(FINDINGS_TABLE)}, ${sqlString(HUNT_RUNS_TABLE)})`,
    )
  ).getRows() as [string, string][];
  if (!columns.some(([table]) => table === FINDINGS_TABLE)) return false;
  if (!columns.some(([table, column]) => table === HUNT_RUNS_TABLE && column === 'status')) return true;
  const ran = await conn.runAndReadAll(`select count(*) from ${HUNT_RUNS_TABLE} where status = ${sqlString(RAN)}`);
  return Number(ran.getRows()[0][0]) > 0;
}
