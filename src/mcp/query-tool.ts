/**
 * The `query` tool: one read-only statement through the sandbox and statement check of `clinetrail
 * query` (warehouse/query-sandbox.ts prepareQuery, streamed by warehouse/query-stream.ts), under a time
 * limit (warehouse-calls.ts). Its rows stop at max_rows and at the answer size, and its text cells are
 * cut at max_cell_chars, by DuckDB before the result leaves it (warehouse/capped-query.ts) and again
 * here as each row is read, so memory holds one answer, never a chunk of whole cells. The columns and
 * rows are evidence (answers.ts): a PIVOT even names columns after values.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { OutValue } from '../warehouse/values.js';
import { streamOnConnection } from '../warehouse/query-stream.js';
import { answerSchema, CellWriter, evidenceDescription, guarded, NO_NUL, toolAnswer } from './answers.js';
import type { ToolContext } from './tool-context.js';
import type { WarehouseCalls } from './warehouse-calls.js';

export const QUERY_LIMITS = {
  defaultRows: 200,
  maxRows: 10_000,
  defaultSeconds: 30,
  maxSeconds: 300,
  defaultCellChars: 2_000,
  maxCellChars: 100_000,
  /** JSON characters of the rows of one answer: past it the rows stop (truncated_by answer_size). */
  answerChars: 2_000_000,
} as const;

/** What a checked query returned, as structured content. */
export interface QueryAnswer {
  columns: Array<{ name: string; type: string }>;
  rows: OutValue[][];
  row_count: number;
  truncated: boolean;
  truncated_by: 'max_rows' | 'answer_size' | null;
  cells_cut: number;
  elapsed_ms: number;
}

export interface QueryRequest {
  sql: string;
  maxRows: number;
  timeoutSeconds: number;
  maxCellChars: number;
  signal?: AbortSignal;
}

/** Runs one query and reads its answer within the limits; throws the query path's errors. */
export async function runLimitedQuery(calls: WarehouseCalls, request: QueryRequest): Promise<QueryAnswer> {
  const t0 = Date.now();
  const cells = new CellWriter(request.maxCellChars);
  const answer: QueryAnswer = {
    columns: [],
    rows: [],
    row_count: 0,
    truncated: false,
    truncated_by: null,
    cells_cut: 0,
    elapsed_ms: 0,
  };
  let chars = 0;
  const stop = (by: 'max_rows' | 'answer_size') => {
    answer.truncated = true;
    answer.truncated_by = by;
    return 'stop';
  };
  const caps = {
    cellChars: request.maxCellChars,
    cutWide: true,
    maxRows: request.maxRows,
    answerChars: QUERY_LIMITS.answerChars,
  };
  await calls.run({ timeoutMs: request.timeoutSeconds * 1000, signal: request.signal }, (conn, signal) =>
    streamOnConnection(
      conn,
      request.sql,
      {
        columns: (names, types) => {
          answer.columns = names.map((name, i) => ({ name, type: types[i] }));
        },
        rows: (rows) => {
          for (const row of rows) {
            if (answer.rows.length >= request.maxRows) return stop('max_rows');
            const cutBefore = cells.cellsCut;
            const out = row.map((v) => cells.cell(v));
            const size = JSON.stringify(out).length + 1;
            if (chars + size > QUERY_LIMITS.answerChars) {
              // a row left out has no cells cut
              cells.cellsCut = cutBefore;
              return stop('answer_size');
            }
            chars += size;
            answer.rows.push(out);
          }
        },
        pastAnswerSize: () => stop('answer_size'),
      },
      { caps, signal },
    ),
  );
  answer.row_count = answer.rows.length;
  answer.cells_cut = cells.cellsCut;
  answer.elapsed_ms = Date.now() - t0;
  return answer;
}

/** The server's one line on an answer: counts and limits, never a value. */
export function querySummary(answer: QueryAnswer, request: QueryRequest): string {
  const cut =
    answer.truncated_by === 'max_rows'
      ? ` (cut at max_rows ${request.maxRows}: the query has more rows; add a LIMIT/filter or raise max_rows)`
      : answer.truncated_by === 'answer_size'
        ? ` (cut: the answer reached ${QUERY_LIMITS.answerChars} characters; select fewer columns or rows)`
        : '';
  const cells = answer.cells_cut > 0 ? `; ${answer.cells_cut} long cell(s) cut at ${request.maxCellChars} characters` : '';
  return `${answer.row_count} row(s) of ${answer.columns.length} column(s)${cut}${cells}; ${answer.elapsed_ms} ms`;
}

const DESCRIPTION = `Run ONE read-only SQL query (DuckDB dialect) on the clinetrail warehouse of Cline (AI coding agent) records and get its rows.
Allowed: select, from, with, values, table, describe, show, summarize, or explain of those. Anything that writes or changes the connection (create, insert, copy, export, attach, install, set, pragma, two statements, query(), checkpoint()) is refused with a tool error and nothing runs. Files outside the warehouse cannot be read.
Start with list_tables. Main tables: events (the deduplicated timeline, one row per event: host, session_id, timestamp_utc, turn_type, kind, tool_name, text, ...), sessions (one row per host and session), files (every evidence file read), secrets (redacted secrets by fingerprint), hosts, load_runs; findings once hunts have run.
Times are TIMESTAMPTZ in UTC and come back as ISO 8601 text ending in Z. row_id comes back as the text of its UUID (join or compare with it as it is), integers beyond 2^53 as strings of digits. Secrets appear only as [REDACTED:<kind>:<fingerprint>] markers.
Limits: max_rows (default ${QUERY_LIMITS.defaultRows}, at most ${QUERY_LIMITS.maxRows}); the answer says truncated when rows were left out (truncated_by max_rows, or answer_size past ${QUERY_LIMITS.answerChars} characters of rows), so aggregate or filter in SQL rather than raising it. timeout_seconds (default ${QUERY_LIMITS.defaultSeconds}, at most ${QUERY_LIMITS.maxSeconds}) interrupts DuckDB. Text cells longer than max_cell_chars (and lists or structs whose JSON is longer) are cut with an ellipsis (counted in cells_cut).
${evidenceDescription(['columns', 'rows'])}`;

/** The `max_rows` argument of a tool that returns rows (query, run_hunt). */
export function maxRowsArg(description: string) {
  return z.number().int().min(1).max(QUERY_LIMITS.maxRows).default(QUERY_LIMITS.defaultRows).describe(description);
}

/** The `timeout_seconds` argument of a tool that runs SQL (query, run_hunt). */
export function timeoutArg(description: string) {
  return z.number().min(1).max(QUERY_LIMITS.maxSeconds).default(QUERY_LIMITS.defaultSeconds).describe(description);
}

export function registerQueryTool(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'query',
    {
      title: 'Run a read-only SQL query',
      description: DESCRIPTION,
      inputSchema: {
        sql: z
          .string()
          .min(1)
          .regex(NO_NUL, 'the SQL text holds a NUL character')
          .describe('One query, e.g. select host, count(*) from events group by all order by all'),
        max_rows: maxRowsArg('Most rows to return'),
        timeout_seconds: timeoutArg('Time limit; DuckDB is interrupted when it passes'),
        max_cell_chars: z
          .number()
          .int()
          .min(20)
          .max(QUERY_LIMITS.maxCellChars)
          .default(QUERY_LIMITS.defaultCellChars)
          .describe('Longest text cell returned whole; longer ones are cut'),
      },
      outputSchema: answerSchema(
        {
          row_count: z.number().int(),
          truncated: z.boolean().describe('True when the query had more rows than returned'),
          truncated_by: z.enum(['max_rows', 'answer_size']).nullable(),
          cells_cut: z.number().int(),
          elapsed_ms: z.number(),
        },
        {
          columns: z.array(z.object({ name: z.string(), type: z.string() })).describe('Result columns and DuckDB types'),
          rows: z.array(z.array(z.any())).describe('Rows as arrays in column order'),
        },
      ),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      guarded('query', ctx.log, async () => {
        const request: QueryRequest = {
          sql: args.sql,
          maxRows: args.max_rows,
          timeoutSeconds: args.timeout_seconds,
          maxCellChars: args.max_cell_chars,
          signal: extra.signal,
        };
        const { columns, rows, ...counts } = await runLimitedQuery(ctx.calls, request);
        return toolAnswer({ summary: querySummary({ columns, rows, ...counts }, request), ...counts }, { columns, rows });
      }),
  );
}
