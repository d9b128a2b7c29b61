/**
 * `clinetrail report`: the checks of `--to` (cli/output-file.ts, as for `export`: a new file or, with
 * `--force`, a regular file, outside OUT and its inputs; exit 2 before anything is written), then the
 * page is made in a staging folder `.clinetrail-report-<random>/` beside `--to` and put in place whole, so
 * a failed report leaves no half-written page and never replaces an old one. DuckDB's spill folder is in
 * that staging folder too: the report writes nothing under OUT.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { CommandLog } from './command-log.js';
import { outputTarget, placeOutput } from './output-file.js';
import { DEFAULT_CAPS } from '../report/data.js';
import { readReport } from '../report/read.js';
import { renderReport } from '../report/render.js';

export interface ReportArgs {
  out: string;
  to: string;
  force: boolean;
}

/** Makes the report of OUT at `--to`; `log` gets the summary. */
export async function runReport(args: ReportArgs, log: CommandLog): Promise<void> {
  const target = await outputTarget(args.out, args.to, args.force, 'report');
  const t0 = Date.now();
  const staging = await fs.mkdtemp(path.join(path.dirname(target.path), '.clinetrail-report-'));
  try {
    const spill = path.join(staging, 'spill');
    await fs.mkdir(spill);
    const data = await readReport(args.out, DEFAULT_CAPS, spill).catch((err: Error) => {
      throw new Error(err.message.replace(/^query: /, 'report: '));
    });
    const page = path.join(staging, 'report.html');
    await fs.writeFile(page, renderReport(data), 'utf8');
    const size = (await fs.stat(page)).size;
    await placeOutput(page, target);
    const findings = data.findings === null ? 'hunts not run yet' : `${data.findings.total} finding(s)`;
    const seconds = (Date.now() - t0) / 1000;
    const { hosts, sessions } = data.glance;
    log.event(
      `report: ${hosts} host(s), ${sessions} session(s), ${findings}, ${(size / 1e6).toFixed(2)} MB in ${seconds.toFixed(1)} s -> ${target.path}`,
      { event: 'done', hosts, sessions, findings: data.findings?.total ?? null, bytes: size, to: target.path, seconds },
    );
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
}
