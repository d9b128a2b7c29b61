/**
 * Safe HTML for the report. Evidence text is hostile (a prompt may hold `<script>`), so markup is built
 * only with the `html` tag: every interpolated value is escaped unless it is already `Html` made by the
 * tag itself. No other code of report/ writes markup by string concatenation.
 */
import { controlPicture } from '../core/terminal-text.js';

/** Markup that is safe to insert as is: made by `html`, never from a plain string. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text as HTML text or attribute value: the five special characters as entities, and control characters
 * but tab, line feed and carriage return as `query`'s table prints them (C0 and DEL as their Unicode
 * pictures, `␛` for ESC; C1 as `?`), since HTML has no way to show them and a NUL is a parse error.
 */
export function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]).replace(/(?![\t\n\r])\p{Cc}/gu, controlPicture);
}

/** What may be interpolated: markup, text (escaped), numbers, nothing, or a list of those. */
export type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof Html) return part.value;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeText(String(part));
}

/** Tagged template: the literal parts are markup, every value is escaped (see Part). */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}

/** A count as `1,234` (the page is in English). */
export function count(n: number | null): string {
  return n === null ? '' : n.toLocaleString('en-US');
}

/** A time text as shown: the UTC text as stored, or a dash. */
export function time(t: string | null): Html {
  return t === null ? html`<span class="dim">undated</span>` : html`<time>${t.replace('T', ' ')}</time>`;
}

/**
 * A finding's time with where it comes from when that is not a recorded time (`recorded` is the query's
 * is_recorded_time of sql/01, the one definition): `file mtime` (the time a copy of the evidence may have
 * moved) or `derived`, so the page never passes either off as the time of the act.
 */
export function sourcedTime(t: string | null, source: string | null, recorded: boolean): Html {
  if (t === null || recorded) return time(t);
  return html`${time(t)} <span class="dim">(${(source ?? 'unknown source').replace('_', ' ')})</span>`;
}

/** A text cut by a query: the part kept, and how long the whole is. */
export function cut(text: string | null, length: number, kept: number): Html {
  if (text === null) return html`<span class="dim">∅</span>`;
  return length > kept ? html`${text}<span class="cut"> … (${count(length)} characters)</span>` : html`${text}`;
}

/** A link to the fragment `anchor` (an id of the page) when the page has it, else the text alone. */
export function linkTo(anchor: string | undefined, text: Part): Part {
  return anchor ? html`<a href="#${anchor}">${text}</a>` : text;
}

/** A table: header texts, then rows of parts; `numeric` columns are right-aligned. */
export function table(headers: readonly string[], rows: readonly (readonly Part[])[], numeric: readonly number[] = []): Html {
  const cls = (i: number) => (numeric.includes(i) ? 'num' : null);
  const head = headers.map((h, i) => html`<th class="${cls(i)}">${h}</th>`);
  const body = rows.map((row) => html`<tr>${row.map((c, i) => html`<td class="${cls(i)}">${c}</td>`)}</tr>`);
  return html`<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

/** The line under a capped list: how many of how many are shown. */
export function capLine(shown: number, total: number, what: string, query?: string): Html {
  if (total <= shown) return html``;
  return html`<p class="cap">${count(shown)} of ${count(total)} ${what} shown (page cap).${
    query ? html` All of them: <code>${query}</code>` : ''
  }</p>`;
}
