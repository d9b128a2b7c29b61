/**
 * Base64 payloads that a reader never keeps, cut out of a batch of JSON elements before `JSON.parse`
 * turns them into strings. A Cline transcript is mostly such bytes: the data URLs of the images a user
 * attached (`images`), the screenshot inside a browser result's text, the `data` of image content
 * blocks. The readers keep only that they were there (`[1 image(s)]`), so decoding, parsing and
 * collecting them is wasted work (half the bytes of the bench's transcripts).
 *
 * Each payload of at least MIN_RUN base64 characters is replaced by one ELIDED character (U+FFFF, a
 * noncharacter), which stays valid JSON at any depth of quoting (an embedded JSON text included). A
 * reader whose row still holds ELIDED used the payload itself (a data URL pasted into a prompt, a text
 * that was not the JSON it looked like): it reads that element again from the original bytes
 * (`ArraySplitter` hands them along), so a row never differs from what the full parse gives. A payload
 * cut by a text limit is cut after its first character, ELIDED, so a cut row holds it too.
 *
 * Two places hold such payloads, found with `indexOf`, never by decoding:
 * - after `;base64,` (a data URL, at any depth of quoting; outside strings `;` cannot occur in JSON);
 * - the string value of a `"data"` key (`"data":"` or `"data": "`; an unescaped quote before `data`
 *   can only open a key), cut only when no backslash comes before its closing quote.
 * A payload is a run of base64 characters up to the next quote or backslash (payloadEnd).
 */

/** The character that stands for an elided payload. */
export const ELIDED = '\uffff';
const ELIDED_BYTES = Buffer.from(ELIDED, 'utf8');

/** Shorter runs are left as they are: cutting them saves less than it costs. */
export const MIN_RUN = 1024;

const DATA_URL = Buffer.from(';base64,', 'latin1');
const DATA_KEY = Buffer.from('"data":', 'latin1');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SPACE = 0x20;

/** A byte that is not a base64 character, in a latin1 view of the bytes. */
const NOT_BASE64 = /[^A-Za-z0-9+/=]/;

/**
 * End of the base64 payload starting at `from`: the next quote or backslash, found by native search,
 * when every byte before it is a base64 character (tested by a regex over a latin1 view, several times
 * faster than a loop over the bytes); else -1, and nothing is cut: a payload followed by more text, or
 * with a byte JSON does not allow raw (a line break), stays for JSON.parse to see as written.
 */
function payloadEnd(buf: Buffer, from: number): number {
  const quote = buf.indexOf(QUOTE, from);
  const end = quote === -1 ? buf.length : quote;
  const backslash = buf.subarray(from, end).indexOf(BACKSLASH);
  const stop = backslash === -1 ? end : from + backslash;
  if (stop - from < MIN_RUN || NOT_BASE64.test(buf.toString('latin1', from, stop))) return -1;
  return stop;
}

/** [start, end) of every payload to cut, in order, not overlapping. */
function payloads(buf: Buffer): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  for (let i = buf.indexOf(DATA_URL); i !== -1; ) {
    const start = i + DATA_URL.length;
    const end = payloadEnd(buf, start);
    if (end - start >= MIN_RUN) found.push([start, end]);
    i = buf.indexOf(DATA_URL, Math.max(end, start));
  }
  for (let i = buf.indexOf(DATA_KEY); i !== -1; ) {
    let start = i + DATA_KEY.length;
    if (buf[start] === SPACE) start += 1;
    let end = -1;
    if (buf[start] === QUOTE) {
      start += 1;
      end = payloadEnd(buf, start);
      if (end - start >= MIN_RUN && buf[end] === QUOTE) found.push([start, end]);
    }
    i = buf.indexOf(DATA_KEY, Math.max(end, start));
  }
  return found.sort((a, b) => a[0] - b[0]);
}

/** `buf` with its base64 payloads replaced by ELIDED, or null when it has none. */
export function elideBase64(buf: Buffer): Buffer | null {
  const cuts = payloads(buf);
  if (cuts.length === 0) return null;
  const pieces: Buffer[] = [];
  let last = 0;
  for (const [start, end] of cuts) {
    pieces.push(buf.subarray(last, start), ELIDED_BYTES);
    last = end;
  }
  pieces.push(buf.subarray(last));
  return Buffer.concat(pieces);
}

/** Whether any string field of `fields` holds an elided payload: the row must be built from the original. */
export function holdsElided(fields: object): boolean {
  for (const value of Object.values(fields)) if (typeof value === 'string' && value.includes(ELIDED)) return true;
  return false;
}
