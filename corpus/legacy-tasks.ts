// Waiting on a legacy task (1.x and 2.x write ~/.cline/data/tasks/<id>/ui_messages.json as the task runs). The driver
// reads the last messages only to know when to type next or when a run is over; facts never come from them.

import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sleep, until } from './child.js';

interface UiMessage {
  ts: number;
  type: 'say' | 'ask';
  say?: string;
  ask?: string;
  partial?: boolean;
}

function taskDir(home: string, id: string): string {
  return join(home, '.cline', 'data', 'tasks', id);
}

/** The task's UI messages; empty while the file is missing or being rewritten. */
function uiMessages(home: string, id: string): UiMessage[] {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(taskDir(home, id), 'ui_messages.json'), 'utf8'));
    return Array.isArray(parsed) ? (parsed as UiMessage[]) : [];
  } catch {
    return [];
  }
}

/** Asks that stop a task until someone answers, which the driver treats as a failed run. */
const FAILED_ASKS = ['api_req_failed', 'mistake_limit_reached'];

export type TaskState = `ask:${string}` | 'completed' | `failed:${string}`;

/**
 * What the task shows after `sinceMs` (the driver's clock, which the CLI shares): a completion, one of `asks`, or a
 * failure ask. Null while none of them is there.
 */
export function taskState(home: string, id: string, sinceMs: number, asks: string[]): TaskState | null {
  const recent = uiMessages(home, id).filter((m) => m.ts >= sinceMs && !m.partial);
  if (recent.some((m) => m.say === 'completion_result' || m.ask === 'completion_result')) return 'completed';
  const last = recent.at(-1);
  if (last?.type === 'ask' && last.ask && FAILED_ASKS.includes(last.ask)) return `failed:${last.ask}`;
  if (last?.type === 'ask' && last.ask && asks.includes(last.ask)) return `ask:${last.ask}`;
  return null;
}

export function waitForTask(
  home: string,
  id: string,
  sinceMs: number,
  asks: string[],
  timeoutMs: number,
): Promise<TaskState | null> {
  return until(() => taskState(home, id, sinceMs, asks), timeoutMs);
}

/** Waits until the task's files stop changing for 2 s (at most 20 s), so the copy of the home has the last writes. */
export async function settle(home: string, id: string): Promise<void> {
  const stamp = () => {
    try {
      const d = taskDir(home, id);
      return ['ui_messages.json', 'api_conversation_history.json'].map((f) => statSync(join(d, f)).mtimeMs).join(',');
    } catch {
      return '';
    }
  };
  let last = stamp();
  let stableSince = Date.now();
  const end = Date.now() + 20_000;
  while (Date.now() < end && Date.now() - stableSince < 2000) {
    await sleep(250);
    const s = stamp();
    if (s !== last) {
      last = s;
      stableSince = Date.now();
    }
  }
}
