/**
 * KAPE's target rules, emulated so that test/collect/targets.test.ts can say which files of an image a
 * `.tkape` target would copy, without KAPE (a Windows program). The rules are those of KAPE's own
 * documentation (EricZimmerman/KapeDocs, Pages/2.1-Targets.md and the changelog, read at 6fbfee86):
 *
 * - `Path` is a folder, on the `--tsource` drive whatever its letter: here the image's `C` folder, as a
 *   KAPE tree lays it out (`<tdest>\C\Users\...`).
 * - `%user%` without `--tvars` is `*`; `*` stands for any part of one folder name. KAPE turns a `*` into
 *   `.+` (the docs' own example: `*.jpg` is `.+\.jpg`), so here it never matches nothing.
 * - `FileMask` (default `*`) matches the whole file name, `regex:...` as a regular expression (anchored).
 * - `Recursive` copies from every folder below `Path` too; without it only from `Path` itself.
 * - A `Path` that names a `.tkape` file makes a compound target: that target's entries are taken in.
 * - Windows names are case-insensitive.
 */
import { readdirSync, readFileSync, type Dirent } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';

/** One file specification of a target (an entry of its `Targets` list, compound ones resolved). */
export interface KapeEntry {
  /** The `.tkape` file it was read from. */
  file: string;
  name: string;
  path: string;
  recursive: boolean;
  fileMask: string;
}

/** A target file parsed: its top-level fields, its own entries, and its compound references resolved. */
export interface KapeTarget {
  doc: Record<string, unknown>;
  /** Every file specification, with those of the `.tkape` files it references (found beside it). */
  entries: KapeEntry[];
  /** Referenced `.tkape` files not beside it: targets that ship with KAPE. */
  external: string[];
}

/** Reads a target, taking in the entries of the targets it references that lie in the same folder. */
export function readKapeTarget(file: string, seen: ReadonlySet<string> = new Set()): KapeTarget {
  const doc = parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const target: KapeTarget = { doc, entries: [], external: [] };
  for (const raw of (doc.Targets ?? []) as Array<Record<string, unknown>>) {
    const spec = String(raw.Path);
    if (spec.toLowerCase().endsWith('.tkape')) {
      const referenced = path.join(path.dirname(file), spec);
      if (seen.has(referenced)) throw new Error(`${file}: ${spec} references itself`);
      let inner: KapeTarget;
      try {
        inner = readKapeTarget(referenced, new Set([...seen, file]));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        target.external.push(spec);
        continue;
      }
      target.entries.push(...inner.entries);
      target.external.push(...inner.external);
      continue;
    }
    target.entries.push({
      file,
      name: String(raw.Name),
      path: spec,
      recursive: raw.Recursive === true,
      fileMask: raw.FileMask === undefined ? '*' : String(raw.FileMask),
    });
  }
  return target;
}

/** A KAPE wildcard (`*` = one or more characters) as an anchored, case-insensitive regular expression. */
function wildcard(text: string): RegExp {
  const body = text
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.+');
  return new RegExp(`^${body}$`, 'i');
}

function fileMaskRegExp(mask: string): RegExp {
  return mask.startsWith('regex:') ? new RegExp(`^(?:${mask.slice('regex:'.length)})$`, 'i') : wildcard(mask);
}

function entriesOf(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** The folders of the image a `Path` names: the drive is the image's folder of that letter. */
function pathFolders(imageRoot: string, spec: string): string[] {
  const segs = spec
    .replace(/%user%/gi, '*')
    .split('\\')
    .filter(Boolean);
  const drive = /^([A-Za-z]):$/.exec(segs[0] ?? '');
  if (!drive) throw new Error(`KAPE path ${spec} does not start with a drive letter`);
  let folders = [path.join(imageRoot, drive[1].toUpperCase())];
  for (const seg of segs.slice(1)) {
    const match = wildcard(seg);
    folders = folders.flatMap((dir) =>
      entriesOf(dir)
        .filter((e) => e.isDirectory() && match.test(e.name))
        .map((e) => path.join(dir, e.name)),
    );
  }
  return folders;
}

/** Image-relative (`/`-separated) paths of the files one entry copies from an image. */
export function kapeSelect(imageRoot: string, entry: KapeEntry): Set<string> {
  const mask = fileMaskRegExp(entry.fileMask);
  const out = new Set<string>();
  const take = (dir: string): void => {
    for (const e of entriesOf(dir)) {
      const full = path.join(dir, e.name);
      if (e.isFile() && mask.test(e.name)) out.add(path.relative(imageRoot, full).split(path.sep).join('/'));
      else if (e.isDirectory() && entry.recursive) take(full);
    }
  };
  for (const folder of pathFolders(imageRoot, entry.path)) take(folder);
  return out;
}
