/**
 * A stacked bar chart as inline SVG, made here: no library and no script, so the page needs neither
 * network nor JavaScript. Colours come from the stylesheet's `s0`..`s8` classes (a `style` attribute
 * would need the Content-Security-Policy to allow inline styles); each bar segment has a `<title>`,
 * which the browser shows on hover.
 */
import type { Bucket } from './data.js';
import { count, type Html, html } from './html.js';

/** Series colours the stylesheet defines (html-page.ts); series beyond them reuse the last. */
export const SERIES_CLASSES = 9;

const WIDTH = 900;
const HEIGHT = 220;
const LEFT = 44;
const BOTTOM = 28;
const TOP = 10;

const seriesClass = (i: number) => `s${Math.min(i, SERIES_CLASSES - 1)}`;

/** A round upper bound of the y axis at or above `max`. */
function niceMax(max: number): number {
  if (max <= 5) return Math.max(1, max);
  const step = 10 ** Math.floor(Math.log10(max));
  for (const f of [1, 2, 2.5, 5, 10]) if (f * step >= max) return f * step;
  return 10 * step;
}

/** The legend: one swatch per series, in the chart's order. */
export function legend(series: readonly string[]): Html {
  return html`<ul class="legend">${series.map(
    (name, i) =>
      html`<li><svg width="12" height="12" aria-hidden="true"><rect class="${seriesClass(i)}" width="12" height="12"/></svg> ${name}</li>`,
  )}</ul>`;
}

/** Bars of `buckets`, each stacked from its counts in `series` order; `label` names the chart. */
export function stackedBars(label: string, buckets: readonly Bucket[], series: readonly string[]): Html {
  if (buckets.length === 0) return html`<p class="dim">No dated session: nothing to chart.</p>`;
  const totals = buckets.map((b) => series.reduce((sum, s) => sum + (b.counts.get(s) ?? 0), 0));
  const yMax = niceMax(Math.max(...totals));
  const plotW = WIDTH - LEFT - 8;
  const plotH = HEIGHT - TOP - BOTTOM;
  const slot = plotW / buckets.length;
  const barW = Math.max(1, slot * 0.8);
  const y = (v: number) => TOP + plotH - (v / yMax) * plotH;
  const bars = buckets.map((b, i) => {
    let base = 0;
    const x = LEFT + i * slot + (slot - barW) / 2;
    return series.map((s, k) => {
      const n = b.counts.get(s) ?? 0;
      if (n === 0) return html``;
      const top = y(base + n);
      const h = y(base) - top;
      base += n;
      return html`<rect class="${seriesClass(k)}" x="${x.toFixed(1)}" y="${top.toFixed(1)}" width="${barW.toFixed(1)}" height="${h.toFixed(1)}"><title>${b.start}: ${s}: ${count(n)}</title></rect>`;
    });
  });
  // about eight labels on the x axis, the first and every k-th bucket
  const every = Math.max(1, Math.ceil(buckets.length / 8));
  const xLabels = buckets.map((b, i) =>
    i % every === 0
      ? html`<text x="${(LEFT + i * slot + slot / 2).toFixed(1)}" y="${HEIGHT - 8}" text-anchor="middle">${b.start}</text>`
      : html``,
  );
  const yTicks = [0, yMax / 2, yMax].map(
    (v) =>
      html`<line class="grid" x1="${LEFT}" x2="${WIDTH - 8}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}"/><text x="${LEFT - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${count(v)}</text>`,
  );
  return html`<svg class="chart" role="img" aria-label="${label}" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}">${yTicks}${bars}${xLabels}</svg>`;
}
