/**
 * `clinetrail export`: the checks of `--to`, the staging folder, progress, the rename into place and the
 * summary. The export itself is warehouse/export.ts. `--to` may not be inside OUT (after resolving
 * links: the export must never write into the warehouse) nor an existing file without `--force`, and
 * its folder must exist; all of that is refused with exit 2 before anything is written. DuckDB writes
 * into `.clinetrail-export-<random>/` beside `--to` (the same file system, so the rename is atomic; its
 * spills go there too, outside OUT), which is removed whatever happens: a failed or killed export leaves
 * no half-written file under the name asked for.
 */
import { promises as fs, statSync } from 'node:fs';
import * as path from 'node:path';
import { UsageError } from '../load/run.js';
import { type ExportFormat, exportSelection } from '../warehouse/export.js';

/** The arguments of one export. */
export interface ExportArgs {
  out: string;
  to: string;
  format: ExportFormat;
  where?: string;
  sql?: string;
  force: boolean;
  allowRead: readonly string[];
}

/** Progress lines on stderr, one every this many ms, while DuckDB writes. */
const PROGRESS_MS = 10_000;

/** Whether `inner` is `outer` or lies under it. */
function within(outer: string, inner: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

/**
 * The absolute target of `--to`, with its folder resolved through links; throws UsageError when refused.
 * `command` names the command in the messages (`report` checks its `--to` by the same rules).
 */
export async function exportTarget(out: string, to: string, force: boolean, command = 'export'): Promise<string> {
  if (to === '') throw new UsageError(`${command}: --to wants a file name, got ''`);
  const given = path.resolve(to);
  const folder = await fs.realpath(path.dirname(given)).catch(() => null);
  if (folder === null || !statSync(folder).isDirectory())
    throw new UsageError(`${command}: --to ${to}: the folder ${path.dirname(given)} does not exist`);
  let target = path.join(folder, path.basename(given));
  const existing = await fs.lstat(target).catch(() => null);
  // a link named as --to would be followed by the rename's reader: judge where it points
  if (existing?.isSymbolicLink()) target = await fs.realpath(target).catch(() => target);
  const outReal = await fs.realpath(out).catch(() => path.resolve(out));
  if (within(outReal, target) || within(outReal, folder))
    throw new UsageError(`${command}: --to ${to} is inside the warehouse ${out}; write the ${command} outside OUT`);
  const st = await fs.stat(target).catch(() => null);
  if (st?.isDirectory()) throw new UsageError(`${command}: --to ${to} is a folder`);
  if (st && !force) throw new UsageError(`${command}: --to ${to} exists (--force replaces it)`);
  return target;
}

/** Runs one export; `stderr` gets progress and the summary line. */
export async function runExport(args: ExportArgs, stderr: (text: string) => void): Promise<void> {
  const target = await exportTarget(args.out, args.to, args.force);
  const staging = await fs.mkdtemp(path.join(path.dirname(target), '.clinetrail-export-'));
  const file = path.join(staging, 'export');
  const t0 = Date.now();
  const timer = setInterval(() => {
    const size = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
    const seconds = ((Date.now() - t0) / 1000).toFixed(0);
    // an ordered selection (the events view) is written only once DuckDB has sorted it
    stderr(
      size > 0
        ? `clinetrail: export: ${(size / 1e6).toFixed(0)} MB written in ${seconds} s\n`
        : `clinetrail: export: ${seconds} s, nothing written yet (an ordered selection is written once sorted)\n`,
    );
  }, PROGRESS_MS);
  timer.unref();
  try {
    const spillDir = path.join(staging, 'spill');
    await fs.mkdir(spillDir);
    const counts = await exportSelection({ ...args, outDir: args.out, file, stagingDir: staging, spillDir }).catch(
      (err: Error) => {
        throw new Error(err.message.replace(/^query: /, 'export: '));
      },
    );
    await fs.rename(file, target);
    const left = args.format === 'timesketch' ? `, ${counts.leftOut} undated row(s) left out` : '';
    stderr(
      `clinetrail: export: ${counts.written} row(s) written${left} (${args.format}) in ${((Date.now() - t0) / 1000).toFixed(1)} s -> ${target}\n`,
    );
  } finally {
    clearInterval(timer);
    await fs.rm(staging, { recursive: true, force: true });
  }
}
