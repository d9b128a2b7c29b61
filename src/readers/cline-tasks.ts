/**
 * Store `cline-tasks`: the legacy tasks of the standalone CLI v1 and JetBrains, under
 * `${CLINE_DIR || ~/.cline}/data/` (cline-formats.md §1.1): `state/taskHistory.json`
 * and `tasks/<id>/{ui_messages,api_conversation_history,task_metadata}.json`.
 */
import { readLegacyTasks } from './shapes/legacy-tasks.js';
import type { Reader } from './shapes/rows.js';

/** Rows of one `~/.cline/data` legacy task store; see readLegacyTasks. */
export const readClineTasks: Reader = readLegacyTasks;
