/**
 * Named values of write/redact.ts read cheaply: where a value ends, and which kinds of character
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

/** The characters of each kind, by kind number. */
const KIND_RES = [/[a-z]/g, /[A-Z]/g, /[0-9]/g, /[_.-]/g, /[^A-Za-z0-9_.-]/g];

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

/** The characters that end a named value: those outside CONTEXT_RE's value class (write/redact-patterns.ts). */
const ENDS_VALUE = /[\s"'`,;()<>{}[\]\\|]/g;

/** The value runs and character kinds of one text, read once. */
export class ValueRuns {
  private runFrom = 0;
  private runEnd = -1;
  /** Per kind: the first character of kind k at or after nextFrom[k] is at nextAt[k] (text length: none). */
  private readonly nextFrom = new Int32Array(5).fill(-1);
  private readonly nextAt = new Int32Array(5).fill(-1);

  constructor(private readonly text: string) {}

  /**
   * End (exclusive) of the value that starts at `start` and whose characters are known up to `known`:
   * value characters, and escape pairs (`escapeSeq` then `"` or `\`) for a value inside a JSON string
   * (`escapeSeq` is `\` inside one string, three backslashes inside a string in a string), at most
   * MAX_VALUE_CHARS characters.
   */
  valueEnd(start: number, known: number, escapeSeq: string | null): number {
    const limit = Math.min(this.text.length, start + MAX_VALUE_CHARS);
    let i = known;
    while (i < limit) {
      i = Math.min(this.endOfRun(i), limit);
      if (i >= limit || escapeSeq === null || !this.text.startsWith(escapeSeq, i)) break;
      const after = this.text.charAt(i + escapeSeq.length);
      if ((after !== '"' && after !== '\\') || i + escapeSeq.length + 1 > limit) break;
      i += escapeSeq.length + 1;
    }
    return i;
  }

  /** The kinds of the text's characters in [start + from, end), for the value [start, end). */
  kinds(start: number, end: number): KindsOf {
    return (from) => {
      const i = start + from;
      return {
        lower: this.has(LOWER, i, end),
        upper: this.has(UPPER, i, end),
        digit: this.has(DIGIT, i, end),
        joiner: this.has(JOINER, i, end),
        other: this.has(OTHER, i, end),
      };
    };
  }

  private endOfRun(i: number): number {
    if (i >= this.runFrom && i < this.runEnd) return this.runEnd;
    ENDS_VALUE.lastIndex = i;
    const m = ENDS_VALUE.exec(this.text);
    this.runFrom = i;
    this.runEnd = m === null ? this.text.length : m.index;
    return this.runEnd;
  }

  /**
   * Whether [i, end) holds a character of `kind`. Where the next one is stays known until a query
   * starts past it; the search is a native regex scan, so a kind the text lacks costs one scan.
   */
  private has(kind: number, i: number, end: number): boolean {
    if (!(this.nextFrom[kind] !== -1 && this.nextFrom[kind] <= i && i <= this.nextAt[kind])) {
      const re = KIND_RES[kind];
      re.lastIndex = i;
      const m = re.exec(this.text);
      this.nextFrom[kind] = i;
      this.nextAt[kind] = m === null ? this.text.length : m.index;
    }
    return this.nextAt[kind] < end;
  }
}
