/**
 * The version of a piece of code: a hash of the files it is made of. A partition records the version
 * of the code that shaped its rows (core/manifest.ts), and the next load reads it again when the running
 * code's version differs, so a warehouse never mixes rows of two code versions.
 *
 * The files are found by following the static imports from entry modules, not by listing folders: a
 * module moved into a subfolder, or a helper added in another stage, is covered as soon as something
 * imports it, and nothing outside the graph (the CLI's help text) forces a re-read.
 */
import { createHash } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';

/**
 * Relative specifiers of a module's static imports and re-exports: statements that start a line
 * (`import ... from`, `export ... from`, `import '...'`), so an example in a comment is not one.
 */
const IMPORT_RE = /^(?:import|export)\b(?:[^;'"]*?\bfrom)?\s*['"](\.{1,2}\/[^'"]+)['"]/gm;

/** The module file `target` names, as compiled (`.js`) or, under vitest, as written (`.ts`). */
function moduleFile(target: string): string | null {
  if (existsSync(target)) return target;
  const ts = target.replace(/\.js$/, '.ts');
  return existsSync(ts) ? ts : null;
}

/** Every module reachable by relative imports from `entries` (absolute paths), entries included. */
export async function moduleGraph(entries: string[]): Promise<string[]> {
  const seen = new Set<string>();
  const todo = [...entries];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = await fs.readFile(file, 'utf8');
    for (const m of text.matchAll(IMPORT_RE)) {
      const target = moduleFile(path.resolve(path.dirname(file), m[1]));
      if (target === null) throw new Error(`code version: ${file} imports ${m[1]}, which is not there`);
      if (!seen.has(target)) todo.push(target);
    }
  }
  return [...seen].sort();
}

/** Hash of files named by their path relative to `base` (so a copied tree has the same version). */
async function hashFiles(base: string, files: string[]): Promise<string> {
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(path.relative(base, file).split(path.sep).join('/')).update('\0');
    hash.update(await fs.readFile(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/** Version of the modules reachable from `entries` (paths relative to `base`). */
export async function moduleGraphVersion(base: string, entries: string[]): Promise<string> {
  const files = await moduleGraph(entries.map((e) => moduleFile(path.join(base, e)) ?? path.join(base, e)));
  return hashFiles(base, files);
}

/** Version of the files of one folder whose names match `pattern` (the SQL models). */
export async function folderVersion(dir: string, pattern: RegExp): Promise<string> {
  const names = (await fs.readdir(dir)).filter((n) => pattern.test(n)).sort();
  return hashFiles(
    dir,
    names.map((n) => path.join(dir, n)),
  );
}
