/**
 * Whether one path lies inside another, on the names as given and as resolved through links: the
 * question behind every "never write into the evidence or the warehouse" check (cli/output-file.ts,
 * load/input-roots.ts). A path that does not exist yet is resolved through its nearest existing folder,
 * so a link anywhere above it is seen.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** Whether `inner` is `outer` or lies under it (names only, no file system). */
export function within(outer: string, inner: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

/** A path made absolute, and that path resolved through links (as far up as it exists) when that differs. */
export async function pathAliases(p: string): Promise<string[]> {
  const given = path.resolve(p);
  let existing = given;
  let rest = '';
  for (;;) {
    const real = await fs.realpath(existing).catch(() => null);
    if (real !== null) {
      const resolved = path.join(real, rest);
      return resolved === given ? [given] : [given, resolved];
    }
    const parent = path.dirname(existing);
    if (parent === existing) return [given];
    rest = path.join(path.basename(existing), rest);
    existing = parent;
  }
}

/** The first of `roots` that holds any of `paths`, each compared under all its aliases; null when none does. */
export async function rootHolding(roots: readonly string[], paths: readonly string[]): Promise<string | null> {
  const inner = (await Promise.all(paths.map(pathAliases))).flat();
  for (const root of roots) {
    const outers = await pathAliases(root);
    if (outers.some((outer) => inner.some((p) => within(outer, p)))) return root;
  }
  return null;
}
