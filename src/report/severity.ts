/**
 * The hunt severities as the report shows them: worst first, each as a badge whose colour is a class of
 * the page's stylesheet (`sev-<severity>`; one outside the contract gets `sev-other`). The stylesheet keeps
 * a badge on one line whatever the width of its column.
 */
import { SEVERITIES as PACK_SEVERITIES } from '../hunt/pack.js';
import { type Html, html } from './html.js';

/** The hunt severities, worst first (the contract of `findings.severity`, hunt/pack.ts). */
export const SEVERITIES = [...PACK_SEVERITIES].reverse();

export function severityCell(severity: string): Html {
  return html`<span class="sev sev-${(SEVERITIES as readonly string[]).includes(severity) ? severity : 'other'}">${severity}</span>`;
}
