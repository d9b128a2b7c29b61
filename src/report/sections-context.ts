/**
 * Each of the first findings with the rows around its evidence row (`finding-N`): in its session, the
 * prompt before it, the rows on each side and the result of its tool call; for a row of no session (a
 * setting), the rows on each side in its file, so a setting is shown among the settings beside it
 * (auto-approval on, the actions it approves). Skipped rows are a gap line; the command under each prints
 * the whole session or file.
 */
import { sqlString } from '../warehouse/sql-literal.js';
import { findingAnchor, hostAnchors } from './anchors.js';
import type { FindingContext, Findings, ReportData } from './data.js';
import { capLine, count, cut, type Html, html, linkTo, time } from './html.js';
import { TIMELINE_ORDER } from './queries.js';
import { anchorKey, queryCommand, sessionAnchors, sessionQuery } from './sections-sessions.js';
import { severityCell } from './severity.js';

type FindingRow = Findings['rows'][number];

const ROLE_LABEL = { finding: 'the finding', result: 'its result', prompt: 'prompt before it' } as const;

function contextTable(c: FindingContext, data: ReportData): Html {
  let next = 1;
  const body: Html[] = [];
  for (const r of c.rows) {
    if (r.position > next) body.push(html`<tr class="gap"><td colspan="7">… ${count(r.position - next)} row(s) …</td></tr>`);
    next = r.position + 1;
    body.push(
      html`<tr class="${r.role ? `role-${r.role}` : null}"><td>${r.role ? ROLE_LABEL[r.role] : ''}</td><td>${time(
        r.timeUtc,
      )}</td><td>${r.turnType}</td><td>${r.kind}</td><td>${r.toolName}</td><td><span class="${r.isError ? 'err' : null}">${cut(
        r.text,
        r.textLength,
        data.caps.textChars,
      )}</span></td><td><span class="src">${r.source}</span></td></tr>`,
    );
  }
  if (c.scopeRows >= next) body.push(html`<tr class="gap"><td colspan="7">… ${count(c.scopeRows - next + 1)} row(s) …</td></tr>`);
  return html`<table class="context"><thead><tr><th></th><th>time (UTC)</th><th>turn</th><th>kind</th><th>tool</th><th>text</th><th>source</th></tr></thead><tbody>${body}</tbody></table>`;
}

function contextBlock(f: FindingRow, id: string, data: ReportData): Html {
  const c = f.rowId === null ? undefined : data.contexts.get(f.rowId);
  const host = linkTo(hostAnchors(data).get(f.host), f.host);
  const where =
    f.sessionId !== null
      ? html`session ${linkTo(sessionAnchors(data).get(anchorKey(f.host, f.sessionId)), html`<code>${f.sessionId}</code>`)}`
      : html`file <code>${f.sourceFile}</code>`;
  const all =
    c === undefined
      ? ''
      : c.scope === 'session' && f.sessionId !== null
        ? sessionQuery(data.out, f.host, f.sessionId)
        : queryCommand(
            data.out,
            `select * from events where host = ${sqlString(f.host)} and session_id is null and source_file = ${sqlString(
              f.sourceFile ?? '',
            )} order by ${TIMELINE_ORDER}`,
          );
  const rows =
    c === undefined
      ? html`<p class="dim">Its evidence row is not in the timeline${f.rowId === null ? ' (the hunt named no row)' : ''}.</p>`
      : html`${contextTable(c, data)}<p class="dim">All ${count(c.scopeRows)} rows of the ${c.scope}: <code>${all}</code></p>`;
  return html`<div class="finding" id="${id}"><p>${severityCell(f.severity)} <b>${f.huntId}</b> · ${host} · ${where} · ${time(
    f.timeUtc,
  )}</p><p>${f.summary}</p>${rows}</div>`;
}

/** The findings with their contexts, under the findings table. */
export function findingContexts(data: ReportData): Html {
  const rows = data.findings?.rows ?? [];
  if (rows.length === 0) return html``;
  const shown = rows.slice(0, data.caps.contexts);
  return html`<h3 id="in-context">Findings in context</h3>
<p class="dim">The rows around each finding's evidence row, in the order of <code>events</code>: in its session the prompt before it,
${count(data.caps.contextRows)} rows on each side and its tool call's result; for a setting, ${count(data.caps.fileContextRows)} rows on each
side in its file.</p>
${shown.map((f, i) => contextBlock(f, findingAnchor(i), data))}
${capLine(shown.length, data.findings?.total ?? 0, 'findings in context', 'select * from findings order by timestamp_utc')}`;
}
