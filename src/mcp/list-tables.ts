/**
 * The `list_tables` tool: the warehouse's tables and views with their documentation, read from DuckDB's
 * catalog (the models put `comment on` on every table, view and column: sql/NN_*.sql), through the
 * same sandboxed connection as a query.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { hasFindings } from '../hunt/findings-table.js';
import { sqlString } from '../warehouse/sql-literal.js';
import { streamOnConnection } from '../warehouse/query-stream.js';
import { answerSchema, evidenceDescription, guarded, HUNTS_NOT_RUN, toolAnswer, toolError } from './answers.js';
import type { ToolContext } from './tool-context.js';

export interface ColumnDoc {
  name: string;
  type: string;
  comment: string | null;
}

export interface TableDoc {
  name: string;
  kind: 'table' | 'view';
  comment: string | null;
  /** An int_* view the models build from (no documentation of its own; events and the others are made of them). */
  intermediate: boolean;
  columns: ColumnDoc[];
}

/** Tables and views of the warehouse's main schema, in name order, with columns in their order. */
const CATALOG_SQL = `
with objects as (
  select table_name as name, 'table' as kind, comment from duckdb_tables()
  where database_name = current_database() and schema_name = 'main' and not internal and not temporary
  union all
  select view_name, 'view', comment from duckdb_views()
  where database_name = current_database() and schema_name = 'main' and not internal and not temporary
)
select o.name, o.kind, o.comment, c.column_name, c.data_type, c.comment as column_comment
from objects o join duckdb_columns() c
  on c.database_name = current_database() and c.schema_name = 'main' and c.table_name = o.name
where ($filter)
order by o.name, c.column_index`;

/** Every documented table and view (or the one named), read from the catalog. */
export async function readCatalog(conn: DuckDBConnection, only: string | null, withIntermediate: boolean): Promise<TableDoc[]> {
  const filter =
    only !== null ? `o.name = ${sqlString(only)}` : withIntermediate ? 'true' : "o.name not like 'int\\_%' escape '\\'";
  const tables = new Map<string, TableDoc>();
  await streamOnConnection(conn, CATALOG_SQL.replace('$filter', filter), {
    columns: () => {},
    rows: (rows) => {
      for (const [name, kind, comment, column, type, columnComment] of rows as Array<Array<string | null>>) {
        const key = String(name);
        let table = tables.get(key);
        if (table === undefined) {
          table = {
            name: key,
            kind: kind === 'view' ? 'view' : 'table',
            comment,
            intermediate: key.startsWith('int_'),
            columns: [],
          };
          tables.set(key, table);
        }
        table.columns.push({ name: String(column), type: String(type), comment: columnComment });
      }
    },
  });
  return [...tables.values()];
}

const DESCRIPTION = `List the tables and views of the clinetrail warehouse (Cline AI coding agent records of a fleet of hosts) with their documentation: what each holds and its grain, and every column with its DuckDB type and meaning. Call it first, before writing SQL for the query tool.
Without arguments: every documented table and view (events, sessions, files, secrets, hosts, load_runs, duplicates, stores, the raw_* views, and findings once clinetrail hunt has run). table: one table or view by name (any, an int_* intermediate view too). include_intermediate: add the int_* views the models are built from.
${evidenceDescription([])}`;

export function registerListTablesTool(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'list_tables',
    {
      title: 'List warehouse tables and columns',
      description: DESCRIPTION,
      inputSchema: {
        table: z.string().min(1).optional().describe('Only this table or view, e.g. events'),
        include_intermediate: z.boolean().default(false).describe('Also list the int_* views'),
      },
      outputSchema: answerSchema(
        {
          tables: z.array(
            z.object({
              name: z.string(),
              kind: z.enum(['table', 'view']),
              comment: z.string().nullable(),
              intermediate: z.boolean(),
              columns: z.array(z.object({ name: z.string(), type: z.string(), comment: z.string().nullable() })),
            }),
          ),
          findings: z.string().describe(`present, or "${HUNTS_NOT_RUN}"`),
        },
        null,
      ),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      guarded('list_tables', ctx.log, async () => {
        const only = args.table ?? null;
        // the same question as list_hunts and the report: a findings table of a build run with --no-hunts is empty
        const { tables, present } = await ctx.calls.run({ timeoutMs: 30_000, signal: extra.signal }, async (conn) => ({
          tables: await readCatalog(conn, only, args.include_intermediate),
          present: await hasFindings(conn),
        }));
        if (only !== null && tables.length === 0) {
          // the name asked for is not repeated: it may come from evidence
          const hint = only === 'findings' ? HUNTS_NOT_RUN : 'call list_tables without arguments for the names';
          return toolError('not_found', `no table or view of that name in the warehouse (${hint})`);
        }
        const findings = present ? 'present' : HUNTS_NOT_RUN;
        const columns = tables.reduce((n, t) => n + t.columns.length, 0);
        const summary = `${tables.length} table(s) and view(s), ${columns} column(s); findings: ${findings}`;
        return toolAnswer({ summary, tables, findings }, null);
      }),
  );
}
