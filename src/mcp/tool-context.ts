/** What every tool of the MCP server is given: the warehouse's OUT, its call gate and the stderr log. */
import type { WarehouseCalls } from './warehouse-calls.js';

export interface ToolContext {
  /** The OUT folder of a load (absolute). */
  out: string;
  calls: WarehouseCalls;
  /** One diagnostic line to stderr. */
  log: (line: string) => void;
}
