/** The options and help text of `clinetrail mcp` (a yargs builder). */
import type { Argv } from 'yargs';
import { examplesBlock } from './help-examples.js';

export function mcpOptions<T>(y: Argv<T>) {
  return y
    .option('out', { type: 'string', demandOption: true, describe: 'Output folder of a load' })
    .epilogue(
      examplesBlock([
        ['$0 mcp --out /cases/acme/warehouse', 'Serve the warehouse to an MCP client (the client starts this command itself)'],
      ]),
    )
    .epilogue(
      'Speaks the Model Context Protocol on stdin/stdout (one JSON-RPC message per line) until stdin closes; diagnostics go to stderr. Tools: list_tables, query (one read-only statement through the sandbox of clinetrail query, with row and time limits), session_timeline, list_hunts and run_hunt (the hunt pack, run read-only: the findings are returned, not stored; clinetrail hunt stores them). Each call opens the warehouse read-only for itself, so a load running beside it is seen once it has finished, as with clinetrail query. See docs/MCP.md.',
    );
}
