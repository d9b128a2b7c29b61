/**
 * What the 3.x CLI (@cline/sdk) stores as a user message: a prompt as `<user_input mode="act|plan">…</user_input>`
 * (the manifest's `prompt` and the input history keep the bare text), and its own run reminders
 * (`[SYSTEM] This run is not complete until you call …`, agents' `addUserReminderMessage`, metadata
 * `{ userRunSpan: 0 }` or `displayRole: "system"`) as user messages too. Shared by the transcript and the
 * search-index readers, so a prompt reads the same from both.
 */
import type { RowFields } from '../../core/row.js';
import { plainObject } from '../common/values.js';

const USER_INPUT = /^<user_input mode="([a-z]+)">([\s\S]*)<\/user_input>\s*$/;
const SYSTEM_REMINDER = '[SYSTEM] ';

/** The prompt as typed and the mode of its wrapper, or null when `text` is not exactly one wrapper. */
export function userInputOf(text: string): { text: string; mode: string } | null {
  const m = USER_INPUT.exec(text);
  return m ? { text: m[2], mode: m[1] } : null;
}

/** Whether a user message is Cline's own reminder rather than something the user typed. */
export function isRunReminder(text: string, metadata: unknown): boolean {
  const meta = plainObject(metadata);
  if (meta?.displayRole === 'system') return true;
  return text.startsWith(SYSTEM_REMINDER);
}

/**
 * The fields of a user text block: the prompt unwrapped with its mode as permission_mode; a run reminder
 * as a `system` row; anything else as found.
 */
export function userTextFields(fields: RowFields, metadata: unknown): RowFields {
  if (fields.kind !== 'text' || typeof fields.text !== 'string') return fields;
  const prompt = userInputOf(fields.text);
  if (prompt) return { ...fields, text: prompt.text, permission_mode: prompt.mode };
  return isRunReminder(fields.text, metadata) ? { ...fields, turn_type: 'system' } : fields;
}
