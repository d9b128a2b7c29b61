/**
 * Text from evidence (host names, file and member names, messages that quote them) made safe to print on
 * a terminal. A name in a collected image is chosen by whoever controlled that machine: printed raw, an
 * ESC or C1 sequence in it clears the analyst's screen, retitles the terminal or rewrites the line, a
 * bare line break forges a line of its own, a bidi override reverses what follows. One definition for
 * every line clinetrail prints: `query`'s table cells (cli/format.ts), the load's progress and summary
 * lines (load/progress.ts) and the `clinetrail:` error lines (cli/commands.ts); the report's HTML shows
 * control characters the same way (report/html.ts).
 */

/**
 * What a terminal acts on rather than shows: C0 and C1 controls and DEL (`\p{Cc}`), the line and
 * paragraph separators, and the bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069).
 */
const TERMINAL_UNSAFE = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/** Breaks of a line: shown as one space, so a name cannot start a line of its own. */
const LINE_BREAKS = /[\r\n\t\u2028\u2029]+/g;

/** How one such character is shown: a C0 control or DEL as its Control Picture (ESC as `␛`), any other as `?`. */
export function controlPicture(c: string): string {
  const code = c.charCodeAt(0);
  return code < 0x20 ? String.fromCodePoint(0x2400 + code) : code === 0x7f ? '\u2421' : '?';
}

/** The text as one printable line: line breaks and tabs as a space, every other such character as its `controlPicture`. */
export function printable(text: string): string {
  return text.replace(LINE_BREAKS, ' ').replace(TERMINAL_UNSAFE, controlPicture);
}

/**
 * `JSON.stringify(value)` with every character a terminal acts on written as a `\uXXXX` escape: the same
 * JSON (a parser reads the names back exactly), but no raw C1, DEL or bidi control on the line.
 * JSON.stringify escapes the C0 controls itself; outside strings its output is printable ASCII.
 */
export function terminalSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(TERMINAL_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
