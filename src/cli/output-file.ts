/**
 * The files clinetrail writes where the user names them: `export --to` and `report --to` (a new
 * command that writes a named file goes through here too; a folder, cli/output-folder.ts). A forensic tool run as root must never
 * replace a device, a FIFO or the evidence, so each of these is refused with exit 2 (UsageError)
 * before anything is written, `--force` or not:
 * - a folder of `--to` that does not exist;
 * - a folder, a character or block device, a FIFO or a socket at `--to`, or a link to one of those or
 *   to nothing. A link to a regular file is followed: that file is the one replaced (with `--force`),
 *   and the link stays; every rule below applies where the link points;
 * - a regular file without `--force`;
 * - a path inside OUT, or inside any input (fleet folder or host image) of a load of OUT
 *   (load/input-roots.ts), as given and with links resolved.
 * The caller writes the file into a staging folder beside the target (the same file system), and
 * placeOutput puts it there: onto nothing by link(2), which fails rather than replace whatever appeared
 * meanwhile; onto a regular file (`--force`) by rename(2), right after an lstat that finds a regular file
 * there still. What is at `--to` is judged again at that moment: a node that appeared or changed while
 * the file was written is refused like one that was there before (exit 2, nothing replaced). The one
 * window left is between that lstat and the rename, only with `--force`: rename(2) cannot be told to
 * replace regular files only.
 */
import { promises as fs, type Stats } from 'node:fs';
import * as path from 'node:path';
import { pathAliases, rootHolding } from '../core/path-within.js';
import { testStop } from '../core/test-stops.js';
import { recordedInputRoots } from '../load/input-roots.js';
import { UsageError } from '../load/load-inputs.js';

/** Where a command's output goes, as outputTarget checked it. */
export interface OutputTarget {
  /** The command, for messages (`export`, `report`). */
  command: string;
  /** `--to` as given, for messages. */
  to: string;
  /** The absolute path written, its folder and any link at it resolved. */
  path: string;
  force: boolean;
}

/** What a node that is not a regular file is, for a message. */
export function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isSymbolicLink()) return 'a link';
  return 'not a regular file';
}

/** lstat, or null when nothing is there. */
export async function lstatOrNull(p: string): Promise<Stats | null> {
  return fs.lstat(p).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
}

/** What of OUT's the paths lie in (the warehouse, or an input of one of its loads), or null. */
async function insideWhat(out: string, paths: readonly string[]): Promise<string | null> {
  if ((await rootHolding([out], paths)) !== null) return `the warehouse ${out}`;
  const outs = await pathAliases(out);
  const input = await rootHolding(await recordedInputRoots(outs[outs.length - 1]), paths);
  return input === null ? null : `${input}, an input of a load of ${out} (the evidence)`;
}

/** Where `--to` leads: the path it names, what is there (null: nothing) and `via` for a message. */
export interface ResolvedTo {
  target: string;
  st: Stats | null;
  via: '' | 'a link to ';
}

/**
 * `--to` judged where its folder and a link at it resolve (the rules of the header shared by a file and a
 * folder, cli/output-folder.ts): its folder must exist, a link at it must lead somewhere, and no path of
 * it may be inside OUT or OUT's evidence. `what` names what it should be (`file`, `folder`) in a message.
 */
export async function resolveTo(out: string, to: string, command: string, what: string): Promise<ResolvedTo> {
  if (to === '') throw new UsageError(`${command}: --to wants a ${what} name, got ''`);
  const given = path.resolve(to);
  const folder = await fs.realpath(path.dirname(given)).catch(() => null);
  if (folder === null) throw new UsageError(`${command}: --to ${to}: the folder ${path.dirname(given)} does not exist`);
  if (!(await fs.stat(folder)).isDirectory())
    throw new UsageError(`${command}: --to ${to}: ${path.dirname(given)} is not a folder`);
  const named = path.join(folder, path.basename(given));
  let target = named;
  let st = await lstatOrNull(named);
  let via: ResolvedTo['via'] = '';
  if (st?.isSymbolicLink()) {
    const real = await fs.realpath(named).catch(() => null);
    if (real === null) throw new UsageError(`${command}: --to ${to} is a link to nothing (a missing ${what}, or a loop)`);
    target = real;
    st = await lstatOrNull(real);
    via = 'a link to ';
  }
  const inside = await insideWhat(out, [given, named, target]);
  if (inside !== null)
    throw new UsageError(`${command}: --to ${to} is inside ${inside}; write the ${command} outside OUT and the evidence`);
  return { target, st, via };
}

/** Checks `--to` by the rules of the header; throws UsageError (exit 2) when it is refused. */
export async function outputTarget(out: string, to: string, force: boolean, command: string): Promise<OutputTarget> {
  const { target, st, via } = await resolveTo(out, to, command, 'file');
  if (st !== null && !st.isFile())
    throw new UsageError(
      `${command}: --to ${to} is ${via}${kindOf(st)}; only a new file, or a regular file with --force, is written`,
    );
  if (st !== null && !force) throw new UsageError(`${command}: --to ${to} exists (--force replaces it)`);
  return { command, to, path: target, force };
}

/** Errors of link(2) where the file system has no hard links: the file is renamed instead. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK', 'EXDEV']);

/**
 * Puts the finished file `staged` (inside the staging folder beside the target) at the target, by the
 * rules of the header: never over anything but a regular file, and over one only with `--force`.
 */
export async function placeOutput(staged: string, target: OutputTarget): Promise<void> {
  testStop('output-staged');
  const { command, to } = target;
  let st = await lstatOrNull(target.path);
  if (st === null) {
    const linked = await fs.link(staged, target.path).then(
      () => 'linked' as const,
      (err: NodeJS.ErrnoException) => {
        if (err.code === 'EEXIST') return 'taken' as const;
        if (NO_HARD_LINKS.has(err.code ?? '')) return 'renamed' as const;
        throw err;
      },
    );
    if (linked === 'linked') return fs.unlink(staged);
    if (linked === 'taken') st = await lstatOrNull(target.path);
  }
  const meanwhile = `appeared at --to while the ${command} was written; nothing was replaced`;
  if (st !== null && !st.isFile()) throw new UsageError(`${command}: --to ${to}: ${kindOf(st)} ${meanwhile}`);
  if (st !== null && !target.force) throw new UsageError(`${command}: --to ${to}: a file ${meanwhile} (--force replaces it)`);
  await fs.rename(staged, target.path);
}
