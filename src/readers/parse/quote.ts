/**
 * Cutting untrusted text without keeping part of a secret. Rows are redacted whole before they are
 * written (write/redact-row.ts), but a detector only sees a whole token: the first 77 characters of
 * a bad line that start a 108-character key, or the last 10 that V8's JSON.parse quotes, are part of a
 * key that no detector matches. So every cut of untrusted text ends at a token boundary: the quote
 * goes back to the last character that cannot be part of a token, and quotes nothing when there is none.
 */

/** Characters that cannot be part of a token or a named value: spaces, quotes, brackets and separators. */
const BOUNDARY = /[\s"'`,;()<>{}[\]|]/;

/** Whether text[i] ends a token; an escaped quote (`\"`) is part of a value, not its end. */
function isBoundary(text: string, i: number): boolean {
  const c = text.charAt(i);
  if (!BOUNDARY.test(c)) return false;
  return !((c === '"' || c === "'") && text.charAt(i - 1) === '\\');
}

/**
 * The longest start of `text` of at most `max` characters that ends at a token boundary: it ends with a
 * boundary character, or the character after it is one. '' when the first `max` characters hold none.
 * The search goes back at most `maxBack` characters (no token is longer than 64 Ki characters); past
 * that the cut is at `max`.
 */
export function cutAtBoundary(text: string, max: number, maxBack = max): string {
  if (text.length <= max) return text;
  if (isBoundary(text, max)) return text.slice(0, max);
  const stop = Math.max(-1, max - 1 - maxBack);
  for (let i = max - 1; i > stop; i--) if (isBoundary(text, i)) return text.slice(0, i + 1);
  return stop === -1 ? '' : text.slice(0, max);
}

/** `text` as it is when it has at most `max` characters, else its start cut at a token boundary and `...`. */
export function shortenAtTokenBoundary(text: string, max: number): string {
  return text.length <= max ? text : `${cutAtBoundary(text, max)}...`;
}

/**
 * A quote of an untrusted text in a `parser:` row: `"<text>"`, or, when it is longer than `max`,
 * `"<start cut at a token boundary>..." (<length> characters)`.
 */
export function quoteText(text: string, max: number): string {
  return text.length <= max ? `"${text}"` : `"${cutAtBoundary(text, max)}..." (${text.length} characters)`;
}

/**
 * V8's JSON.parse message with its quote of the text cut at token boundaries. V8 quotes about 10
 * characters on each side of an unexpected token (`Unexpected token 'x', ..."ab", x"... is not valid
 * JSON`); where the quote is cut (`...`), the characters up to the first or after the last boundary
 * may be part of a token and are dropped.
 */
export function safeJsonMessage(message: string): string {
  const m = /(Unexpected token '[\s\S]{1,2}', )(\.\.\.)?"([\s\S]*)"(\.\.\.)?( is not valid JSON)/.exec(message);
  if (m === null) return message;
  let quoted = m[3];
  if (m[2] !== undefined) {
    let i = 0;
    while (i < quoted.length && !isBoundary(quoted, i)) i++;
    quoted = quoted.slice(i);
  }
  if (m[4] !== undefined) {
    let i = quoted.length;
    while (i > 0 && !isBoundary(quoted, i - 1)) i--;
    quoted = quoted.slice(0, i);
  }
  const rebuilt = `${m[1]}${m[2] ?? ''}"${quoted}"${m[4] ?? ''}${m[5]}`;
  return message.slice(0, m.index) + rebuilt + message.slice(m.index + m[0].length);
}
