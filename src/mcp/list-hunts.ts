/**
 * The `list_hunts` tool: the hunt pack (hunts/*.sql, hunt/pack.ts) with each hunt's header, and what the
 * warehouse holds of `clinetrail hunt`: whether `findings` exists and, from `hunt_runs`, each hunt's last
 * stored run. The pack is read from its files at each call, the warehouse through a sandboxed connection.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { HUNT_RUNS_TABLE, hasFindings } from '../hunt/findings-table.js';
import { type Hunt, loadHuntPack, SEVERITIES } from '../hunt/pack.js';
import { sqlString } from '../warehouse/sql-literal.js';
import { outValue } from '../warehouse/values.js';
import { answerSchema, evidenceDescription, guarded, HUNTS_NOT_RUN, toolAnswer } from './answers.js';
import type { ToolContext } from './tool-context.js';

/** A hunt's last run as `clinetrail hunt` stored it in hunt_runs. */
export interface StoredRun {
  count: number;
  /** It found more than the per-hunt cap of 100,000; the rest are not in findings. */
  truncated: boolean;
  /** ISO 8601 UTC. */
  ran_at_utc: string;
}

/** A hunt as the tools describe it: its header, without the SQL. */
export function huntHeader(hunt: Hunt) {
  return {
    id: hunt.id,
    title: hunt.title,
    severity: hunt.severity,
    attack: hunt.attack,
    agents: hunt.agents,
    description: hunt.description,
    false_positives: hunt.falsePositives,
    columns: hunt.columns,
  };
}

/** The header's output schema (shared with run_hunt). */
export const HUNT_HEADER_SCHEMA = {
  id: z.string().describe('The hunt id (hunts/<id>.sql): give it to run_hunt'),
  title: z.string(),
  severity: z.enum(SEVERITIES),
  attack: z.array(z.string()).describe('MITRE ATT&CK technique ids'),
  agents: z.array(z.string()).describe('The agents of the Cline family (cline, roo-code, kilo-code) its tests check it on'),
  description: z.string().describe('What it finds'),
  false_positives: z.string().describe('Known benign causes: weigh a finding against them'),
  columns: z.array(z.string()).describe('The columns its SELECT returns'),
};

/** Each hunt's row of hunt_runs, by id; empty where the table does not exist. */
async function storedRuns(conn: DuckDBConnection): Promise<Map<string, StoredRun>> {
  const exists = await conn.runAndReadAll(
    `select count(*) from duckdb_tables() where schema_name = 'main' and table_name = ${sqlString(HUNT_RUNS_TABLE)}`,
  );
  const runs = new Map<string, StoredRun>();
  if (Number(exists.getRows()[0][0]) === 0) return runs;
  const reader = await conn.runAndReadAll(
    `select hunt_id, count_findings, is_truncated, ran_at_utc from ${HUNT_RUNS_TABLE} order by hunt_id`,
  );
  for (const [id, count, truncated, at] of reader.getRows())
    runs.set(String(id), { count: Number(count), truncated: truncated === true, ran_at_utc: String(outValue(at)) });
  return runs;
}

const DESCRIPTION = `List the hunt pack of clinetrail: the detections shipped as SQL files (hunts/<id>.sql) that a DFIR analyst runs first on a warehouse of Cline (AI coding agent) records: destructive commands run without approval, credential access, data leaving, safety settings turned off, secrets in prompts or on several hosts, persistence, prompt injection.
Each hunt: id, title, severity (info, low, medium, high, critical), attack (MITRE ATT&CK technique ids), description (what it finds), false_positives (benign causes to rule out before reporting a finding), columns (what its SELECT returns).
Also what the warehouse holds of the last stored run of clinetrail hunt: findings ("present", or "${HUNTS_NOT_RUN}") and, per hunt, last_run (count of findings, truncated, ran_at_utc) or null when that run did not include it. Stored findings are read with the query tool: select * from findings where hunt_id = '...'.
Then call run_hunt with ids to run hunts now (read-only; nothing is stored).
${evidenceDescription([])}`;

export function registerListHuntsTool(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'list_hunts',
    {
      title: 'List the hunt pack',
      description: DESCRIPTION,
      inputSchema: {},
      outputSchema: answerSchema(
        {
          hunts: z.array(
            z.object({
              ...HUNT_HEADER_SCHEMA,
              last_run: z
                .object({ count: z.number().int(), truncated: z.boolean(), ran_at_utc: z.string() })
                .nullable()
                .describe("This hunt's row of hunt_runs (the last clinetrail hunt), or null"),
            }),
          ),
          findings: z.string().describe(`present, or "${HUNTS_NOT_RUN}"`),
        },
        null,
      ),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (_args, extra) =>
      guarded('list_hunts', ctx.log, async () => {
        const pack = await loadHuntPack();
        const { present, runs } = await ctx.calls.run({ timeoutMs: 30_000, signal: extra.signal }, async (conn) => ({
          present: await hasFindings(conn),
          runs: await storedRuns(conn),
        }));
        const hunts = pack.map((h) => ({ ...huntHeader(h), last_run: runs.get(h.id) ?? null }));
        const findings = present ? 'present' : HUNTS_NOT_RUN;
        const stored = hunts.filter((h) => h.last_run !== null).length;
        const summary = `${hunts.length} hunt(s) in the pack, ${stored} with a stored run; findings: ${findings}`;
        return toolAnswer({ summary, hunts, findings }, null);
      }),
  );
}
