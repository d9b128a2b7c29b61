/**
 * The text of one `team_events` record of teams.db: the event a 3.x agent team emitted, as the team
 * store appended it (`appendTeamEvent`, payload_json = the whole `TeamEvent`; TeamEvent union in
 * sdk/packages/core/src/extensions/tools/team/multi-agent.ts, record shapes in
 * sdk/packages/shared/src/team/types.ts at cline-formats H). Every event the team runtime emits is
 * appended, so this is the team's history: tasks given to teammates, messages between agents, mission
 * log entries, runs and outcomes. `agent_event` payloads (the teammates' streamed agent events) and
 * `task_end` results are summed up, not copied: their content is in the teammates' transcripts.
 */
import { shortenAtTokenBoundary } from '../parse/quote.js';
import { label, plainObject, show, nonEmptyString } from '../common/values.js';

/** Longest free text (a message body, a role prompt) kept in one event's summary. */
const MAX_FIELD_CHARS = 4000;

/** What a summary prints of a free-text field: cut at a token boundary past MAX_FIELD_CHARS. */
function free(value: unknown): string {
  const s = nonEmptyString(value);
  return s === null ? '-' : shortenAtTokenBoundary(s, MAX_FIELD_CHARS);
}

/** `key=value` of an id or status field (objects shown as JSON, cut to 100 characters). */
function kv(key: string, value: unknown): string {
  return `${key}=${value === null || value === undefined || value === '' ? '-' : label(value)}`;
}

/** The agent an event is about, wherever its type keeps it. */
function eventAgent(payload: Record<string, unknown>): string | null {
  return (
    nonEmptyString(payload.agentId) ??
    nonEmptyString(plainObject(payload.run)?.agentId) ??
    nonEmptyString(plainObject(payload.entry)?.agentId) ??
    nonEmptyString(plainObject(payload.message)?.fromAgentId) ??
    nonEmptyString(plainObject(payload.fragment)?.sourceAgentId) ??
    nonEmptyString(plainObject(payload.task)?.assignee)
  );
}

/** The model an event names (a spawned teammate's), or null. */
export function eventModel(payload: Record<string, unknown>): string | null {
  return nonEmptyString(plainObject(payload.teammate)?.modelId);
}

/** The part of an event's text after its type: ids, statuses and its free text, by event type. */
export function eventSummary(type: string, payload: Record<string, unknown>): string {
  const run = plainObject(payload.run);
  const task = plainObject(payload.task);
  const outcome = plainObject(payload.outcome);
  const fragment = plainObject(payload.fragment);
  switch (type) {
    case 'task_start':
      return `${kv('agent', payload.agentId)} message=${free(payload.message)}`;
    case 'task_end': {
      const result = plainObject(payload.result);
      const messages = Array.isArray(payload.messages)
        ? payload.messages.length
        : Array.isArray(result?.messages)
          ? result.messages.length
          : null;
      return `${kv('agent', payload.agentId)} ${kv('finish', result?.finishReason)} ${kv('messages', messages)} error=${free(plainObject(payload.error)?.message)}`;
    }
    case 'agent_event':
      return `${kv('agent', payload.agentId)} ${kv('event', plainObject(payload.event)?.type)}`;
    case 'teammate_spawned': {
      const mate = plainObject(payload.teammate);
      return (
        `${kv('agent', payload.agentId)} ${kv('role', payload.role)} ${kv('model', mate?.modelId)}` +
        ` ${kv('max_iterations', mate?.maxIterations)} role_prompt=${free(mate?.rolePrompt)}`
      );
    }
    case 'teammate_shutdown':
      return `${kv('agent', payload.agentId)} reason=${free(payload.reason)}`;
    case 'team_task_updated':
    case 'team_task_completed':
      return (
        `${kv('task', task?.id)} ${kv('status', task?.status)} ${kv('assignee', task?.assignee)} ${kv('created_by', task?.createdBy)}` +
        ` title=${free(task?.title)} summary=${free(task?.summary)}`
      );
    case 'team_message': {
      const m = plainObject(payload.message);
      return (
        `${kv('from', m?.fromAgentId)} ${kv('to', m?.toAgentId)} ${kv('task', m?.taskId)} subject=${free(m?.subject)}` +
        ` body=${free(m?.body)}`
      );
    }
    case 'team_mission_log': {
      const e = plainObject(payload.entry);
      return `${kv('agent', e?.agentId)} ${kv('kind', e?.kind)} ${kv('task', e?.taskId)} summary=${free(e?.summary)} next=${free(e?.nextAction)}`;
    }
    case 'outcome_created':
    case 'outcome_finalized':
      return `${kv('outcome', outcome?.id)} ${kv('status', outcome?.status)} ${kv('created_by', outcome?.createdBy)} title=${free(outcome?.title)}`;
    case 'outcome_fragment_attached':
    case 'outcome_fragment_reviewed':
      return (
        `${kv('fragment', fragment?.id)} ${kv('outcome', fragment?.outcomeId)} ${kv('section', fragment?.section)}` +
        ` ${kv('agent', fragment?.sourceAgentId)} ${kv('status', fragment?.status)} ${kv('reviewed_by', fragment?.reviewedBy)}`
      );
    default:
      if (run) {
        return (
          `${kv('run', run.id)} ${kv('agent', run.agentId)} ${kv('task', run.taskId)} ${kv('status', run.status)}` +
          ` reason=${free(payload.reason)} error=${free(run.error)} message=${free(payload.message ?? run.message)}`
        );
      }
      return `${kv('agent', eventAgent(payload))} keys=${show(Object.keys(payload).slice(0, 20).join(','))}`;
  }
}
