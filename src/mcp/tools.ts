/**
 * The tools of `clinetrail mcp`, registered in one place: a tool is one module that registers itself
 * on the server (name, description, input and output schemas, handler) and one entry here.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerListHuntsTool } from './list-hunts.js';
import { registerListTablesTool } from './list-tables.js';
import { registerQueryTool } from './query-tool.js';
import { registerRunHuntTool } from './run-hunt.js';
import { registerSessionTimelineTool } from './session-timeline.js';
import type { ToolContext } from './tool-context.js';

export type ToolRegistration = (server: McpServer, ctx: ToolContext) => void;

export const TOOLS: readonly ToolRegistration[] = [
  registerListTablesTool,
  registerQueryTool,
  registerSessionTimelineTool,
  registerListHuntsTool,
  registerRunHuntTool,
];

export function registerTools(server: McpServer, ctx: ToolContext): void {
  for (const register of TOOLS) register(server, ctx);
}
