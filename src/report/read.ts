/**
 * Reads what the report shows from OUT/fleet.duckdb: one sandboxed read-only connection
 * (warehouse/build.ts withQueryConnection, the connection of `clinetrail query`), each query checked by
 * the sandbox's statement check before it runs. `tempDir` is where DuckDB may spill: the caller's own
 * folder outside OUT, so the report writes nothing under OUT.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { withQueryConnection } from '../warehouse/build.js';
import { hasFindings } from '../hunt/findings-table.js';
import type { Bucket, Cell, Findings, ReportCaps, ReportData, SessionTimeline } from './data.js';
import * as q from './queries.js';
import { readContexts, readFleetTimeline, readHostDetails } from './read-drill.js';
import { chooseUnit, numberOrZero, type Row, select, textOrNull, timelineRow, total } from './read-rows.js';

/**
 * The charts' bars from the per-bucket rows of sessionBucketsSql: sessions per top host (by sessions),
 * the other hosts summed as one series, and the hosts that started a session.
 */
function chartSeries(rows: Row[], caps: ReportCaps): { series: string[]; sessions: Bucket[]; hosts: Bucket[] } {
  const perHost = new Map<string, number>();
  for (const r of rows) if (r.host !== null) perHost.set(String(r.host), (perHost.get(String(r.host)) ?? 0) + numberOrZero(r.n));
  const ranked = [...perHost.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([h]) => h);
  const top = new Set(ranked.slice(0, caps.chartHosts));
  const rest = ranked.length - top.size;
  const other = rest > 0 ? `${rest} other host${rest === 1 ? '' : 's'}` : null;
  const sessions = new Map<string, Bucket>();
  const hosts: Bucket[] = [];
  for (const r of rows) {
    const start = String(r.bucket);
    let bar = sessions.get(start);
    if (!bar) {
      bar = { start, counts: new Map() };
      sessions.set(start, bar);
      hosts.push({ start, counts: new Map([['hosts', numberOrZero(r.hosts)]]) });
    }
    if (r.host === null) continue;
    const series = top.has(String(r.host)) ? String(r.host) : (other as string);
    bar.counts.set(series, (bar.counts.get(series) ?? 0) + numberOrZero(r.n));
  }
  return { series: [...ranked.slice(0, caps.chartHosts), ...(other ? [other] : [])], sessions: [...sessions.values()], hosts };
}

/** The rows of factsSql by section, each item parsed from its JSON. */
async function readFacts(conn: DuckDBConnection, caps: ReportCaps): Promise<Map<string, Row[]>> {
  const sections = new Map<string, Row[]>();
  for (const r of await select(conn, q.factsSql(caps))) {
    const list = sections.get(String(r.section)) ?? [];
    list.push(JSON.parse(String(r.item)) as Row);
    sections.set(String(r.section), list);
  }
  return sections;
}

async function readFindings(conn: DuckDBConnection, caps: ReportCaps): Promise<Findings> {
  const perHost = new Map<string, Record<string, number>>();
  for (const r of await select(conn, q.FINDINGS_BY_HOST_SQL)) {
    const counts = perHost.get(String(r.host)) ?? {};
    counts[String(r.severity)] = (counts[String(r.severity)] ?? 0) + numberOrZero(r.n);
    perHost.set(String(r.host), counts);
  }
  const byHost = [...perHost.entries()].map(([host, counts]) => ({
    host,
    counts,
    total: Object.values(counts).reduce((a, b) => a + b, 0),
  }));
  byHost.sort((a, b) => b.total - a.total || (a.host < b.host ? -1 : 1));
  const hunts = (await select(conn, q.huntsSql(caps))).map((r) => ({
    huntId: String(r.hunt_id),
    title: String(r.title ?? ''),
    severity: String(r.severity ?? ''),
    attack: textOrNull(r.attack),
    findings: numberOrZero(r.findings),
    hosts: numberOrZero(r.hosts),
  }));
  const rows = (await select(conn, q.findingRowsSql(caps))).map((r) => ({
    severity: String(r.severity ?? ''),
    huntId: String(r.hunt_id ?? ''),
    rowId: textOrNull(r.row_id),
    host: String(r.host ?? ''),
    sessionId: textOrNull(r.session_id),
    timeUtc: textOrNull(r.time_utc),
    timeSource: textOrNull(r.timestamp_source),
    timeIsRecorded: r.time_is_recorded === true,
    summary: textOrNull(r.summary),
    sourceFile: textOrNull(r.source_file),
    agent: textOrNull(r.agent),
  }));
  return {
    total: byHost.reduce((a, h) => a + h.total, 0),
    hostsTotal: byHost.length,
    byHost: byHost.slice(0, caps.hosts),
    hunts,
    rows,
  };
}

async function readSessions(
  conn: DuckDBConnection,
  caps: ReportCaps,
  withFindings: boolean,
): Promise<{ sessions: SessionTimeline[]; total: number }> {
  const chosen = await select(conn, q.sessionsSql(caps, withFindings));
  const key = (host: Cell, id: Cell) => `${host}\u0000${id}`;
  const sessions = new Map<string, SessionTimeline>();
  for (const r of chosen) {
    sessions.set(key(r.host, r.session_id), {
      host: String(r.host),
      sessionId: String(r.session_id),
      agent: textOrNull(r.agent),
      drivenBy: textOrNull(r.driven_by),
      drivenByEvidence: textOrNull(r.driven_by_evidence),
      projectPath: textOrNull(r.project_path),
      firstUtc: textOrNull(r.first_utc),
      lastUtc: textOrNull(r.last_utc),
      models: textOrNull(r.models),
      findings: numberOrZero(r.findings),
      rowCount: 0,
      rows: [],
    });
  }
  for (const r of await select(conn, q.sessionRowsSql(caps, withFindings))) {
    const session = sessions.get(key(r.host, r.session_id));
    if (!session) continue;
    session.rowCount = numberOrZero(r.session_rows);
    session.rows.push(timelineRow(r));
  }
  return { sessions: [...sessions.values()], total: total(chosen) };
}

/** Everything the page shows, read from the warehouse in OUT. */
export async function readReport(out: string, caps: ReportCaps, tempDir: string): Promise<ReportData> {
  return withQueryConnection(out, { tempDir }, async (conn) => {
    const [o] = await select(conn, q.overviewSql());
    const facts = await readFacts(conn, caps);
    const [g] = facts.get('glance') ?? [];
    const glance = {
      hosts: numberOrZero(g.hosts),
      hostImages: numberOrZero(o.host_images),
      sessions: numberOrZero(o.sessions),
      rows: numberOrZero(g.rows),
      undatedRows: numberOrZero(g.undated_rows),
      parserErrors: numberOrZero(g.parser_errors),
      firstUtc: textOrNull(g.first_utc),
      lastUtc: textOrNull(g.last_utc),
      secretFingerprints: numberOrZero(o.secret_fingerprints),
      lastLoadUtc: textOrNull(o.last_load_utc),
      version: textOrNull(o.version),
    };
    const rowsOf = new Map((facts.get('host') ?? []).map((h) => [String(h.host), h]));
    const hosts = (await select(conn, q.hostsSql(caps))).map((r) => {
      const h = rowsOf.get(String(r.host));
      return {
        host: String(r.host),
        status: textOrNull(r.status),
        sessions: numberOrZero(r.sessions),
        rows: h ? numberOrZero(h.rows) : 0,
        firstUtc: h ? textOrNull(h.first_utc) : null,
        lastUtc: h ? textOrNull(h.last_utc) : null,
        stores: textOrNull(r.stores),
      };
    });
    const unit = chooseUnit(textOrNull(o.first_session_utc), textOrNull(o.last_session_utc));
    const chart = chartSeries(await select(conn, q.sessionBucketsSql(unit)), caps);
    const withFindings = await hasFindings(conn);
    const commands = facts.get('command') ?? [];
    const models = facts.get('model') ?? [];
    const settings = facts.get('setting') ?? [];
    const secrets = await select(conn, q.secretsSql(caps));
    const sessions = await readSessions(conn, caps, withFindings);
    const hostDetails = await readHostDetails(conn, caps, withFindings);
    const fleetTimeline = await readFleetTimeline(conn, caps, withFindings);
    const contexts = withFindings ? await readContexts(conn, caps) : new Map();
    return {
      out,
      generatedUtc: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      caps,
      glance,
      hosts,
      timeline: {
        unit,
        sessions: chart.sessions,
        activeHosts: chart.hosts,
        series: chart.series,
        undatedSessions: numberOrZero(o.undated_sessions),
      },
      findings: withFindings ? await readFindings(conn, caps) : null,
      commands: commands.map((r) => ({
        command: String(r.command),
        length: numberOrZero(r.length),
        runs: numberOrZero(r.runs),
        hosts: numberOrZero(r.hosts),
        sessions: numberOrZero(r.sessions),
        firstUtc: textOrNull(r.first_utc),
        lastUtc: textOrNull(r.last_utc),
      })),
      commandsTotal: total(commands),
      models: models.map((r) => ({
        model: String(r.model),
        provider: textOrNull(r.provider),
        hosts: numberOrZero(r.hosts),
        sessions: numberOrZero(r.sessions),
        rows: numberOrZero(r.rows),
        tokensIn: r.tokens_in === null ? null : numberOrZero(r.tokens_in),
        tokensOut: r.tokens_out === null ? null : numberOrZero(r.tokens_out),
        costUsd: r.cost_usd === null ? null : numberOrZero(r.cost_usd),
      })),
      modelsTotal: total(models),
      secrets: secrets.map((r) => ({
        fingerprint: String(r.fingerprint),
        kind: String(r.kind),
        hosts: numberOrZero(r.hosts),
        hostList: String(r.host_list ?? ''),
        sessions: numberOrZero(r.sessions),
        rows: numberOrZero(r.rows),
        firstUtc: textOrNull(r.first_utc),
        lastUtc: textOrNull(r.last_utc),
      })),
      secretsTotal: total(secrets),
      settings: settings.map((r) => ({
        host: String(r.host),
        agent: textOrNull(r.agent),
        home: textOrNull(r.home),
        setting: String(r.setting),
        what: String(r.what),
        rows: numberOrZero(r.rows),
        sessions: numberOrZero(r.sessions),
        firstUtc: textOrNull(r.first_utc),
        lastUtc: textOrNull(r.last_utc),
        sourceFile: textOrNull(r.source_file),
      })),
      settingsTotal: total(settings),
      sessions: sessions.sessions,
      sessionsTotal: sessions.total,
      fleetTimeline,
      hostDetails: hostDetails.details,
      hostDetailsTotal: hostDetails.total,
      contexts,
    };
  });
}
