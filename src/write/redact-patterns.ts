/**
 * The patterns of secret redaction (write/redact.ts runs them): the self-identifying tokens, the
 * context regex of named values, and the judgement of a named value (secret, code or placeholder).
 * Every quantifier is bounded and every alternative starts with a literal, so a scan stays linear on
 * MB-sized hostile texts (repeated prefixes, PEM headers, `password=` runs).
 */

import { kindsOfString, type KindsOf } from './redact-values.js';

const hasLower = (s: string) => /[a-z]/.test(s);
const hasUpper = (s: string) => /[A-Z]/.test(s);
export const hasDigit = (s: string) => /[0-9]/.test(s);
export const hasLetter = (s: string) => /[A-Za-z]/.test(s);
/** Looks random: digits and letters of both cases (real keys are; identifiers and prose are not). */
const mixed = (s: string) => hasLower(s) && hasUpper(s) && hasDigit(s);

export interface Detector {
  kind: string;
  /** Source of the pattern; no capture groups inside (they are numbered by position). */
  pattern: string;
  /** Rejects a match that has the shape but not the randomness of a key. */
  valid?: (match: string) => boolean;
}

/** No letter, digit, `_` or `-` right before a token: `task-...` does not hold an `sk-` key. */
const L = '(?<![A-Za-z0-9_\\-])';
/** No token character right after (the token is whole). */
const R = '(?![A-Za-z0-9_\\-])';
/** A line end inside a cut PEM block: CR LF or LF, raw or JSON-escaped once or twice (`\n`, `\\r\\n`, ...). */
const PEM_EOL = '(?:\\r?\\n|(?:\\\\{1,3}r)?\\\\{1,3}n)';

/** Pass 1: tokens that say what they are. Order matters where prefixes overlap (sk-ant-, sk-or- before sk-). */
export const TOKEN_DETECTORS: Detector[] = [
  { kind: 'anthropic', pattern: `${L}sk-ant-[a-z]{2,8}[0-9]{0,4}-[A-Za-z0-9_\\-]{32,200}${R}` },
  { kind: 'openrouter', pattern: `${L}sk-or-(?:v[0-9]{1,2}-)?[A-Za-z0-9]{32,128}${R}` },
  { kind: 'openai', pattern: `${L}sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_\\-]{20,250}${R}`, valid: mixed },
  { kind: 'google', pattern: `${L}AIza[0-9A-Za-z_\\-]{35}${R}` },
  { kind: 'google', pattern: `${L}ya29\\.[0-9A-Za-z_\\-]{30,2048}${R}` },
  {
    kind: 'aws_access_key_id',
    pattern: `(?<![A-Za-z0-9/+])(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z2-7]{16}(?![A-Za-z0-9/+=])`,
  },
  { kind: 'github', pattern: `${L}gh[pousr]_[A-Za-z0-9]{36,251}${R}` },
  { kind: 'github', pattern: `${L}github_pat_[A-Za-z0-9_]{22,255}${R}` },
  {
    kind: 'gitlab',
    pattern: `${L}gl(?:pat|dt|rt|ptt|cbt|oas|soat|ft|imt|agent)-[A-Za-z0-9_\\-]{20,64}(?:\\.[A-Za-z0-9_\\-]{1,32}){0,3}${R}`,
  },
  { kind: 'slack', pattern: `${L}xox[abposre]-[0-9A-Za-z\\-]{10,250}${R}`, valid: hasDigit },
  { kind: 'slack', pattern: `${L}xapp-[0-9]-[0-9A-Za-z\\-]{10,250}${R}` },
  { kind: 'slack', pattern: `https://hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/\\-]{20,200}` },
  { kind: 'stripe', pattern: `${L}(?:sk|rk)_live_[A-Za-z0-9]{20,250}${R}` },
  {
    kind: 'jwt',
    pattern: `(?<![A-Za-z0-9_\\-+/])eyJ[A-Za-z0-9_\\-]{5,4096}\\.eyJ[A-Za-z0-9_\\-]{5,16384}\\.[A-Za-z0-9_\\-]{0,4096}${R}`,
  },
  {
    kind: 'private_key',
    // a whole block, or a cut one: the header and the base64 lines that follow it. The body never holds
    // `-----`, so the scan for END stops at the next dashes and a text of repeated headers stays linear.
    // A base64 line never holds `\`, so an escaped line end is never read as part of a line.
    pattern:
      '-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----' +
      `(?:(?:(?!-----)[\\s\\S]){0,32768}-----END[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----|(?:${PEM_EOL}[A-Za-z0-9+/=]{16,100}){1,600})`,
  },
];

export const TOKEN_RE = new RegExp(TOKEN_DETECTORS.map((d) => `(${d.pattern})`).join('|'), 'g');

/**
 * Pass 2: values named by their context. The key name must end with a secret word (so `max_tokens`,
 * `tokenizer`, `secret_santa` do not count).
 */
const SECRET_WORDS = [
  'api[_\\-]?key',
  'secret[_\\-]?access[_\\-]?key',
  'secret[_\\-]?key',
  'private[_\\-]?key',
  'access[_\\-]?key',
  'secret',
  'token',
  'password',
  'passwd',
  'passphrase',
];
/** A character of a named value: no quote, space, bracket, backslash or separator. */
const VC = '[^\\s"\'`,;()<>{}\\[\\]\\\\|]';
/**
 * Groups: 1 bearer token; 2 key name; then the first 8 characters of the value (the least a value has):
 * 3 inside a JSON string (`"..."`, where `\"` and `\\` are characters of the value), 4 inside a JSON
 * string held in a JSON string (`\"...\"`, where `\\\"` and `\\\\` are), 5 bare or in other quotes.
 * The value goes on in ValueRuns.valueEnd (write/redact-values.ts): a regex that took up to 512
 * characters at every name would read `password=password=...` 512 times over.
 */
export const CONTEXT_RE = new RegExp(
  [
    `\\b[Bb]earer[ \\t]{1,8}([A-Za-z0-9._~+/\\-]{16,4096}=*)(?![A-Za-z0-9._~+/=\\-])`,
    `(${SECRET_WORDS.join('|')})\\\\?["']?[ \\t]{0,8}(?::=|=(?![=>])|:(?![:=]))[ \\t]{0,8}` +
      `(?:"((?:${VC}|\\\\["\\\\]){8})|\\\\"((?:${VC}|\\\\{3}["\\\\]){8})|\\\\?['\`]?(${VC}{8}))`,
  ].join('|'),
  'gi',
);

/** The value of group 3 or 4 of CONTEXT_RE with its JSON escapes of quotes and backslashes removed. */
export function unescapeValue(value: string, level: 0 | 1): string {
  return level === 0 ? value.replace(/\\(["\\])/g, '$1') : value.replace(/\\{3}(["\\])/g, '$1');
}

/** Templates and masks: never a secret, whatever follows (`${API_KEY}`, `%s`, `*****`, `<token>`, `xxx...`). */
const TEMPLATE = /^(?:\$|%|\*|<|x{3})/i;
/** Words that name or stand for a secret; a value that starts with one is a placeholder unless the rest looks random. */
const PLACEHOLDER_WORD =
  /^(?:your|my[_-]|example|sample|changeme|change[_-]me|placeholder|dummy|redacted|none|null|undefined|true|false|secret|password|token|api[_-]?key|test)/i;

/**
 * A value that names or stands for a secret: a template or mask, or a placeholder word followed by
 * nothing random. The rest after the word looks random when it holds a digit and either a symbol or
 * letters of both cases: `Password3754!`, `Testing66337#Q` and `SecretQU8eqT$` are secrets, while
 * `your-api-key-here`, `YOUR_API_KEY_1`, `password123` and `test_key_2` are not.
 */
export function isPlaceholder(value: string, kinds: KindsOf = kindsOfString(value)): boolean {
  if (TEMPLATE.test(value)) return true;
  const word = PLACEHOLDER_WORD.exec(value);
  if (!word) return false;
  const rest = kinds(word[0].length);
  return !(rest.digit && (rest.other || (rest.lower && rest.upper)));
}

/**
 * An assignment value that is a secret, not code or a placeholder (`this.apiKey`, `getToken()`,
 * `Optional[str]`, `your-key-here`). `next` is the character after it; `kinds` says which kinds of
 * character it holds (write/redact-values.ts keeps that cheap when values overlap).
 */
export function secretValue(value: string, next: string, kinds: KindsOf = kindsOfString(value)): boolean {
  if (next === '(' || next === '[' || next === '.') return false;
  const all = kinds(0); // before isPlaceholder's kinds of the rest: ValueRuns reads best from left to right
  if (isPlaceholder(value, kinds)) return false;
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value)) return false; // dotted identifier: options.apiKey
  if (/^[A-Za-z_]+$/.test(value)) return false; // a word, an identifier or a type name
  if (/^[0-9]+$/.test(value)) return false; // a count
  if (/^(.)\1+$/.test(value)) return false;
  if (/^(?:https?:\/\/|\/|~|\.\.?\/|[A-Za-z]:[\\/]|\\)/.test(value)) return false; // a URL or a path (POSIX, Windows, UNC)
  const classes = Number(all.lower) + Number(all.upper) + Number(all.digit) + Number(all.joiner || all.other);
  return classes >= 2;
}

/**
 * An AWS secret access key next to its name: 40 base64 characters mixing at least three of lower case,
 * upper case, digits and `/+`. It may start with `/` or `+`, which the path rule of secretValue would refuse.
 */
export function awsSecretKey(name: string, value: string): boolean {
  if (!/secret[_-]?access[_-]?key/i.test(name) || !/^[A-Za-z0-9/+]{40}$/.test(value)) return false;
  const all = kindsOfString(value)(0);
  return Number(all.lower) + Number(all.upper) + Number(all.digit) + Number(all.other) >= 3;
}
