/** What every tool of the MCP server is given: the warehouse's OUT and its call gate. */
import type { WarehouseCalls } from './warehouse-calls.js';

export interface ToolContext {
  /** The OUT folder of a load (absolute). */
  out: string;
  calls: WarehouseCalls;
}
