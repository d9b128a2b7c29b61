/**
 * Velociraptor's glob() and the collection artifact's filters, emulated so that
 * test/collect/targets.test.ts can say which files of an image the artifact would upload, without a
 * Velociraptor client. The rules are ported from Velocidex/velociraptor (read at cd02ac66):
 *
 * - glob/glob.go `ExpandBraces`: `{a,b}` alternatives expand first, over the whole expression (so they
 *   may hold `/`), the last group first, never one at the first character, no nesting; `{,x}` gives ''.
 * - glob/glob.go `convert_glob_into_path_components`: a component `**N` (N defaults to 30) stands for 0 to
 *   N folders, 0 only when something follows it (`/foo/**` is not `/foo`); a component with `*`, `?` or
 *   `[` is a regular expression by `FNmatchTranslate` (`*` is `.*`, so it may match nothing), compiled
 *   `(?msi)`; any other is a literal compared with `strings.EqualFold`. Every OS matches case-insensitively.
 * - glob/glob.go `ExpandWithContext`: a hit is an entry the last component matches, folder or file; the
 *   walk descends into a matched folder only if the `recursion_callback` lets it (`is_dir_or_link`).
 * - The artifact keeps files only (`WHERE NOT IsDir`) and drops those its ExcludePathRegex matches; its
 *   recursion callback refuses the folders that regex matches. The regex sees `OSPath` as Velociraptor
 *   prints it: `C:\Users\alice\.cline` on Windows, `/home/u/.cline` elsewhere.
 * - A `type: csv` parameter is a CSV table: a glob with a comma must be quoted.
 */
import { readdirSync, readFileSync, type Dirent } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';

/** The OS of each source of the artifact, as `info()` names it. */
export type VeloOs = 'windows' | 'linux' | 'darwin';

export interface VeloArtifact {
  doc: Record<string, unknown>;
  /** The default of each parameter, by name. */
  defaults: Record<string, string>;
}

export function readArtifact(file: string): VeloArtifact {
  const doc = parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const defaults: Record<string, string> = {};
  for (const p of (doc.parameters ?? []) as Array<Record<string, unknown>>) defaults[String(p.name)] = String(p.default ?? '');
  return { doc, defaults };
}

/** The rows of a CSV text (RFC 4180: quoted fields, `""` inside quotes), blank lines skipped. */
export function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') field += text[i++];
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      if (row.some((f) => f !== '')) rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (quoted) throw new Error('CSV: a quote is not closed');
  row.push(field);
  if (row.some((f) => f !== '')) rows.push(row);
  return rows;
}

/** The values of the one column of a CSV parameter, checked to have that column only. */
export function csvColumn(text: string, column: string): string[] {
  const [header, ...rows] = csvRows(text);
  if (header?.length !== 1 || header[0] !== column) throw new Error(`CSV: header ${JSON.stringify(header)} is not [${column}]`);
  for (const r of rows)
    if (r.length !== 1) throw new Error(`CSV: row ${JSON.stringify(r)} has ${r.length} fields (a comma not quoted?)`);
  return rows.map((r) => r[0]);
}

const GROUPING = /^(.+)[{]([^{}]+)[}](.*)$/s;

/** glob.go `ExpandBraces`: every alternative of every `{...}` group, in order, each once. */
export function expandBraces(patterns: readonly string[]): string[] {
  const out: string[] = [];
  const expand = (pattern: string): void => {
    const groups = GROUPING.exec(pattern);
    if (groups) for (const item of groups[2].split(',')) expand(groups[1] + item + groups[3]);
    else if (!out.includes(pattern)) out.push(pattern);
  };
  for (const p of patterns) expand(p);
  return out;
}

/** glob.go `FNmatchTranslate` (Python's fnmatch.translate), as the body of an anchored regular expression. */
function fnmatchTranslate(pat: string): string {
  let res = '';
  for (let i = 0; i < pat.length; ) {
    const c = pat[i++];
    if (c === '*') res += '.*';
    else if (c === '?') res += '.';
    else if (c === '[') {
      let j = i;
      if (pat[j] === '!') j++;
      if (pat[j] === ']') j++;
      while (j < pat.length && pat[j] !== ']') j++;
      if (j >= pat.length) res += '\\[';
      else {
        let stuff = pat.slice(i, j).replace(/\\/g, '\\\\');
        i = j + 1;
        if (stuff[0] === '!') stuff = `^${stuff.slice(1)}`;
        else if (stuff[0] === '^') stuff = `\\${stuff}`;
        res += `[${stuff}]`;
      }
    } else res += /[A-Za-z0-9]/.test(c) ? c : `\\${c}`;
  }
  return res;
}

type Component = { test: (name: string) => boolean } | { recursive: number };

function component(text: string): Component {
  const rec = /^\*\*(\d*)/.exec(text);
  if (rec) {
    if (text !== rec[0]) throw new Error(`glob component ${text}: only a bare ** is emulated`);
    return { recursive: rec[1] ? Number(rec[1]) : 30 };
  }
  if (/[*?[]/.test(text)) {
    const re = new RegExp(`^(?:${fnmatchTranslate(text)})$`, 'is');
    return { test: (name) => re.test(name) };
  }
  const lower = text.toLowerCase();
  return { test: (name) => name.toLowerCase() === lower };
}

/** glob.go `_expand_path_components`: each `**N` as 0..N `*` components (0 only when something follows). */
function sequences(components: Component[]): Array<Array<{ test: (name: string) => boolean }>> {
  const idx = components.findIndex((c) => 'recursive' in c);
  if (idx === -1) return [components as Array<{ test: (name: string) => boolean }>];
  const left = components.slice(0, idx);
  const right = components.slice(idx + 1);
  const depth = (components[idx] as { recursive: number }).recursive;
  const any = component('*');
  const out: Array<Array<{ test: (name: string) => boolean }>> = [];
  for (let n = right.length > 0 ? 0 : 1; n <= depth; n++) out.push(...sequences([...left, ...Array(n).fill(any), ...right]));
  return out;
}

function entriesOf(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** A regular expression of Go's syntax with a leading `(?i)`, for JavaScript. */
export function goRegExp(source: string): RegExp {
  const insensitive = source.startsWith('(?i)');
  const body = insensitive ? source.slice(4) : source;
  if (body.includes('(?')) throw new Error(`regex ${source}: only a leading (?i) flag is emulated`);
  return new RegExp(body, insensitive ? 'i' : '');
}

/** An entry a glob matches: its image-relative path, its path as Velociraptor prints it, and whether it is a folder. */
export interface GlobHit {
  rel: string;
  osPath: string;
  isDir: boolean;
}

/**
 * What glob() reports for one glob (braces already expanded) over an image: a Windows glob (`C:/Users/...`)
 * starts at the image's folder of that drive letter, any other at the image root. `descend` is the
 * recursion callback: a matched folder is walked into only when it says so.
 */
export function globHits(imageRoot: string, glob: string, descend: (osPath: string) => boolean = () => true): GlobHit[] {
  const parts = glob.split(/[/\\]/).filter(Boolean);
  const drive = /^([A-Za-z]):$/.exec(parts[0] ?? '');
  if (!drive && !glob.startsWith('/')) throw new Error(`glob ${glob} is neither a Windows drive path nor absolute`);
  const start = drive ? path.join(imageRoot, drive[1].toUpperCase()) : imageRoot;
  const sep = drive ? '\\' : '/';
  const hits = new Map<string, GlobHit>();
  const walk = (dir: string, osPath: string, rest: Array<{ test: (name: string) => boolean }>): void => {
    const [first, ...next] = rest;
    for (const e of entriesOf(dir)) {
      if (!first.test(e.name)) continue;
      const full = path.join(dir, e.name);
      const hit = {
        rel: path.relative(imageRoot, full).split(path.sep).join('/'),
        osPath: `${osPath}${sep}${e.name}`,
        isDir: e.isDirectory(),
      };
      if (next.length === 0) hits.set(hit.rel, hit);
      else if (hit.isDir && descend(hit.osPath)) walk(full, hit.osPath, next);
    }
  };
  const components = (drive ? parts.slice(1) : parts).map(component);
  for (const seq of sequences(components)) walk(start, drive ? `${drive[1].toUpperCase()}:` : '', seq);
  return [...hits.values()];
}

/**
 * Image-relative paths of the files the artifact uploads for one glob: glob() with its recursion
 * callback, then `WHERE NOT IsDir AND NOT OSPath =~ ExcludePathRegex` (`exclude` null when empty).
 */
export function veloSelect(imageRoot: string, glob: string, exclude: RegExp | null): Set<string> {
  const hits = globHits(imageRoot, glob, (osPath) => !exclude?.test(osPath));
  return new Set(hits.filter((h) => !h.isDir && !exclude?.test(h.osPath)).map((h) => h.rel));
}
