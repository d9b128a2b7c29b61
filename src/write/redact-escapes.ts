/**
 * Escapes that hide a token from the scans of write/redact.ts: JSON and JavaScript `\uXXXX`
 * (`sk\u002dant-...`, `\u0073k-ant-...`) and JSON's escaped slash (`https:\/\/hooks.slack.com\/...`),
 * at any escaping depth (`sk\\u002dant` in a JSON string held in a JSON string). decodeEscapes gives
 * the text with those escapes decoded and what is needed to map a span of it back to the original.
 * One linear pass, and only for a text that holds such an escape.
 */

/** A text with its escapes decoded. */
export interface Decoded {
  text: string;
  /** Offset in the decoded text of the character each escape became, ascending. */
  at: Int32Array;
  /** Offset in the original text just after each escape. */
  after: Int32Array;
}

/** Holds an escape that decodeEscapes decodes (or `\\u` without 4 hex digits, which it passes over). */
const MAY_HOLD_ESCAPE = /\\[u/]/g;
/** Runs between escapes up to this length are copied unit by unit; longer ones are sliced. */
const SHORT_RUN = 64;
/** Units of decoded text gathered before they become a string. */
const CHUNK_UNITS = 8192;

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/**
 * The text with every escape decoded, or null when it holds none (the common case, found by indexOf
 * and one regex test). An escape is a run of 1 to 8 backslashes, then `uXXXX` (4 hex digits) or `/`;
 * it becomes one UTF-16 unit, so a lone surrogate stays one unit and the map stays exact.
 */
export function decodeEscapes(text: string): Decoded | null {
  // most texts hold no backslash at all, which indexOf finds fastest
  const first = text.indexOf('\\');
  if (first === -1) return null;
  MAY_HOLD_ESCAPE.lastIndex = first;
  if (!MAY_HOLD_ESCAPE.test(text)) return null;
  const n = text.length;
  const parts: string[] = [];
  let at: Int32Array = new Int32Array(256);
  let after: Int32Array = new Int32Array(256);
  let count = 0;
  const units = new Uint16Array(CHUNK_UNITS);
  let u = 0;
  const flush = () => {
    if (u > 0) parts.push(String.fromCharCode.apply(null, units.subarray(0, u) as unknown as number[]));
    u = 0;
  };
  let last = 0; // end of the last escape in the text
  let length = 0; // decoded length so far
  for (let i = first; i !== -1; ) {
    let j = i + 1;
    while (j < n && j - i < 8 && text.charCodeAt(j) === 92) j++;
    const c = text.charCodeAt(j);
    let end = -1;
    let unit = 0;
    if (c === 47) {
      end = j + 1;
      unit = 47;
    } else if (c === 117 && j + 4 < n) {
      const h1 = hexValue(text.charCodeAt(j + 1));
      const h2 = hexValue(text.charCodeAt(j + 2));
      const h3 = hexValue(text.charCodeAt(j + 3));
      const h4 = hexValue(text.charCodeAt(j + 4));
      if ((h1 | h2 | h3 | h4) >= 0) {
        end = j + 5;
        unit = (h1 << 12) | (h2 << 8) | (h3 << 4) | h4;
      }
    }
    if (end === -1) {
      i = text.indexOf('\\', j);
      continue;
    }
    const run = i - last;
    if (run > SHORT_RUN || u + run + 1 > CHUNK_UNITS) {
      flush();
      if (run > 0) parts.push(text.slice(last, i));
    } else for (let p = last; p < i; p++) units[u++] = text.charCodeAt(p);
    length += run;
    if (count === at.length) {
      at = grow(at);
      after = grow(after);
    }
    at[count] = length;
    after[count] = end;
    count += 1;
    units[u++] = unit;
    length += 1;
    last = end;
    i = text.indexOf('\\', end);
  }
  if (count === 0) return null;
  flush();
  parts.push(text.slice(last));
  return { text: parts.join(''), at: at.subarray(0, count), after: after.subarray(0, count) };
}

function grow(a: Int32Array): Int32Array {
  const bigger = new Int32Array(a.length * 2);
  bigger.set(a);
  return bigger;
}

/** The offset in the original text of a decoded offset (a span's start, or its end, exclusive). */
export function originalOffset(decoded: Decoded, pos: number): number {
  // the last escape decoded before pos
  let lo = 0;
  let hi = decoded.at.length - 1;
  let k = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (decoded.at[mid] < pos) {
      k = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return k < 0 ? pos : decoded.after[k] + (pos - decoded.at[k] - 1);
}
