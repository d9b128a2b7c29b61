/**
 * For the hunt tests: a fleet loaded into a temporary OUT with the real CLI (in this process), then
 * `clinetrail hunt` run on it, and the stored findings read back through the query sandbox.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCommandLine } from '../../src/cli/commands.js';
import { queryWarehouse } from '../../src/warehouse/build.js';
import { type CapturedRun, captureCommandLine } from './command-line.js';

/** One row of `findings` joined to its evidence row of `events` (null columns when the row is not there). */
export interface StoredFinding {
  hunt_id: string;
  severity: string;
  attack: string | null;
  host: string;
  session_id: string | null;
  row_id: string | null;
  summary: string;
  source_file: string | null;
  /** The agent of the evidence row (findings.agent). */
  agent: string | null;
  /** The evidence row's text, session and file, and the summary: where a fixture's marker shows. */
  identity: string;
  /** Whether events still holds the row the finding names. */
  in_events: boolean;
}

/** A temporary folder for one test file's OUT, removed by `remove`. */
export function tempOut(prefix: string): { dir: string; out: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `clinetrail-${prefix}-`));
  return { dir, out: path.join(dir, 'out'), remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export async function cli(args: readonly string[]): Promise<CapturedRun> {
  return captureCommandLine(runCommandLine, args);
}

/** Every stored finding with its evidence row. */
export async function storedFindings(out: string): Promise<StoredFinding[]> {
  const { columns, rows } = await queryWarehouse(
    out,
    `select f.hunt_id, f.severity, f.attack, f.host, f.session_id, f.row_id::varchar as row_id, f.summary, f.source_file, f.agent,
       concat_ws(' ', e.text, e.session_id, e.source_file, f.summary) as identity, e.row_id is not null as in_events
     from findings f left join events e on e.row_id = f.row_id
     order by f.hunt_id, f.host, f.summary`,
  );
  return rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i]])) as unknown as StoredFinding);
}
