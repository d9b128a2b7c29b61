/**
 * `clinetrail export`: the checks of `--where` (one condition: warehouse/export-where.ts) and of `--to`
 * (cli/output-file.ts: a new file or, with `--force`, a regular file, outside OUT and its inputs), both
 * refused with exit 2 before anything is written; then the staging folder, progress, putting the file in
 * place and the summary. The export itself is warehouse/export.ts. DuckDB writes into
 * `.clinetrail-export-<random>/` beside `--to` (the same file system, so the file is put in place whole;
 * its spills go there too, outside OUT), which is removed whatever happens: a failed or killed export
 * leaves no half-written file under the name asked for.
 */
import { promises as fs, statSync } from 'node:fs';
import * as path from 'node:path';
import { UsageError } from '../load/run.js';
import { type ExportFormat, exportSelection } from '../warehouse/export.js';
import { whereProblem } from '../warehouse/export-where.js';
import { outputTarget, placeOutput } from './output-file.js';

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

/** Runs one export; `stderr` gets progress and the summary line. */
export async function runExport(args: ExportArgs, stderr: (text: string) => void): Promise<void> {
  if (args.where !== undefined) {
    const problem = await whereProblem(args.where);
    if (problem !== null) throw new UsageError(`export: --where must be one condition on the events view: ${problem}`);
  }
  const target = await outputTarget(args.out, args.to, args.force, 'export');
  const staging = await fs.mkdtemp(path.join(path.dirname(target.path), '.clinetrail-export-'));
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
    await placeOutput(file, target);
    const left = args.format === 'timesketch' ? `, ${counts.leftOut} undated row(s) left out` : '';
    stderr(
      `clinetrail: export: ${counts.written} row(s) written${left} (${args.format}) in ${((Date.now() - t0) / 1000).toFixed(1)} s -> ${target.path}\n`,
    );
  } finally {
    clearInterval(timer);
    await fs.rm(staging, { recursive: true, force: true });
  }
}
