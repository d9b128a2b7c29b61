/**
 * The `run_hunt` tool: runs hunts of the pack now, on a sandboxed read-only connection (hunt/run.ts
 * selectFindings, what `clinetrail hunt` runs), under a time limit (warehouse-calls.ts), and returns the
 * findings. It stores nothing and takes no lock: storing is `clinetrail hunt`'s, under the OUT lock.
 * The findings are evidence (answers.ts: a summary quotes what the hunt saw, e.g. the planted phrase);
 * the per-hunt counts and the summary line are the server's, and name only the pack's hunts.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { loadHuntPack, SEVERITIES } from '../hunt/pack.js';
import { type Finding, type HuntRun, MAX_FINDINGS_PER_HUNT, selectFindings } from '../hunt/run.js';
import { answerSchema, evidenceDescription, guarded, NO_NUL, toolAnswer, toolError } from './answers.js';
import { maxRowsArg, QUERY_LIMITS, timeoutArg } from './query-tool.js';
import type { ToolContext } from './tool-context.js';
import { QueryError } from '../warehouse/query-sandbox.js';
import { CallStopped } from './warehouse-calls.js';

/** A finding as JSON: row_id as its text (a UUID's), the time as ISO 8601 UTC text. */
export interface FindingOut {
  hunt_id: string;
  title: string;
  severity: string;
  attack: string | null;
  host: string;
  session_id: string | null;
  row_id: string | null;
  timestamp_utc: string | null;
  summary: string;
  source_file: string | null;
  agent: string | null;
}

function findingOut(f: Finding): FindingOut {
  return {
    hunt_id: f.hunt_id,
    title: f.title,
    severity: f.severity,
    attack: f.attack,
    host: f.host,
    session_id: f.session_id,
    row_id: f.row_id,
    timestamp_utc: f.timestamp_utc,
    summary: f.summary,
    source_file: f.source_file,
    agent: f.agent,
  };
}

interface HuntCount {
  id: string;
  title: string;
  severity: string;
  count: number;
  truncated: boolean;
  returned: number;
}

/** The first findings that fit max_rows and the answer size, and why the rest were left out. */
function cut(findings: readonly Finding[], maxRows: number) {
  const kept: FindingOut[] = [];
  let chars = 0;
  let by: 'max_rows' | 'answer_size' | null = null;
  for (const f of findings) {
    if (kept.length >= maxRows) {
      by = 'max_rows';
      break;
    }
    const out = findingOut(f);
    const size = JSON.stringify(out).length + 1;
    if (chars + size > QUERY_LIMITS.answerChars) {
      by = 'answer_size';
      break;
    }
    chars += size;
    kept.push(out);
  }
  return { kept, by };
}

const DESCRIPTION = `Run hunts of the clinetrail hunt pack now on the warehouse of Cline (AI coding agent) records and get their findings. Call list_hunts first for the ids, what each hunt finds and its false positives.
ids: the hunts to run (default: every hunt of the pack); an unknown id is a tool error listing the known ids. Read-only: the findings are returned, NOT stored; the command clinetrail hunt --out OUT runs the pack and stores them in the findings table (then readable with the query tool), and list_hunts says when it last did.
Each finding: hunt_id, title, severity, attack (ATT&CK ids), host, session_id, row_id (the evidence row of the events table, as the text of its UUID), timestamp_utc (ISO 8601 UTC), summary (what the hunt saw, one line; secrets stay [REDACTED:<kind>:<fingerprint>] markers), source_file (the evidence file, relative to the image root), agent (whose record the evidence row is: cline, roo-code, kilo-code). Findings come hunt by hunt, each hunt's by host and time.
To follow a finding: session_timeline with its host and session_id reads the whole session around it (what the user asked, what ran before and after); query "select * from events where row_id = '<row_id>'" gives the evidence row with source_line; query the sessions, files and secrets tables for the session, the file and the secret's fingerprint on other hosts. Weigh each finding against the hunt's false_positives before reporting it.
Limits: max_rows (default ${QUERY_LIMITS.defaultRows}, at most ${QUERY_LIMITS.maxRows}) findings returned in all; hunts[] gives each hunt's count and how many came back, and truncated says when findings were left out (run one hunt by its id for its rest). timeout_seconds (default ${QUERY_LIMITS.defaultSeconds}, at most ${QUERY_LIMITS.maxSeconds}) interrupts DuckDB. A hunt that fails is a tool error naming it.
${evidenceDescription(['findings'])}`;

export function registerRunHuntTool(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'run_hunt',
    {
      title: 'Run hunts (read-only) and get their findings',
      description: DESCRIPTION,
      inputSchema: {
        ids: z
          .array(z.string().min(1).regex(NO_NUL, 'NUL character'))
          .min(1)
          .max(100)
          .optional()
          .describe('Hunt ids from list_hunts; default every hunt'),
        max_rows: maxRowsArg('Most findings to return, all hunts together'),
        timeout_seconds: timeoutArg('Time limit for all the hunts; DuckDB is interrupted when it passes'),
      },
      outputSchema: answerSchema(
        {
          hunts: z
            .array(
              z.object({
                id: z.string(),
                title: z.string(),
                severity: z.enum(SEVERITIES),
                count: z.number().int().describe('Findings of this hunt'),
                truncated: z.boolean().describe(`It found more than ${MAX_FINDINGS_PER_HUNT} (the per-hunt cap)`),
                returned: z.number().int().describe('Of them, in findings'),
              }),
            )
            .describe('Each hunt run, in pack order'),
          finding_count: z.number().int().describe('Findings of all the hunts run'),
          returned: z.number().int(),
          truncated: z.boolean().describe('True when findings were left out of this answer'),
          truncated_by: z.enum(['max_rows', 'answer_size']).nullable(),
          elapsed_ms: z.number(),
        },
        {
          findings: z
            .array(
              z.object({
                hunt_id: z.string(),
                title: z.string(),
                severity: z.enum(SEVERITIES),
                attack: z.string().nullable(),
                host: z.string(),
                session_id: z.string().nullable(),
                row_id: z.string().nullable(),
                timestamp_utc: z.string().nullable(),
                summary: z.string(),
                source_file: z.string().nullable(),
                agent: z.string().nullable(),
              }),
            )
            .describe('The findings returned, hunt by hunt'),
        },
      ),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      guarded('run_hunt', ctx.log, async () => {
        const t0 = Date.now();
        const pack = await loadHuntPack();
        const known = pack.map((h) => h.id);
        const unknown = [...new Set((args.ids ?? []).filter((id) => !known.includes(id)))];
        // the ids asked for are not repeated: an assistant may have copied them from evidence
        if (unknown.length > 0)
          return toolError(
            'not_found',
            `${unknown.length} id(s) of ids are not in the hunt pack; it has ${known.join(', ')} (list_hunts describes them)`,
          );
        const hunts = args.ids === undefined ? pack : pack.filter((h) => args.ids?.includes(h.id));
        const runs: HuntRun[] = [];
        let current: string | null = null;
        const findings = await ctx.calls
          .run({ timeoutMs: args.timeout_seconds * 1000, signal: extra.signal }, (conn, signal, track) =>
            selectFindings(ctx.out, conn, hunts, {
              onHunt: (run) => runs.push(run),
              onStart: (hunt) => {
                current = hunt.id;
              },
              onConnection: track,
              signal,
            }),
          )
          .catch((err: unknown) => {
            // a stopped or failed call names the hunt it was in (a host hunt runs batch by batch of hosts)
            if (runs.length >= hunts.length || current === null) throw err;
            const where = ` in hunt ${current}, ${runs.length} of ${hunts.length} hunt(s) done`;
            if (err instanceof CallStopped) throw new CallStopped(err.reason, `${err.message}${where}`);
            if (err instanceof QueryError) {
              // hunt/run.ts names the hunt before DuckDB's message: `where` says it in the server's words
              const named = `hunt ${current}: `;
              const quoted = err.quoted?.startsWith(named) ? err.quoted.slice(named.length) : err.quoted;
              throw new QueryError(err.before, quoted, `${err.after}${where}`);
            }
            throw err;
          });
        const { kept, by } = cut(findings, args.max_rows);
        const counts: HuntCount[] = runs.map((r) => ({
          id: r.hunt.id,
          title: r.hunt.title,
          severity: r.hunt.severity,
          count: r.findings,
          truncated: r.truncated,
          returned: kept.filter((f) => f.hunt_id === r.hunt.id).length,
        }));
        const answer = {
          summary: huntSummary(counts, findings.length, kept.length, by, Date.now() - t0),
          hunts: counts,
          finding_count: findings.length,
          returned: kept.length,
          truncated: by !== null,
          truncated_by: by,
          elapsed_ms: Date.now() - t0,
        };
        return toolAnswer(answer, { findings: kept });
      }),
  );
}

/** The server's line on a run: counts per hunt of the pack, never a finding's value. */
function huntSummary(hunts: readonly HuntCount[], count: number, returned: number, by: string | null, ms: number): string {
  const cutNote =
    by === null ? '' : ` (returning ${returned}: cut at ${by}; run one hunt by its id, or clinetrail hunt to store them all)`;
  const each = hunts.map((h) => `${h.id} ${h.count}${h.truncated ? '+' : ''}`).join(', ');
  const follow =
    returned > 0
      ? "; follow one: session_timeline {host, session_id}, or query select * from events where row_id = '<row_id>'"
      : '';
  return `${count} finding(s) of ${hunts.length} hunt(s) (${each})${cutNote}; not stored; ${ms} ms${follow}`;
}
