/**
 * The report page: one self-contained HTML document. Its Content-Security-Policy forbids every fetch
 * (`default-src 'none'`: no script, image, font, frame or connection, and no script at all since the page
 * has none) and allows exactly the one inline stylesheet, by its SHA-256; SVG colours come from that
 * stylesheet's classes. The page holds no URL: links are fragments (#findings).
 */
import { createHash } from 'node:crypto';
import { SERIES_CLASSES } from './chart.js';
import type { ReportData } from './data.js';
import { type Html, html } from './html.js';
import { activitySection, findingsSection, glanceSection } from './sections-fleet.js';
import { hostSections, timelineSection } from './sections-hosts.js';
import { sessionsSection } from './sections-sessions.js';
import { commandsSection, modelsSection, secretsSection, settingsSection } from './sections-usage.js';

const PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#7f7f7f'];

export const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:0 16px 48px;color:#1b1f24}
h1{font-size:22px;margin:20px 0 4px}h2{font-size:18px;border-bottom:1px solid #d0d7de;padding-bottom:4px;margin-top:32px}
h3{font-size:15px;margin:18px 0 6px}nav a{margin-right:12px}
table{border-collapse:collapse;width:100%;margin:6px 0}th,td{border:1px solid #d0d7de;padding:3px 6px;text-align:left;vertical-align:top}
th{background:#f6f8fa}td{overflow-wrap:anywhere;white-space:pre-wrap}.num{text-align:right;white-space:nowrap}
code{font:12px/1.4 ui-monospace,monospace;background:#f6f8fa;padding:0 2px;overflow-wrap:anywhere;white-space:pre-wrap}
.dim{color:#59636e}.cap,.note{background:#fff8c5;border:1px solid #d4a72c;padding:4px 8px}.cut{color:#59636e;font-style:italic}
.err{color:#b3261e}.src{font-size:11px;color:#59636e}time{white-space:nowrap}
dl.glance{display:grid;grid-template-columns:repeat(auto-fill,minmax(170px,1fr));gap:8px}
dl.glance div{border:1px solid #d0d7de;border-radius:6px;padding:6px 10px}dt{color:#59636e;font-size:12px}dd{margin:0;font-size:18px;font-weight:600}
svg.chart{max-width:100%;height:auto;display:block}svg.chart text{font-size:11px;fill:#59636e}svg.chart line.grid{stroke:#d0d7de}
ul.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:4px 16px}
details.session{border:1px solid #d0d7de;border-radius:6px;margin:4px 0;padding:2px 8px}summary{cursor:pointer}
.sev{border-radius:4px;padding:0 5px;font-size:12px;font-weight:600;color:#fff;background:#59636e;display:inline-block;white-space:nowrap;overflow-wrap:normal;word-break:normal}
.sev-critical{background:#82071e}.sev-high{background:#cf222e}.sev-medium{background:#bc4c00}.sev-low{background:#9a6700}.sev-info{background:#0969da}
${PALETTE.slice(0, SERIES_CLASSES)
  .map((c, i) => `.s${i}{fill:${c}}`)
  .join('')}
svg.timeline{max-width:100%;height:auto;display:block}svg.timeline text{font-size:11px;fill:#59636e}svg.timeline a text{fill:#0969da}
svg.timeline line.grid{stroke:#eaeef2}.mark-sessions{fill:#1f77b4}.mark-findings{fill:#cf222e;stroke:#fff;stroke-width:1}
section.host{border-top:1px solid #d0d7de;margin-top:12px}h4{font-size:14px;margin:10px 0 4px}
div.finding{border:1px solid #d0d7de;border-radius:6px;margin:8px 0;padding:2px 8px}div.finding p{margin:4px 0}
table.context{table-layout:fixed}table.context th:nth-child(1){width:7em}table.context th:nth-child(2){width:10.5em}
table.context th:nth-child(3),table.context th:nth-child(4),table.context th:nth-child(5){width:7.5em}table.context th:nth-child(7){width:16em}
tr.role-finding td{background:#fff1f0}tr.role-result td{background:#f0f7ff}tr.role-prompt td{background:#f6f8fa}tr.gap td{color:#59636e;font-style:italic}
@media print{details.session{break-inside:avoid}}
`;

/** The policy of the page: nothing fetched, no script, this stylesheet only. */
export function contentSecurityPolicy(style: string): string {
  const hash = createHash('sha256').update(style, 'utf8').digest('base64');
  return `default-src 'none'; style-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'`;
}

const SECTIONS: [string, string][] = [
  ['glance', 'At a glance'],
  ['activity', 'Over time'],
  ['timeline', 'Timeline'],
  ['findings', 'Findings'],
  ['safety', 'Safety off'],
  ['commands', 'Commands'],
  ['models', 'Models'],
  ['secrets', 'Secrets'],
  ['byhost', 'Host by host'],
  ['sessions', 'Sessions'],
];

/** The whole page as text. */
export function renderReport(data: ReportData): string {
  const body: Html = html`<header><h1>clinetrail fleet report</h1>
<p class="dim">Made ${data.generatedUtc.replace('T', ' ')} UTC from <code>${data.out}</code> by read-only queries. Evidence text is shown as text, never as markup.</p>
<nav>${SECTIONS.map(([id, label]) => html`<a href="#${id}">${label}</a>`)}</nav></header>
<main>
${glanceSection(data)}
${activitySection(data)}
${timelineSection(data)}
${findingsSection(data)}
${settingsSection(data)}
${commandsSection(data)}
${modelsSection(data)}
${secretsSection(data)}
${hostSections(data)}
${sessionsSection(data)}
</main>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(STYLE)}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>clinetrail fleet report</title>
<style>${STYLE}</style>
</head><body>
${body.value}
</body></html>
`;
}
