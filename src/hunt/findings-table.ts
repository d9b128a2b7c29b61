/**
 * The `findings` and `hunt_runs` tables of OUT/fleet.duckdb, written by `clinetrail hunt` under the OUT
 * lock. fleet.duckdb is never written in place: queries hold it open read-only, and DuckDB lets no
 * writer in beside them. It is copied (it holds views and small tables, not the Parquet rows), the two
 * tables are replaced in the copy, and the copy is renamed over it, as the model build does; a query
 * that opened the old file reads on undisturbed. A model build makes a new fleet.duckdb without them, so
 * a load that rebuilds the models drops the findings with the rows they point at (README "Hunts").
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { replaceWarehouse } from '../warehouse/warehouse-swap.js';
import { sqlString } from '../warehouse/sql-literal.js';
import type { Finding, HuntRun } from './run.js';

export const FINDINGS_TABLE = 'findings';
export const HUNT_RUNS_TABLE = 'hunt_runs';

/** What the report and the MCP server say where `findings` does not exist. */
export function huntsNotRun(out: string): string {
  return `hunts not run yet: clinetrail hunt --out ${out}`;
}

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
  ['summary', 'VARCHAR', 'what the hunt saw, in one line'],
  ['source_file', 'VARCHAR', 'file of the evidence row, relative to the image root'],
];

const RUN_COLUMNS: ReadonlyArray<readonly [string, string, string]> = [
  ['hunt_id', 'VARCHAR', 'a hunt of the run'],
  ['title', 'VARCHAR', "the hunt's title"],
  ['severity', 'VARCHAR', "the hunt's severity"],
  ['attack', 'VARCHAR', "the hunt's ATT&CK technique ids, comma separated, or NULL"],
  ['count_findings', 'BIGINT', 'rows it put in findings'],
  ['is_truncated', 'BOOLEAN', 'it found more than the per-hunt cap; the rest are not in findings'],
  ['ran_at_utc', 'TIMESTAMPTZ', 'when clinetrail hunt stored the run'],
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
    appender.endRow();
  }
  appender.closeSync();
}

async function appendRuns(conn: DuckDBConnection, runs: readonly HuntRun[], ranAt: Date): Promise<void> {
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
    appender.endRow();
  }
  appender.closeSync();
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
  await replaceWarehouse(outDir, 'fleet.hunt', 'current', async (conn) => {
    await conn.run('begin transaction');
    const grain = 'one row per finding of the last clinetrail hunt: a row of events a hunt of hunts/ flagged';
    for (const sql of createTable(FINDINGS_TABLE, TABLE_COLUMNS, grain)) await conn.run(sql);
    for (const sql of createTable(HUNT_RUNS_TABLE, RUN_COLUMNS, 'one row per hunt the last clinetrail hunt ran'))
      await conn.run(sql);
    await appendFindings(conn, findings);
    await appendRuns(conn, runs, ranAt);
    await conn.run('commit');
    await conn.run('checkpoint');
  });
}

/** Whether the warehouse on `conn` has a `findings` table (the report and the MCP server ask). */
export async function hasFindings(conn: DuckDBConnection): Promise<boolean> {
  const reader = await conn.runAndReadAll(
    `select count(*) from duckdb_tables() where schema_name = 'main' and table_name = ${sqlString(FINDINGS_TABLE)}`,
  );
  return Number(reader.getRows()[0][0]) > 0;
}
