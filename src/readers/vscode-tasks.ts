/**
 * Store `vscode-tasks`: the legacy tasks of the VS Code extension, under
 * `<userData>/User/globalStorage/saoudrizwan.claude-dev/` (cline-formats.md §1.1): `state/taskHistory.json`
 * and `tasks/<id>/{ui_messages,api_conversation_history,task_metadata}.json`.
 */
import { readLegacyTasks } from './shapes/legacy-tasks.js';
import type { Reader } from './shapes/rows.js';

/** Rows of one VS Code (or fork) globalStorage legacy task store; see readLegacyTasks. */
export const readVscodeTasks: Reader = readLegacyTasks;
