/**
 * The folders clinetrail writes where the user names them: `export --format parquet-dataset --to DIR`. The
 * rules of cli/output-file.ts, for a folder: an output folder replaces only what clinetrail wrote there
 * before, never a folder of the user's, whatever it holds. Each of these is refused with exit 2 (UsageError)
 * before anything is written:
 * - a folder of `--to` that does not exist;
 * - a file, a device, a FIFO or a socket at `--to`, or a link to one of those or to nothing. A link to a
 *   folder is followed, as for a file, and the rules below apply where it points;
 * - a folder at `--to` without `--force`; with `--force`, a folder that is not one clinetrail wrote: one
 *   that holds anything but parts `part-NNNNN.parquet` whose footers name clinetrail
 *   (warehouse/dataset-parts.ts): a subfolder, another file, a link, a Parquet file of someone else's.
 *   An empty folder is replaced (it holds nothing to lose);
 * - a path inside OUT, or inside any input of a load of OUT, as given and with links resolved.
 * The caller writes the folder into a staging folder beside the target (the same file system), and
 * placeOutputFolder renames it there: onto nothing by one rename(2), onto an earlier
 * output (`--force`) by two, the old folder moved into the staging folder first (removed with it), then
 * the new one into place; a failure of the second puts the old one back. What is at `--to` is judged again
 * at that moment, as for a file. The windows left: rename(2) replaces an empty folder that appears at `--to`
 * between that check and the rename (an empty folder holds nothing to lose), and with `--force` `--to` is
 * missing between the two renames.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { testStop } from '../core/test-stops.js';
import { UsageError } from '../load/load-inputs.js';
import { firstForeignPart, PART_NAME } from '../warehouse/dataset-parts.js';
import { kindOf, lstatOrNull, type OutputTarget, resolveTo } from './output-file.js';

/** Why the folder `dir` is not one clinetrail wrote (its parts only), or null when it is. */
async function notOurs(dir: string): Promise<string | null> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  const other = entries.find((e) => !(e.isFile() && PART_NAME.test(e.name)));
  if (other !== undefined) return `it holds ${other.name}, which is no part-NNNNN.parquet`;
  const foreign = await firstForeignPart(entries.map((e) => path.join(dir, e.name)));
  return foreign === null ? null : `${path.basename(foreign)} is no part clinetrail wrote`;
}

/** Checks a folder `--to` by the rules of the header; throws UsageError (exit 2) when it is refused. */
export async function outputFolderTarget(out: string, to: string, force: boolean, command: string): Promise<OutputTarget> {
  const { target, st, via } = await resolveTo(out, to, command, 'folder');
  if (st !== null && !st.isDirectory())
    throw new UsageError(
      `${command}: --to ${to} is ${via}${st.isFile() ? 'a file' : kindOf(st)}; this format writes a folder: a new one, or with --force one it wrote before`,
    );
  if (st !== null && !force) throw new UsageError(`${command}: --to ${to} exists (--force replaces a folder clinetrail wrote)`);
  if (st !== null) {
    const why = await notOurs(target);
    if (why !== null)
      throw new UsageError(`${command}: --to ${to} is a folder clinetrail did not write (${why}); nothing was replaced`);
  }
  return { command, to, path: target, force };
}

/**
 * Puts the finished folder `staged` (inside the staging folder `staging`, beside the target) at the target,
 * by the rules of the header.
 */
export async function placeOutputFolder(staged: string, staging: string, target: OutputTarget): Promise<void> {
  testStop('output-staged');
  const { command, to } = target;
  const meanwhile = `appeared at --to while the ${command} was written; nothing was replaced`;
  const st = await lstatOrNull(target.path);
  if (st === null) {
    await fs.rename(staged, target.path).catch((err: NodeJS.ErrnoException) => {
      if (['EEXIST', 'ENOTEMPTY', 'ENOTDIR', 'EISDIR'].includes(err.code ?? ''))
        throw new UsageError(`${command}: --to ${to}: something ${meanwhile}`);
      throw err;
    });
    return;
  }
  if (!st.isDirectory()) throw new UsageError(`${command}: --to ${to}: ${st.isFile() ? 'a file' : kindOf(st)} ${meanwhile}`);
  if (!target.force) throw new UsageError(`${command}: --to ${to}: a folder ${meanwhile} (--force replaces it)`);
  const why = await notOurs(target.path);
  if (why !== null)
    throw new UsageError(`${command}: --to ${to} is now a folder clinetrail did not write (${why}); nothing was replaced`);
  const old = path.join(staging, 'replaced');
  await fs.rename(target.path, old);
  await fs.rename(staged, target.path).catch(async (err: Error) => {
    await fs.rename(old, target.path).catch(() => {});
    throw err;
  });
}
