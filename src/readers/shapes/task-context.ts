/**
 * What every row of one legacy task shares (legacy-tasks/reader.ts): its id, its project, what
 * taskHistory.json and task_metadata.json say about its models.
 */
import type { RowFields } from '../../core/row.js';
import { plainObject, nonEmptyString } from '../common/values.js';

/** What taskHistory.json says about one task, for the task's own rows. */
export interface HistoryFacts {
  project_path: string | null;
  model: string | null;
  provider: string | null;
}

/** One task_metadata.json `model_usage[]` entry. */
export interface ModelUsage {
  ts: number | null;
  model: string | null;
  provider: string | null;
}

/** What every row of one task shares. */
export interface TaskContext {
  session_id: string;
  project_path: string | null;
  history: HistoryFacts | null;
  usage: ModelUsage[];
}

/** Model and provider of a message: its own modelInfo, else task_metadata at that time, else taskHistory. */
export function modelAt(task: TaskContext, modelInfo: unknown, ts: number | null): Pick<RowFields, 'model' | 'provider'> {
  const info = plainObject(modelInfo);
  const own = nonEmptyString(info?.modelId);
  if (own !== null) return { model: own, provider: nonEmptyString(info?.providerId) };
  if (task.usage.length > 0) {
    let pick = task.usage[0];
    if (ts !== null) for (const u of task.usage) if (u.ts !== null && u.ts <= ts) pick = u;
    return { model: pick.model, provider: pick.provider };
  }
  return { model: task.history?.model ?? null, provider: task.history?.provider ?? null };
}
