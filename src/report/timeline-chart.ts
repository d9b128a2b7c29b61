/**
 * The fleet timeline as inline SVG: one row per host, one column per bucket (day, or a wider unit over
 * a long span, as the charts choose), a bar where the host started sessions and a dot where it has
 * findings, sized by the count. Each mark has a `<title>` `HOST · BUCKET: N session(s)` (or `finding(s)`)
 * that the browser shows on hover and a test can read back; each host label links to the host's
 * section when the page has one. No script, no style attribute (the page's policy allows neither).
 */
import type { FleetTimeline } from './data.js';
import { count, type Html, html } from './html.js';

const WIDTH = 900;
const LABEL_W = 170;
const ROW_H = 20;
const TOP = 6;
const AXIS_H = 24;
/** Host labels longer than this are cut; the whole name is the label's title. */
const LABEL_CHARS = 24;

function label(host: string, anchor: string | undefined, x: number, y: number): Html {
  const shown = [...host].length > LABEL_CHARS ? `${[...host].slice(0, LABEL_CHARS - 1).join('')}…` : host;
  const text = html`<text x="${x}" y="${y}" text-anchor="end"><title>${host}</title>${shown}</text>`;
  return anchor ? html`<a href="#${anchor}">${text}</a>` : text;
}

/** The timeline of `t`, host labels linked through `anchors` (host -> section id). */
export function fleetTimelineSvg(t: FleetTimeline, anchors: Map<string, string>): Html {
  if (t.marks.length === 0) return html`<p class="dim">No dated session or finding: nothing to draw.</p>`;
  const height = TOP + t.hosts.length * ROW_H + AXIS_H;
  const slot = (WIDTH - LABEL_W - 8) / t.buckets.length;
  const column = new Map(t.buckets.map((b, i) => [b, i]));
  const row = new Map(t.hosts.map((h, i) => [h, i]));
  const maxSessions = Math.max(1, ...t.marks.map((m) => m.sessions));
  const maxFindings = Math.max(1, ...t.marks.map((m) => m.findings));
  const centreX = (bucket: string) => LABEL_W + ((column.get(bucket) ?? 0) + 0.5) * slot;
  const centreY = (host: string) => TOP + ((row.get(host) ?? 0) + 0.5) * ROW_H;
  const rows = t.hosts.map((host, i) => {
    const y = TOP + (i + 1) * ROW_H;
    return html`<line class="grid" x1="${LABEL_W}" x2="${WIDTH - 8}" y1="${y}" y2="${y}"/>${label(host, anchors.get(host), LABEL_W - 6, y - 6)}`;
  });
  const barW = Math.max(2, slot * 0.7);
  const marks = t.marks.map((m) => {
    const x = centreX(m.bucket);
    const y = centreY(m.host);
    const h = 4 + (10 * m.sessions) / maxSessions;
    const sessions =
      m.sessions > 0
        ? html`<rect class="mark-sessions" x="${(x - barW / 2).toFixed(1)}" y="${(y - h / 2).toFixed(1)}" width="${barW.toFixed(1)}" height="${h.toFixed(1)}"><title>${m.host} · ${m.bucket}: ${count(m.sessions)} session(s)</title></rect>`
        : html``;
    const findings =
      m.findings > 0
        ? html`<circle class="mark-findings" cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${(2.5 + (3.5 * m.findings) / maxFindings).toFixed(1)}"><title>${m.host} · ${m.bucket}: ${count(m.findings)} finding(s)</title></circle>`
        : html``;
    return html`${sessions}${findings}`;
  });
  const every = Math.max(1, Math.ceil(t.buckets.length / 8));
  const axis = t.buckets.map((b, i) =>
    i % every === 0
      ? html`<text x="${(LABEL_W + (i + 0.5) * slot).toFixed(1)}" y="${height - 8}" text-anchor="middle">${b}</text>`
      : html``,
  );
  return html`<svg class="timeline" role="img" aria-label="Sessions started and findings per ${t.unit} and host" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}">${rows}${marks}${axis}</svg>`;
}
