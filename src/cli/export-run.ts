/**
 * `clinetrail export`: the checks of `--where` (one condition: warehouse/export-where.ts) and of `--to`
 * (cli/output-file.ts: a new file or, with `--force`, a regular file, outside OUT and its inputs; for
 * `parquet-dataset`, cli/output-folder.ts: a new folder or, with `--force`, one clinetrail wrote), all
 * refused with exit 2 before anything is written; then the staging folder, progress, putting the output in
 * place and the summary. The export itself is warehouse/export.ts. DuckDB writes into
 * `.clinetrail-export-<random>/` beside `--to` (the same file system, so the output is put in place whole;
 * its spills go there too, outside OUT), which is removed whatever happens: a failed or killed export
 * leaves nothing half-written under the name asked for.
 */
import { promises as fs, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { UsageError } from '../load/run.js';
import { type ExportFormat, exportSelection, FOLDER_FORMAT } from '../warehouse/export.js';
import { whereProblem } from '../warehouse/export-where.js';
import type { CommandLog } from './command-log.js';
import { outputTarget, placeOutput } from './output-file.js';
import { outputFolderTarget, placeOutputFolder } from './output-folder.js';

/** The arguments of one export. */
export interface ExportArgs {
  out: string;
  to: string;
  format: ExportFormat;
  where?: string;
  sql?: string;
  force: boolean;
  allowRead: readonly string[];
  /** `parquet-dataset`: the size at which a part is closed (--part-size). */
  partBytes?: number;
}

/** Progress lines on stderr, one every this many ms, while DuckDB writes. */
const PROGRESS_MS = 10_000;

/** Bytes written so far: the file's size, or the sum of a folder's files. */
function bytesWritten(output: string): number {
  const st = statSync(output, { throwIfNoEntry: false });
  if (st === undefined || !st.isDirectory()) return st?.size ?? 0;
  return readdirSync(output).reduce(
    (sum, name) => sum + (statSync(path.join(output, name), { throwIfNoEntry: false })?.size ?? 0),
    0,
  );
}

/** Runs one export; `log` gets progress and the summary. */
export async function runExport(args: ExportArgs, log: CommandLog): Promise<void> {
  if (args.where !== undefined) {
    const problem = await whereProblem(args.where);
    if (problem !== null) throw new UsageError(`export: --where must be one condition on the events view: ${problem}`);
  }
  const folder = args.format === FOLDER_FORMAT;
  if (args.partBytes !== undefined && !folder)
    throw new UsageError(`export: --part-size is for --format ${FOLDER_FORMAT}, not ${args.format}`);
  const target = folder
    ? await outputFolderTarget(args.out, args.to, args.force, 'export')
    : await outputTarget(args.out, args.to, args.force, 'export');
  const staging = await fs.mkdtemp(path.join(path.dirname(target.path), '.clinetrail-export-'));
  const output = path.join(staging, 'export');
  const t0 = Date.now();
  const timer = setInterval(() => {
    const size = bytesWritten(output);
    const seconds = Math.round((Date.now() - t0) / 1000);
    // an ordered selection (the events view) is written only once DuckDB has sorted it
    log.event(
      size > 0
        ? `export: ${(size / 1e6).toFixed(0)} MB written in ${seconds} s`
        : `export: ${seconds} s, nothing written yet (an ordered selection is written once sorted)`,
      { event: 'progress', bytes_written: size, seconds },
    );
  }, PROGRESS_MS);
  timer.unref();
  try {
    const spillDir = path.join(staging, 'spill');
    await fs.mkdir(spillDir);
    const counts = await exportSelection({ ...args, outDir: args.out, file: output, stagingDir: staging, spillDir }).catch(
      (err: Error) => {
        throw new Error(err.message.replace(/^query: /, 'export: '));
      },
    );
    if (folder) await placeOutputFolder(output, staging, target);
    else await placeOutput(output, target);
    const left =
      args.format === 'timesketch'
        ? `, ${counts.leftOut} undated row(s) left out, ${counts.atFileTime} undated row(s) at their file's time`
        : '';
    const parts = folder ? `, ${counts.parts.length} part(s)` : '';
    const seconds = (Date.now() - t0) / 1000;
    log.event(
      `export: ${counts.written} row(s) written${left} (${args.format}${parts}) in ${seconds.toFixed(1)} s -> ${target.path}`,
      {
        event: 'done',
        format: args.format,
        rows: counts.written,
        ...(args.format === 'timesketch' ? { undated_left_out: counts.leftOut, undated_at_file_time: counts.atFileTime } : {}),
        ...(folder ? { parts: counts.parts.length } : {}),
        to: target.path,
        seconds,
      },
    );
  } finally {
    clearInterval(timer);
    await fs.rm(staging, { recursive: true, force: true });
  }
}
