/**
 * The `session_timeline` tool: one session's events in the order of the events view (time, undated
 * last, then file and position), with the session's row of `sessions`. Runs as a checked query. The
 * session's row and its events are evidence (answers.ts); the summary gives counts only, not even the
 * host or session id asked for, which an assistant may have copied from evidence.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { sqlString } from '../warehouse/sql-literal.js';
import type { OutValue } from '../warehouse/values.js';
import { answerSchema, evidenceDescription, guarded, NO_NUL, toolAnswer, toolError } from './answers.js';
import { QUERY_LIMITS, type QueryAnswer, runLimitedQuery } from './query-tool.js';
import type { ToolContext } from './tool-context.js';

const LIMITS = { defaultEvents: 200, maxEvents: 5_000, defaultCellChars: 1_000 } as const;

/** The columns of a timeline row: enough to read the session and to cite each row. */
const EVENT_COLUMNS = 'row_id, timestamp_utc, store, turn_type, kind, model, tool_name, is_error, text, source_file, source_line';

/** Sessions order of the events view (sql/30_events.sql), within one host. */
const EVENT_ORDER = 'timestamp_utc nulls last, source_file, source_line nulls first, source_seq, kind';

function where(host: string, sessionId: string): string {
  return `host = ${sqlString(host)} and session_id = ${sqlString(sessionId)}`;
}

/** An answer's rows as objects keyed by column name. */
function records(answer: QueryAnswer): Array<Record<string, OutValue>> {
  return answer.rows.map((row) => Object.fromEntries(answer.columns.map((c, i) => [c.name, row[i]])));
}

const DESCRIPTION = `Get one Cline session's timeline: its summary row from the sessions table (first and last time, models, providers, counts, sync target, stores) and its events in order (time in UTC, undated rows last, then source file and position): who said what (turn_type user/assistant/thinking/tool_use/tool_result/system), the kind (say:command, tool_use, model, ...), tool names, errors and texts with secrets redacted. Each event carries row_id, source_file and source_line to cite the evidence.
Find sessions with the query tool (select host, session_id, first_timestamp_utc, count_rows from sessions order by first_timestamp_utc). Page long sessions with offset; texts longer than max_cell_chars are cut.
${evidenceDescription(['session', 'events'])}`;

export function registerSessionTimelineTool(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'session_timeline',
    {
      title: "One session's events in order",
      description: DESCRIPTION,
      inputSchema: {
        host: z.string().min(1).regex(NO_NUL, 'NUL character').describe('Host name, as in sessions.host'),
        session_id: z.string().min(1).regex(NO_NUL, 'NUL character').describe('Session id, as in sessions.session_id'),
        limit: z.number().int().min(1).max(LIMITS.maxEvents).default(LIMITS.defaultEvents).describe('Most events'),
        offset: z.number().int().min(0).default(0).describe('Events to skip (paging)'),
        max_cell_chars: z
          .number()
          .int()
          .min(20)
          .max(QUERY_LIMITS.maxCellChars)
          .default(LIMITS.defaultCellChars)
          .describe('Longest text returned whole'),
      },
      outputSchema: answerSchema(
        {
          event_count: z.number().int().describe('Events the session has in all'),
          offset: z.number().int(),
          truncated: z.boolean().describe('True when more events follow (raise offset)'),
          cells_cut: z.number().int(),
        },
        {
          session: z.record(z.string(), z.any()).describe('The row of the sessions table'),
          events: z.array(z.record(z.string(), z.any())).describe(`Events in order: ${EVENT_COLUMNS}`),
        },
      ),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      guarded('session_timeline', ctx.log, async () => {
        const base = { timeoutSeconds: QUERY_LIMITS.defaultSeconds, maxCellChars: args.max_cell_chars, signal: extra.signal };
        const filter = where(args.host, args.session_id);
        const session = await runLimitedQuery(ctx.calls, {
          ...base,
          sql: `select *, (select count(*) from events where ${filter}) as event_count from sessions where ${filter}`,
          maxRows: 1,
        });
        if (session.row_count === 0)
          return toolError(
            'not_found',
            'no session with that session_id on that host (list them: select host, session_id from sessions)',
          );
        const events = await runLimitedQuery(ctx.calls, {
          ...base,
          sql: `select ${EVENT_COLUMNS} from events where ${filter} order by ${EVENT_ORDER} limit ${args.limit + 1} offset ${args.offset}`,
          maxRows: args.limit,
        });
        const [summary] = records(session);
        const eventCount = Number(summary.event_count);
        const rows = records(events);
        const more = events.truncated ? ` (more follow: offset ${args.offset + rows.length})` : '';
        return toolAnswer(
          {
            summary: `${eventCount} event(s) in the session; showing ${rows.length} from offset ${args.offset}${more}`,
            event_count: eventCount,
            offset: args.offset,
            truncated: events.truncated,
            cells_cut: session.cells_cut + events.cells_cut,
          },
          { session: summary, events: rows },
        );
      }),
  );
}
