/**
 * Paths as the store specification's row texts print them in `(from <file>, ...)`: relative to the
 * home folder (`.cline/data/globalState.json`), not to the image root like `source_file`.
 */
import * as path from 'node:path';
import { imagePath, type Source } from '../../core/row.js';

/**
 * Home-relative, `/`-separated path of an absolute file inside the source's home, e.g.
 * `.cline/data/settings/global-settings.json`. A file outside the home falls back to its
 * image-relative path, so the text never shows `..`.
 */
export function homePath(source: Pick<Source, 'imageRoot' | 'homeFolder'>, file: string): string {
  const home = path.join(source.imageRoot, ...source.homeFolder.split('/').filter((p) => p !== ''));
  const rel = path.relative(home, file);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return imagePath(source, file);
  return rel.split(path.sep).join('/');
}

/**
 * Path of a file relative to the parent of its store root, e.g.
 * `saoudrizwan.claude-dev/cache/sync-queue.json` for a globalStorage store.
 */
export function storePath(source: Pick<Source, 'root'>, file: string): string {
  return path.relative(path.dirname(source.root), file).split(path.sep).join('/');
}
