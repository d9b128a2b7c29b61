/**
 * Per-session timelines: one `<details>` per session, closed until the analyst opens it, each with at
 * most `rowsPerSession` rows and, when cut, the command that prints the rest. That command is built
 * from evidence (host and session id), so it is quoted for SQL and then for a POSIX shell: pasting it
 * runs the query and nothing else.
 */
import type { ReportData, SessionTimeline } from './data.js';
import { capLine, count, cut, type Html, html, table, time } from './html.js';
import { sqlString } from '../warehouse/sql-literal.js';
import { TIMELINE_ORDER } from './queries.js';

/** A word for a POSIX shell: as is when plain, else in double quotes when nothing in it expands, else single quotes. */
export function shellWord(text: string): string {
  if (/^[A-Za-z0-9_./:=@%+,-]+$/.test(text)) return text;
  if (!/["$`\\!]/.test(text)) return `"${text}"`;
  return `'${text.replace(/'/g, "'\\''")}'`;
}

/** The command line that runs `sql` on OUT, each word quoted for a POSIX shell. */
export function queryCommand(out: string, sql: string): string {
  return `clinetrail query --out ${shellWord(out)} ${shellWord(sql)}`;
}

/** The command that prints a session's whole timeline. */
export function sessionQuery(out: string, host: string, sessionId: string): string {
  return queryCommand(
    out,
    `select * from events where host = ${sqlString(host)} and session_id = ${sqlString(sessionId)} order by ${TIMELINE_ORDER}`,
  );
}

/** The fragment id of each session whose timeline the page holds (`session-<n>`), by host and session id. */
export function sessionAnchors(data: ReportData): Map<string, string> {
  return new Map(data.sessions.map((s, i) => [anchorKey(s.host, s.sessionId), `session-${i + 1}`]));
}

export const anchorKey = (host: string, sessionId: string): string => `${host}\u0000${sessionId}`;

function sessionDetails(s: SessionTimeline, data: ReportData, id: string): Html {
  const rows = s.rows.map((r) => [
    time(r.timeUtc),
    r.turnType,
    r.kind,
    r.toolName,
    html`<span class="${r.isError ? 'err' : null}">${cut(r.text, r.textLength, data.caps.textChars)}</span>`,
    html`<span class="src">${r.source}</span>`,
  ]);
  const more = s.rowCount - s.rows.length;
  const findings = s.findings > 0 ? html` <span class="sev sev-high">${count(s.findings)} finding(s)</span>` : '';
  return html`<details class="session" id="${id}"><summary><b>${s.host}</b> · <code>${s.sessionId}</code> · ${s.agent ?? 'agent unknown'} · ${s.projectPath ?? ''} · ${time(
    s.firstUtc,
  )} → ${time(s.lastUtc)} · ${count(s.rowCount)} rows${findings}</summary>
<p class="dim">Models: ${s.models ?? 'none recorded'} · Driven by: ${s.drivenBy ?? 'unknown'}${
    s.drivenByEvidence ? ` (${s.drivenByEvidence})` : ''
  }</p>
${table(['time (UTC)', 'turn', 'kind', 'tool', 'text', 'source'], rows)}
${more > 0 ? html`<p class="cap">${count(more)} more rows: <code>${sessionQuery(data.out, s.host, s.sessionId)}</code></p>` : ''}
</details>`;
}

export function sessionsSection(data: ReportData): Html {
  const c = data.caps;
  const body =
    data.sessions.length === 0
      ? html`<p>No sessions.</p>`
      : html`${data.sessions.map((s, i) => sessionDetails(s, data, `session-${i + 1}`))}${capLine(
          data.sessions.length,
          data.sessionsTotal,
          'sessions',
          'select * from sessions order by host, first_timestamp_utc',
        )}`;
  return html`<section id="sessions"><h2>Session timelines</h2>
<p class="dim">Open a session to read its rows in time order (undated rows last). At most ${count(c.sessions)} sessions (those with
findings first, then the latest), ${count(c.rowsPerSession)} rows each, texts cut at ${count(c.textChars)} characters.</p>
${body}</section>`;
}
