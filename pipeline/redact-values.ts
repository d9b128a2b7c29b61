/**
 * Named values of pipeline/redact.ts read cheaply: where a value ends, and which kinds of character
 * it holds. In `password=password=...` every value overlaps the next one; a regex or a scan of each
 * value would read the text up to 512 times over. A ValueRuns remembers, for one text, the end of the
 * run of value characters it last read and, for each kind of character, where the next one is, so the
 * values of a text cost about one pass whatever their overlaps (their starts only grow).
 */

/** Longest named value, in characters. */
export const MAX_VALUE_CHARS = 512;

/** Which kinds of character a stretch holds. */
export interface Kinds {
  lower: boolean;
  upper: boolean;
  digit: boolean;
  /** `_`, `.` or `-`, which join words in names. */
  joiner: boolean;
  /** Any other character that is not a letter or digit. */
  other: boolean;
}

/** The kinds of a value's characters from offset `from` to its end. */
export type KindsOf = (from: number) => Kinds;

/** Kinds as numbers: lower, upper, digit, joiner, other. */
const LOWER = 0;
const UPPER = 1;
const DIGIT = 2;
const JOINER = 3;
const OTHER = 4;

function kindOf(code: number): number {
  if (code >= 97 && code <= 122) return LOWER;
  if (code >= 65 && code <= 90) return UPPER;
  if (code >= 48 && code <= 57) return DIGIT;
  if (code === 95 || code === 46 || code === 45) return JOINER;
  return OTHER;
}

/** Kinds by a plain scan of a string: for a single value. */
export function kindsOfString(value: string): KindsOf {
  return (from) => {
    const seen = [false, false, false, false, false];
    for (let i = from; i < value.length; i++) seen[kindOf(value.charCodeAt(i))] = true;
    return { lower: seen[LOWER], upper: seen[UPPER], digit: seen[DIGIT], joiner: seen[JOINER], other: seen[OTHER] };
  };
}

/** ASCII units that end a named value (CONTEXT_RE's value class, pipeline/redact-patterns.ts): 1 where one does. */
const ENDS_VALUE = new Uint8Array(128);
for (const c of ' \t\n\v\f\r"\'`,;()<>{}[]\\|') ENDS_VALUE[c.charCodeAt(0)] = 1;

/** Whether a UTF-16 unit can be part of a named value: not one of ENDS_VALUE, not a space of `\s`. */
function valueChar(code: number): boolean {
  if (code < 128) return ENDS_VALUE[code] === 0;
  return !(
    code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 ||
    code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff
  );
}

/** The value runs and character kinds of one text, read once. */
export class ValueRuns {
  private runFrom = 0;
  private runEnd = -1;
  /** Per kind: the next character of that kind at or after nextFrom[kind] is at nextAt[kind] (text length: none). */
  private readonly nextFrom = new Int32Array(5).fill(-1);
  private readonly nextAt = new Int32Array(5).fill(-1);

  constructor(private readonly text: string) {}

  /**
   * End (exclusive) of the value that starts at `start` and whose characters are known up to `known`:
   * value characters, and escape pairs (`escape` then `"` or `\`) for a value inside a JSON string
   * (`escape` is `\` inside one string, three backslashes inside a string in a string), at most
   * MAX_VALUE_CHARS characters.
   */
  valueEnd(start: number, known: number, escape: string | null): number {
    const limit = Math.min(this.text.length, start + MAX_VALUE_CHARS);
    let i = known;
    while (i < limit) {
      i = Math.min(this.endOfRun(i), limit);
      if (i >= limit || escape === null || !this.text.startsWith(escape, i)) break;
      const after = this.text.charAt(i + escape.length);
      if ((after !== '"' && after !== '\\') || i + escape.length + 1 > limit) break;
      i += escape.length + 1;
    }
    return i;
  }

  /** The kinds of the text's characters in [start + from, end), for the value [start, end). */
  kinds(start: number, end: number): KindsOf {
    return (from) => {
      const i = start + from;
      return {
        lower: this.nextOf(LOWER, i) < end,
        upper: this.nextOf(UPPER, i) < end,
        digit: this.nextOf(DIGIT, i) < end,
        joiner: this.nextOf(JOINER, i) < end,
        other: this.nextOf(OTHER, i) < end,
      };
    };
  }

  private endOfRun(i: number): number {
    if (i >= this.runFrom && i < this.runEnd) return this.runEnd;
    let j = i;
    while (j < this.text.length && valueChar(this.text.charCodeAt(j))) j++;
    this.runFrom = i;
    this.runEnd = j;
    return j;
  }

  /** Offset of the first character of `kind` at or after `i`. */
  private nextOf(kind: number, i: number): number {
    if (this.nextFrom[kind] !== -1 && this.nextFrom[kind] <= i && i <= this.nextAt[kind]) return this.nextAt[kind];
    let j = i;
    while (j < this.text.length && kindOf(this.text.charCodeAt(j)) !== kind) j++;
    this.nextFrom[kind] = i;
    this.nextAt[kind] = j;
    return j;
  }
}
