/**
 * One task history item (`HistoryItem`) as a `task_history` row, wherever it is kept: Cline's
 * `state/taskHistory.json` (and, before v3.28, its globalState in the editor's `state.vscdb`), Roo Code's and
 * Kilo Code's globalState `taskHistory`, and since Roo Code 3.49 `tasks/<id>/history_item.json` with the
 * cache `tasks/_index.json` (RooCodeInc/Roo-Code `src/core/task-persistence/TaskHistoryStore.ts`).
 *
 * Cline's item (cline/cline `src/shared/HistoryItem.ts`): id, ts, task, tokensIn, tokensOut, cacheWrites,
 * cacheReads, totalCost, cwdOnTaskInitialization, and in later versions modelId and apiProvider. Roo Code's
 * and Kilo Code's (`packages/types/src/history.ts`) add `number`, `workspace` (the folder, where Cline has
 * cwdOnTaskInitialization), `mode` (the mode slug: code, architect, orchestrator, a custom mode),
 * `apiConfigName` (the provider profile), and for orchestrator subtasks `parentTaskId`, `rootTaskId`,
 * `status`, `childIds`, `delegatedToId`, `awaitingChildId`, `completedByChildId`.
 */
import type { RowFields } from '../../core/row.js';
import { shortenAtTokenBoundary } from '../parse/quote.js';
import type { HistoryFacts } from './task-context.js';
import { epochMs, wholeNumber, finiteNumber, show, nonEmptyString } from '../common/values.js';

/** What one history item gives: its task id, the facts its task's rows take, and its row. */
export interface HistoryItemRow {
  id: string | null;
  facts: HistoryFacts;
  fields: RowFields;
}

/** Facts of a fork's item printed after its prompt, where present: `(mode=... status=... parent=...)`. */
const FORK_FACTS: ReadonlyArray<[key: string, label: string]> = [
  ['number', 'number'],
  ['mode', 'mode'],
  ['status', 'status'],
  ['apiConfigName', 'api_config'],
  ['parentTaskId', 'parent'],
  ['rootTaskId', 'root'],
  ['delegatedToId', 'delegated_to'],
  ['awaitingChildId', 'awaiting'],
  ['completedByChildId', 'completed_by'],
];

/** ` (mode=code parent=... children=2)` for the fork facts an item has; '' for a Cline item. */
function forkFacts(item: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, label] of FORK_FACTS) {
    const value = item[key];
    if (typeof value === 'string' || typeof value === 'number')
      parts.push(`${label}=${shortenAtTokenBoundary(String(value), 200)}`);
  }
  if (Array.isArray(item.childIds)) parts.push(`children=${item.childIds.length}`);
  const summary = nonEmptyString(item.completionResultSummary);
  if (summary !== null) parts.push(`child_summary=${shortenAtTokenBoundary(summary, 2000)}`);
  return parts.length === 0 ? '' : ` (${parts.join(' ')})`;
}

/** The `task_history` row of one history item (a JSON object) and the facts its task's other rows take. */
export function historyItemRow(item: Record<string, unknown>): HistoryItemRow {
  const id = nonEmptyString(item.id);
  const facts: HistoryFacts = {
    project_path: nonEmptyString(item.cwdOnTaskInitialization) ?? nonEmptyString(item.workspace),
    model: nonEmptyString(item.modelId),
    provider: nonEmptyString(item.apiProvider),
  };
  const mode = nonEmptyString(item.mode);
  return {
    id,
    facts,
    fields: {
      timestamp_utc: epochMs(item.ts),
      session_id: id,
      project_path: facts.project_path,
      turn_type: 'system',
      kind: 'task_history',
      model: facts.model,
      provider: facts.provider,
      permission_mode: mode,
      parent_session_id: nonEmptyString(item.parentTaskId),
      text: `task history: ${show(item.task)}${forkFacts(item)}`,
      tokens_in: wholeNumber(item.tokensIn),
      tokens_out: wholeNumber(item.tokensOut),
      cost_usd: finiteNumber(item.totalCost),
    },
  };
}
