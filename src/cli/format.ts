/** Query results as an aligned text table, CSV or JSON lines, for stdout. */
import type { QueryResult } from '../warehouse/build.js';

export type OutputFormat = 'table' | 'csv' | 'json';

/** Widest cell in table output; longer values are cut with an ellipsis (csv and json are never cut). */
const MAX_CELL = 100;

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function tableCell(value: unknown): string {
  const text = cell(value).replace(/[\r\n\t]+/g, ' ');
  return text.length > MAX_CELL ? `${text.slice(0, MAX_CELL - 1)}…` : text;
}

function csvCell(value: unknown): string {
  const text = cell(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The whole result rendered in one format, ending with a newline. */
export function formatResult(result: QueryResult, format: OutputFormat): string {
  if (format === 'json') {
    return (
      result.rows.map((r) => JSON.stringify(Object.fromEntries(result.columns.map((c, i) => [c, r[i] ?? null])))).join('\n') +
      (result.rows.length ? '\n' : '')
    );
  }
  if (format === 'csv') {
    return `${[result.columns.map(csvCell).join(','), ...result.rows.map((r) => r.map(csvCell).join(','))].join('\n')}\n`;
  }
  const cells = result.rows.map((r) => r.map(tableCell));
  const widths = result.columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i].length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  const out = [line(result.columns), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)];
  out.push(`(${result.rows.length} row${result.rows.length === 1 ? '' : 's'})`);
  return `${out.join('\n')}\n`;
}
