/**
 * readers/shapes/user-input.ts: what the 3.x CLI stores as a user message. The reminder text is the one
 * @cline/agents' `getCompletionToolReminderMessage` writes (cline 3.0.65), as a user message with
 * metadata `{ userRunSpan: 0 }`.
 */
import { describe, expect, it } from 'vitest';
import { userTextFields } from '../../../src/readers/shapes/user-input.js';

const REMINDER =
  '[SYSTEM] This run is not complete until you call one of these terminal completion tools: submit_and_exit. Continue working if requirements are not met. If the task is complete, call the appropriate terminal completion tool now.';

describe('userTextFields', () => {
  const text = (t: string) => ({ turn_type: 'user' as const, kind: 'text', text: t });

  it('unwraps a prompt and keeps its mode', () => {
    expect(userTextFields(text('<user_input mode="plan">add a test</user_input>'), null)).toEqual({
      turn_type: 'user',
      kind: 'text',
      text: 'add a test',
      permission_mode: 'plan',
    });
  });

  it("reads the CLI's run reminder as a system row, by its text or by its display role", () => {
    expect(userTextFields(text(REMINDER), { userRunSpan: 0 }).turn_type).toBe('system');
    expect(userTextFields(text('Keep going.'), { displayRole: 'system' }).turn_type).toBe('system');
  });

  it('leaves anything else as found: a bare prompt, a prompt that quotes a wrapper, a tool result', () => {
    for (const t of ['add a test', 'see <user_input mode="act">x</user_input> above']) {
      expect(userTextFields(text(t), null)).toEqual(text(t));
    }
    const result = { turn_type: 'tool_result' as const, kind: 'tool_result', text: REMINDER };
    expect(userTextFields(result, null)).toEqual(result);
  });
});
