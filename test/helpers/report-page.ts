/**
 * The fleet report's tests: a fleet loaded into a temporary OUT by the CLI's own command line, the
 * warehouse read independently (DuckDB opened read-only here, not through the report's code), and the
 * page parsed with parse5, the WHATWG HTML parser, so the tests see the document a browser builds.
 */
import * as fs from 'node:fs';
import { type DefaultTreeAdapterTypes, parse } from 'parse5';
import { expect } from 'vitest';
import { runCommandLine } from '../../src/cli/commands.js';
import { type CapturedRun, captureCommandLine } from './command-line.js';
import { withOutWarehouse } from './warehouse-search.js';

export type Node = DefaultTreeAdapterTypes.Node;
export type Element = DefaultTreeAdapterTypes.Element;

/** `clinetrail ARGS` in this process. */
export function cli(args: readonly string[]): Promise<CapturedRun> {
  return captureCommandLine(runCommandLine, args);
}

/** Loads `fleet` into `out` (a fresh folder), with `extra` options (`--no-hunts`), and expects the load to succeed. */
export async function loadFleet(fleet: string, out: string, extra: readonly string[] = []): Promise<void> {
  const load = await cli(['load', '--fleet', fleet, '--out', out, '--quiet', ...extra]);
  expect(load.code, load.stderr).toBe(0);
}

/** Rows of one query on OUT's warehouse, opened read-only here, bigints as numbers. */
export function sql(out: string, text: string): Promise<Record<string, unknown>[]> {
  return withOutWarehouse(out, async (conn) => {
    const rows = (await conn.runAndReadAll(text)).getRowObjects();
    return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v])));
  });
}

/** Makes the report of `out` at `to` with the CLI and returns the page parsed. */
export async function makeReport(out: string, to: string): Promise<{ html: string; doc: Node }> {
  const run = await cli(['report', '--out', out, '--to', to]);
  expect(run.code, run.stderr).toBe(0);
  const html = fs.readFileSync(to, 'utf8');
  return { html, doc: parse(html) };
}

/** Every element under `node`, in document order. */
export function elements(node: Node): Element[] {
  const out: Element[] = [];
  const walk = (n: Node): void => {
    if ('tagName' in n) out.push(n);
    const children = 'content' in n && n.nodeName === 'template' ? n.content.childNodes : 'childNodes' in n ? n.childNodes : [];
    for (const c of children) walk(c);
  };
  walk(node);
  return out;
}

/** The text of a node as the browser shows it in the DOM (entities decoded). */
export function textOf(node: Node): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterTypes.TextNode).value;
  return 'childNodes' in node ? node.childNodes.map(textOf).join('') : '';
}

export function attr(el: Element, name: string): string | undefined {
  return el.attrs.find((a) => a.name === name)?.value;
}

export function byId(doc: Node, id: string): Element {
  const found = elements(doc).find((e) => attr(e, 'id') === id);
  if (!found) throw new Error(`no element #${id} in the page`);
  return found;
}

/** A figure of the page as a number (`1,234` -> 1234). */
export const figure = (doc: Node, id: string): number => Number(textOf(byId(doc, id)).replace(/,/g, ''));

/** The rows of the first table under `section` as cell texts. */
export function tableRows(section: Element): string[][] {
  const table = elements(section).find((e) => e.tagName === 'table');
  if (!table) return [];
  return elements(table)
    .filter((e) => e.tagName === 'tr' && elements(e).some((c) => c.tagName === 'td'))
    .map((tr) => tr.childNodes.filter((c): c is Element => 'tagName' in c && c.tagName === 'td').map(textOf));
}

/** The header texts of the first table under `section`, so a test finds a column by its name, not its place. */
export function tableHeaders(section: Element): string[] {
  const table = elements(section).find((e) => e.tagName === 'table');
  return table
    ? elements(table)
        .filter((e) => e.tagName === 'th')
        .map(textOf)
    : [];
}

/** A time of the warehouse (epoch ms) as the page prints it: `2026-05-01 10:00:00Z`. */
export const pageTime = (ms: number): string =>
  new Date(ms)
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace('T', ' ');
