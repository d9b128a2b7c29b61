/**
 * The file patterns of the store specification (core/stores.ts): globs over `/`-separated paths
 * relative to a store root. `*` is any part of one path segment (never a `/`), `**` any path (any
 * number of segments), `{a,b,}` one of the alternatives (the empty one too); everything else is itself. The same regular expression text
 * serves JavaScript (discovery) and DuckDB's RE2 (the `stores` table).
 */

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Regular expression text of one glob, unanchored. */
export function globSource(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i += 1) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      out += '.*';
      i += 1;
    } else if (c === '*') {
      out += '[^/]*';
    } else if (c === '{') {
      const end = glob.indexOf('}', i);
      if (end === -1) throw new Error(`glob ${glob}: { without }`);
      out += `(?:${glob
        .slice(i + 1, end)
        .split(',')
        .map(escapeRegExp)
        .join('|')})`;
      i = end;
    } else {
      out += escapeRegExp(c);
    }
  }
  return out;
}

/** A RegExp matching a whole root-relative path against any of `globs`. */
export function globsRegExp(globs: readonly string[]): RegExp {
  return new RegExp(`^(?:${globs.map(globSource).join('|')})$`);
}
