/**
 * Quotes and cuts of untrusted text (readers/parse/quote.ts, and its users quoteLine, parserRow and capText):
 * a cut never ends inside a token, so no start or end of a key survives where no detector would see it.
 */
import { describe, expect, it } from 'vitest';
import { quoteLine } from '../../../src/readers/parse/lines.js';
import { shortenAtTokenBoundary, safeJsonMessage } from '../../../src/readers/parse/quote.js';
import { capText, MAX_TEXT_CHARS, parserRow } from '../../../src/readers/common/rows.js';
import { redact } from '../../../src/write/redact.js';
import { FAKE } from '../../helpers/fake-secrets.js';
import { makeSource } from '../../helpers/source.js';

/** The V8 message of JSON.parse on `text`. */
function parseError(text: string): string {
  try {
    JSON.parse(text);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('parsed');
}

const source = makeSource({ store: 'hooks-log', imageRoot: '/img', root: '/img/home/u/.cline/data', files: [] });

describe('quoteLine', () => {
  it('quotes a short line whole, so the row redaction sees its keys whole', () => {
    expect(quoteLine(`x ${FAKE.github}`)).toBe(`"x ${FAKE.github}"`);
    expect(redact(quoteLine(`x ${FAKE.github}`)).hits.map((h) => h.kind)).toEqual(['github']);
  });

  it('quotes nothing but the length of a line that starts with a long key', () => {
    const line = `${FAKE.jwt} was pasted`;
    expect(quoteLine(line)).toBe(`"..." (${line.length} characters)`);
  });

  it('cuts a line back to the character before a key that crosses character 77', () => {
    const line = `${'a'.repeat(40)} ${FAKE.anthropic} tail`;
    expect(quoteLine(line)).toBe(`"${'a'.repeat(40)} ..." (${line.length} characters)`);
    expect(quoteLine(line)).not.toContain('sk-ant');
  });

  it('keeps 77 characters when the 78th ends a token, and an escaped quote inside a value is not a boundary', () => {
    const whole = `${'b'.repeat(76)}c d`;
    expect(quoteLine(whole)).toBe(`"${'b'.repeat(76)}c..." (${whole.length} characters)`);
    const escaped = `{"password": "ab\\"${'Q'.repeat(80)}"}`;
    expect(quoteLine(escaped)).toBe(`"{"password": "..." (${escaped.length} characters)`);
  });
});

describe('parserRow', () => {
  it('cuts a problem longer than 300 characters at a token boundary', () => {
    const problem = `Unexpected STRING ("${'w '.repeat(135)}${FAKE.anthropic}") in state VALUE`;
    const row = parserRow(source, '/img/home/u/.cline/data/logs/hooks.jsonl', 3, problem);
    expect(row.text).toBe(`parser: home/u/.cline/data/logs/hooks.jsonl line 3: Unexpected STRING ("${'w '.repeat(135)}...`);
  });

  it("drops the part of a key that V8's JSON.parse message quotes, before or after the fault", () => {
    const after = parseError(`{"a": 1, "model": ${FAKE.github}}`);
    expect(after).toContain(FAKE.github.slice(0, 10)); // what V8 prints
    const before = parseError(`["${FAKE.github}", x]`);
    expect(before).toContain(FAKE.github.slice(-7));
    const file = '/img/home/u/.cline/data/settings/global-settings.json';
    expect(parserRow(source, file, null, after).text).toBe(
      `parser: home/u/.cline/data/settings/global-settings.json: Unexpected token 'g', ..." "model": "... is not valid JSON`,
    );
    expect(parserRow(source, file, null, before).text).toBe(
      `parser: home/u/.cline/data/settings/global-settings.json: Unexpected token 'x', ..."", x]" is not valid JSON`,
    );
  });

  it('keeps a V8 message that quotes the whole text, and messages without a quote, as they are', () => {
    expect(safeJsonMessage(parseError('short x'))).toBe(parseError('short x'));
    expect(safeJsonMessage(parseError('{"a": 1} x'))).toBe('Unexpected non-whitespace character after JSON at position 9');
  });
});

describe('shortenAtTokenBoundary and capText', () => {
  it('shortenAtTokenBoundary ends at a token boundary and marks the cut', () => {
    expect(shortenAtTokenBoundary(`{"k":"${FAKE.openai}"}`, 77)).toBe('{"k":"...');
    expect(shortenAtTokenBoundary('short', 77)).toBe('short');
  });

  it('capText cuts a text longer than the row limit before a key that crosses it', () => {
    const text = `${'p '.repeat((MAX_TEXT_CHARS - 20) / 2)}${FAKE.jwt} end`;
    const capped = capText(text)!;
    expect(capped.endsWith(` [cut: ${text.length} characters in all]`)).toBe(true);
    expect(capped).not.toContain('eyJ');
  });
});
