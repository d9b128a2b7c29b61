/**
 * The drill-down by host: the fleet timeline (sessions and findings per host over time) and one section
 * per host of interest (`host-N`) with its sessions, findings, safety settings and secrets by
 * fingerprint, each list capped with the command that prints all of it. The hosts table, the findings
 * and the timeline's labels link here; the lists here link on to the session timelines, the findings in
 * context and the secrets table.
 */
import { sqlString } from '../warehouse/sql-literal.js';
import { findingAnchors, findingKey, hostAnchors, secretAnchors, secretKey } from './anchors.js';
import type { HostDetail, ReportData } from './data.js';
import { capLine, count, type Html, html, linkTo, type Part, sourcedTime, table, time } from './html.js';
import { severityCell } from './severity.js';
import { anchorKey, queryCommand, sessionAnchors } from './sections-sessions.js';
import { fleetTimelineSvg } from './timeline-chart.js';

export function timelineSection(data: ReportData): Html {
  const t = data.fleetTimeline;
  const undated =
    t.undatedFindings > 0
      ? html`<p class="dim">${count(t.undatedFindings)} finding(s) without a recorded time (undated, or dated by a file's mtime) are not drawn.</p>`
      : '';
  return html`<section id="timeline"><h2>Fleet timeline</h2>
<p class="dim">Per host and ${t.unit} (UTC): a bar where the host started sessions, a red dot where it has findings (hunts
that ran), each sized by its count; hover a mark for the figure, click a host for its section. A setting's finding is
dated by its file's mtime.</p>
${fleetTimelineSvg(t, hostAnchors(data))}
${capLine(t.hosts.length, t.hostsTotal, 'hosts with a mark', 'select host, count(*) from sessions group by host order by 2 desc')}
${undated}
</section>`;
}

/** The line under a host's list cut at the page cap: how many more, and the command that prints them all. */
function moreLine(shown: number, total: number, what: string, out: string, sql: string): Html {
  if (total <= shown) return html``;
  return html`<p class="cap">${count(total - shown)} more ${what}: <code>${queryCommand(out, sql)}</code></p>`;
}

function hostBody(h: HostDetail, data: ReportData): Html {
  const sessions = sessionAnchors(data);
  const findings = findingAnchors(data);
  const secrets = secretAnchors(data);
  const where = `where host = ${sqlString(h.host)}`;
  const row = data.hosts.find((r) => r.host === h.host);
  const summary = row
    ? html`<p>Status <b>${row.status ?? 'unknown'}</b> · ${count(row.sessions)} session(s) · ${count(row.rows)} rows · ${time(
        row.rows === 0 ? null : row.firstUtc,
      )} → ${time(row.rows === 0 ? null : row.lastUtc)} · stores: ${row.stores || 'none'}</p>`
    : '';
  const sessionRows = h.sessions.map((s) => [
    linkTo(sessions.get(anchorKey(h.host, s.sessionId)), html`<code>${s.sessionId}</code>`),
    s.projectPath,
    time(s.firstUtc),
    time(s.lastUtc),
    count(s.rows),
    count(s.findings),
  ]);
  const findingRows = h.findings.map((f) => [
    severityCell(f.severity),
    f.huntId,
    sourcedTime(f.timeUtc, f.timeSource, f.timeIsRecorded),
    f.summary,
    linkTo(findings.get(findingKey(f.huntId, f.rowId)), 'context'),
  ]);
  const settings = data.settings.filter((s) => s.host === h.host);
  const settingRows = settings.map((s) => [
    s.home,
    html`<code>${s.setting}</code>`,
    count(s.rows),
    time(s.firstUtc),
    time(s.lastUtc),
    s.sourceFile,
  ]);
  const secretRows = h.secrets.map((s) => [
    linkTo(secrets.get(secretKey(s.fingerprint, s.kind)), html`<code>[REDACTED:${s.kind}:${s.fingerprint}]</code>`),
    count(s.rows),
    count(s.sessions),
    count(s.otherHosts),
    time(s.firstUtc),
    time(s.lastUtc),
  ]);
  const list = (title: string, headers: string[], rows: Part[][], numeric: number[], empty: string, cutLine: Html) =>
    html`<h4>${title}</h4>${rows.length === 0 ? html`<p class="dim">${empty}</p>` : table(headers, rows, numeric)}${cutLine}`;
  const more = (shown: number, all: number, what: string, sql: string) => moreLine(shown, all, what, data.out, sql);
  const sessionsMore = more(
    h.sessions.length,
    h.sessionsTotal,
    'sessions',
    `select * from sessions ${where} order by first_timestamp_utc`,
  );
  const findingsMore = more(
    h.findings.length,
    h.findingsTotal,
    'findings',
    `select * from findings ${where} order by timestamp_utc`,
  );
  const settingsMore =
    data.settingsTotal > data.settings.length
      ? html`<p class="cap">The fleet's list of settings is cut at ${count(data.settings.length)}: this host may have more (see Safety off).</p>`
      : html``;
  const secretsMore = more(
    h.secrets.length,
    h.secretsTotal,
    'fingerprints',
    `select fingerprint, kind, count(*) from secrets ${where} group by all order by 3 desc`,
  );
  const findingsList =
    data.findings === null
      ? html`<h4>Findings</h4><p class="dim">Hunts not run.</p>`
      : list(
          'Findings',
          ['severity', 'hunt', 'time (UTC)', 'summary', 'in context'],
          findingRows,
          [],
          'No finding.',
          findingsMore,
        );
  return html`${summary}
${list('Sessions', ['session', 'project', 'first row', 'last row', 'rows', 'findings'], sessionRows, [4, 5], 'No session.', sessionsMore)}
${findingsList}
${list('Settings that turn safety off', ['home', 'setting', 'rows', 'first seen', 'last seen', 'source file'], settingRows, [2], 'None.', settingsMore)}
${list('Secrets by fingerprint', ['marker', 'rows', 'sessions', 'other hosts', 'first seen', 'last seen'], secretRows, [1, 2, 3], 'No secret redacted.', secretsMore)}`;
}

export function hostSections(data: ReportData): Html {
  const c = data.caps;
  const anchors = hostAnchors(data);
  const body =
    data.hostDetails.length === 0
      ? html`<p>No host.</p>`
      : data.hostDetails.map(
          (h) => html`<section class="host" id="${anchors.get(h.host)}"><h3>${h.host}</h3>${hostBody(h, data)}</section>`,
        );
  return html`<section id="byhost"><h2>Host by host</h2>
<p class="dim">At most ${count(c.hostSections)} hosts (most findings first, then most sessions), each list cut at ${count(c.perHost)}
rows with the command that prints all of it.</p>
${capLine(data.hostDetails.length, data.hostDetailsTotal, 'hosts have a section', 'select * from hosts order by host')}
${body}</section>`;
}
