/**
 * Reads the report's drill-down from the warehouse (the SQL is report/queries-drill.ts): the chosen
 * hosts' sections, the fleet timeline's marks and the findings' contexts, on the report's one sandboxed
 * connection (report/read.ts).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ContextRole, FindingContext, FleetTimeline, HostDetail, ReportCaps } from './data.js';
import * as q from './queries-drill.js';
import { chooseUnit, numberOrZero, type Row, select, textOrNull, timelineRow } from './read-rows.js';

/** Rows of a per-host query grouped by host, with the host's uncapped total. */
function byHost(rows: Row[]): Map<string, { rows: Row[]; total: number }> {
  const out = new Map<string, { rows: Row[]; total: number }>();
  for (const r of rows) {
    const entry = out.get(String(r.host)) ?? { rows: [], total: numberOrZero(r.host_total) };
    entry.rows.push(r);
    out.set(String(r.host), entry);
  }
  return out;
}

export async function readHostDetails(
  conn: DuckDBConnection,
  caps: ReportCaps,
  withFindings: boolean,
): Promise<{ details: HostDetail[]; total: number }> {
  const hosts = await select(conn, q.hostSectionsSql(caps, withFindings));
  const sessions = byHost(await select(conn, q.hostSessionsSql(caps, withFindings)));
  const findings = byHost(withFindings ? await select(conn, q.hostFindingsSql(caps)) : []);
  const secrets = byHost(await select(conn, q.hostSecretsSql(caps, withFindings)));
  const none = { rows: [], total: 0 };
  const details = hosts.map((h): HostDetail => {
    const host = String(h.host);
    const s = sessions.get(host) ?? none;
    const f = findings.get(host) ?? none;
    const k = secrets.get(host) ?? none;
    return {
      host,
      sessions: s.rows.map((r) => ({
        sessionId: String(r.session_id),
        projectPath: textOrNull(r.project_path),
        firstUtc: textOrNull(r.first_utc),
        lastUtc: textOrNull(r.last_utc),
        rows: numberOrZero(r.rows),
        findings: numberOrZero(r.findings),
      })),
      sessionsTotal: s.total,
      findings: f.rows.map((r) => ({
        severity: String(r.severity ?? ''),
        huntId: String(r.hunt_id ?? ''),
        rowId: textOrNull(r.row_id),
        timeUtc: textOrNull(r.time_utc),
        timeSource: textOrNull(r.timestamp_source),
        timeIsRecorded: r.time_is_recorded === true,
        summary: textOrNull(r.summary),
      })),
      findingsTotal: f.total,
      secrets: k.rows.map((r) => ({
        fingerprint: String(r.fingerprint),
        kind: String(r.kind),
        rows: numberOrZero(r.rows),
        sessions: numberOrZero(r.sessions),
        otherHosts: numberOrZero(r.other_hosts),
        firstUtc: textOrNull(r.first_utc),
        lastUtc: textOrNull(r.last_utc),
      })),
      secretsTotal: k.total,
    };
  });
  return { details, total: hosts.length > 0 ? numberOrZero(hosts[0].total) : 0 };
}

export async function readFleetTimeline(conn: DuckDBConnection, caps: ReportCaps, withFindings: boolean): Promise<FleetTimeline> {
  const [span] = await select(conn, q.timelineSpanSql(withFindings));
  const unit = chooseUnit(textOrNull(span.first_utc), textOrNull(span.last_utc));
  const rows = await select(conn, q.timelineMarksSql(caps, unit, withFindings));
  const buckets = rows.filter((r) => r.host === null).map((r) => String(r.bucket));
  const marks = rows
    .filter((r) => r.host !== null)
    .map((r) => ({
      host: String(r.host),
      bucket: String(r.bucket),
      sessions: numberOrZero(r.sessions),
      findings: numberOrZero(r.findings),
    }));
  return {
    unit,
    buckets,
    hosts: [...new Set(marks.map((m) => m.host))].sort(),
    hostsTotal: rows.length > 0 ? numberOrZero(rows[0].hosts_total) : 0,
    marks,
    undatedFindings: numberOrZero(span.undated_findings),
  };
}

export async function readContexts(conn: DuckDBConnection, caps: ReportCaps): Promise<Map<string, FindingContext>> {
  const contexts = new Map<string, FindingContext>();
  for (const r of await select(conn, q.findingContextsSql(caps))) {
    const rowId = String(r.finding_row);
    let context = contexts.get(rowId);
    if (!context) {
      context = { rowId, scope: r.scope === 'file' ? 'file' : 'session', scopeRows: numberOrZero(r.scope_rows), rows: [] };
      contexts.set(rowId, context);
    }
    context.rows.push({ ...timelineRow(r), position: numberOrZero(r.position), role: textOrNull(r.role) as ContextRole });
  }
  return contexts;
}
