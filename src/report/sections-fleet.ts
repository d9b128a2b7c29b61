/**
 * The report's first sections: the fleet at a glance, activity over time (charts and the hosts table)
 * and the findings of `clinetrail hunt`. Each figure of the glance has an id (`glance-<name>`), so a
 * test or a script can read it back.
 */
import { huntsNotRun } from '../hunt/findings-table.js';
import { legend, stackedBars } from './chart.js';
import type { Findings, ReportData } from './data.js';
import { capLine, count, type Html, html, linkTo, type Part, sourcedTime, table, time } from './html.js';
import { findingAnchors, findingKey, hostAnchors } from './anchors.js';
import { anchorKey, sessionAnchors } from './sections-sessions.js';
import { SEVERITIES, severityCell } from './severity.js';
import { findingContexts } from './sections-context.js';

function figure(id: string, label: string, value: Html | string): Html {
  return html`<div><dt>${label}</dt><dd id="glance-${id}">${value}</dd></div>`;
}

export function glanceSection(data: ReportData): Html {
  const g = data.glance;
  const findings = data.findings === null ? html`<span class="dim">hunts not run</span>` : count(data.findings.total);
  return html`<section id="glance"><h2>The fleet at a glance</h2>
<dl class="glance">
${figure('hosts', 'Hosts with Cline rows', count(g.hosts))}
${figure('host-images', 'Host images loaded', count(g.hostImages))}
${figure('sessions', 'Sessions', count(g.sessions))}
${figure('rows', 'Timeline rows (events)', count(g.rows))}
${figure('first', 'First recorded time (UTC)', g.firstUtc ?? '-')}
${figure('last', 'Last recorded time (UTC)', g.lastUtc ?? '-')}
${figure('undated', 'Undated rows', count(g.undatedRows))}
${figure('parser-errors', 'Parser errors', count(g.parserErrors))}
${figure('secrets', 'Secret fingerprints', count(g.secretFingerprints))}
${figure('findings', 'Findings', findings)}
</dl>
<p class="dim">Warehouse <code>${data.out}</code>, last load finished ${g.lastLoadUtc ?? 'never'} UTC (${g.version ?? 'version unknown'}). All times are UTC.</p>
</section>`;
}

export function activitySection(data: ReportData): Html {
  const t = data.timeline;
  const undated =
    t.undatedSessions > 0 ? html`<p class="dim">${count(t.undatedSessions)} undated session(s) are not charted.</p>` : '';
  const sections = hostAnchors(data);
  const hosts = data.hosts.map((h) => [
    linkTo(sections.get(h.host), h.host),
    h.status,
    count(h.sessions),
    count(h.rows),
    h.rows === 0 ? '-' : time(h.firstUtc),
    h.rows === 0 ? '-' : time(h.lastUtc),
    h.stores,
  ]);
  return html`<section id="activity"><h2>Hosts and sessions over time</h2>
<h3>Sessions started per ${t.unit} (UTC), by host</h3>
${stackedBars(`Sessions started per ${t.unit}, by host`, t.sessions, t.series)}
${legend(t.series)}
${undated}
<h3>Hosts that started a session per ${t.unit} (UTC)</h3>
${stackedBars(`Hosts that started a session per ${t.unit}`, t.activeHosts, ['hosts'])}
<h3 id="hosts">Hosts</h3>
${table(['host', 'status', 'sessions', 'rows', 'first row', 'last row', 'stores'], hosts, [2, 3])}
${capLine(data.hosts.length, data.glance.hostImages, 'hosts', 'select * from hosts order by host')}
</section>`;
}

function findingsBody(f: Findings, data: ReportData): Html {
  if (f.total === 0) return html`<p>The hunts ran and found nothing.</p>`;
  const matrix = f.byHost.map((h) => [
    linkTo(hostAnchors(data).get(h.host), h.host),
    ...SEVERITIES.map((s) => count(h.counts[s] ?? 0)),
    count(h.total),
  ]);
  const hunts = f.hunts.map((h) => [severityCell(h.severity), h.huntId, h.title, h.attack, count(h.findings), count(h.hosts)]);
  const anchors = sessionAnchors(data);
  // a finding's session links to its timeline when the page holds it
  const session = (host: string, id: string | null): Part => {
    const anchor = id === null ? undefined : anchors.get(anchorKey(host, id));
    return anchor ? html`<a href="#${anchor}">${id}</a>` : id;
  };
  const hosts = hostAnchors(data);
  const contexts = findingAnchors(data);
  const rows = f.rows.map((r) => [
    severityCell(r.severity),
    r.huntId,
    linkTo(hosts.get(r.host), r.host),
    session(r.host, r.sessionId),
    r.agent,
    sourcedTime(r.timeUtc, r.timeSource, r.timeIsRecorded),
    r.summary,
    r.sourceFile,
    linkTo(contexts.get(findingKey(r.huntId, r.rowId)), 'context'),
  ]);
  return html`<h3>By host and severity</h3>
${table(['host', ...SEVERITIES, 'total'], matrix, [1, 2, 3, 4, 5, 6])}
${capLine(f.byHost.length, f.hostsTotal, 'hosts')}
<h3>By hunt</h3>
${table(['severity', 'hunt', 'title', 'ATT&CK', 'findings', 'hosts'], hunts, [4, 5])}
<h3>Findings, worst first</h3>
${table(['severity', 'hunt', 'host', 'session', 'agent', 'time (UTC)', 'summary', 'source file', 'rows around it'], rows)}
${capLine(f.rows.length, f.total, 'findings', 'select * from findings order by timestamp_utc')}
${findingContexts(data)}
<p class="dim">Run <code>clinetrail query --out ${data.out} "select * from findings"</code> for every column.</p>`;
}

export function findingsSection(data: ReportData): Html {
  const body =
    data.findings === null
      ? html`<p id="hunts-not-run" class="note">${huntsNotRun(data.out)}</p>`
      : findingsBody(data.findings, data);
  return html`<section id="findings"><h2>Findings by severity and host</h2>${body}</section>`;
}
