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
const count = (s: string, re: RegExp) => (s.match(re) ?? []).length;
/**
 * A token of letters and digits that looks random: `mixed`, or, for a token of letters only (Hugging
 * Face's), 8 or more of each case with capitals side by side at least twice, which a camel-case name
 * (`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`) does not have.
 */
const randomAlnum = (s: string) =>
  mixed(s) || (count(s, /[A-Z]/g) >= 8 && count(s, /[a-z]/g) >= 8 && count(s, /[A-Z](?=[A-Z])/g) >= 2);
/** `sk-` keys: `mixed` (OpenAI, Moonshot), or 32 or more hex digits with letters and digits (DeepSeek, Qwen). */
const openaiLike = (s: string) => mixed(s) || (/^sk-[0-9a-f]{32,}$/.test(s) && hasDigit(s.slice(3)) && /[a-f]/.test(s.slice(3)));

export interface Detector {
  kind: string;
  /**
   * Source of the pattern, which starts with a letter; no capture groups inside (they are numbered by
   * position). No letter or digit may come right before it (`first`), unless `anywhere`.
   */
  pattern: string;
  /** Rejects a match that has the shape but not the randomness of a key. */
  valid?: (match: string) => boolean;
  /** Found after any character (a PEM header, which starts with dashes). */
  anywhere?: boolean;
}

/**
 * The first letter of a token with no letter or digit right before it: `task-...` does not hold an
 * `sk-` key. A joiner may be: `mytoken-ghp_...`, `MYTOKEN_ghp_...`, `key.sk-...`, `keys/ghp_...` (a
 * token glued to a word); so may the escape of a line end or tab in JSON text (`...\nghp_...`). The
 * escape is a lookbehind inside the lookbehind, after the letter: as two alternatives the scan was 1.5
 * times slower after the letter and 15 times before it.
 */
const first = (letter: string) => `${letter}(?<![A-Za-z0-9]${letter}(?<!\\\\[nrt]${letter}))`;
/** No token character right after (the token is whole). */
const R = '(?![A-Za-z0-9_\\-])';
/** The end of a token of letters and digits only: a `_` or `-` after it starts the next word (`ghp_..._old`). */
const R_ALNUM = '(?![A-Za-z0-9])';
/** A line end inside a cut PEM block: CR LF or LF, raw or JSON-escaped once or twice (`\n`, `\\r\\n`, ...). */
const PEM_EOL = '(?:\\r?\\n|(?:\\\\{1,3}r)?\\\\{1,3}n)';

/** Pass 1: tokens that say what they are. Order matters where prefixes overlap (sk-ant-, sk-or- before sk-). */
export const TOKEN_DETECTORS: Detector[] = [
  { kind: 'anthropic', pattern: `sk-ant-[a-z]{2,8}[0-9]{0,4}-[A-Za-z0-9_\\-]{32,200}${R}` },
  { kind: 'openrouter', pattern: `sk-or-(?:v[0-9]{1,2}-)?[A-Za-z0-9]{32,128}${R_ALNUM}` },
  { kind: 'openai', pattern: `sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_\\-]{20,250}${R}`, valid: openaiLike },
  { kind: 'stripe', pattern: `sk_live_[A-Za-z0-9]{20,250}${R_ALNUM}` },
  { kind: 'stripe', pattern: `rk_live_[A-Za-z0-9]{20,250}${R_ALNUM}` },
  { kind: 'google', pattern: `AIza[0-9A-Za-z_\\-]{35}${R}` },
  { kind: 'google', pattern: `ya29\\.[0-9A-Za-z_\\-]{30,2048}${R}` },
  {
    kind: 'aws_access_key_id',
    // the character after a key may not be base64, so no key is found inside an image's base64
    pattern: `A(?:KIA|SIA|BIA|CCA|GPA|IDA|ROA|NPA|NVA|IPA)[A-Z2-7]{16}(?![A-Za-z0-9/+=])`,
  },
  { kind: 'github', pattern: `gh[pousr]_[A-Za-z0-9]{36,251}${R_ALNUM}` },
  { kind: 'github', pattern: `github_pat_[A-Za-z0-9_]{22,255}${R}` },
  {
    kind: 'gitlab',
    pattern: `gl(?:pat|dt|rt|ptt|cbt|oas|soat|ft|imt|agent)-[A-Za-z0-9_\\-]{20,64}(?:\\.[A-Za-z0-9_\\-]{1,32}){0,3}${R}`,
  },
  { kind: 'slack', pattern: `xox[abposre]-[0-9A-Za-z\\-]{10,250}${R}`, valid: hasDigit },
  { kind: 'slack', pattern: `xapp-[0-9]-[0-9A-Za-z\\-]{10,250}${R}` },
  { kind: 'slack', pattern: `https://hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/\\-]{20,200}` },
  // letters and digits of a fixed length after the prefix
  { kind: 'npm', pattern: `npm_[A-Za-z0-9]{36}${R_ALNUM}`, valid: randomAlnum },
  { kind: 'huggingface', pattern: `hf_[A-Za-z0-9]{34}${R_ALNUM}`, valid: randomAlnum },
  { kind: 'groq', pattern: `gsk_[A-Za-z0-9]{52}${R_ALNUM}`, valid: randomAlnum },
  { kind: 'xai', pattern: `xai-[A-Za-z0-9]{80}${R_ALNUM}`, valid: randomAlnum },
  { kind: 'replicate', pattern: `r8_[A-Za-z0-9]{37}${R_ALNUM}`, valid: randomAlnum },
  // three dotted parts: base64 never holds a dot, so none is found in an image
  { kind: 'jwt', pattern: `eyJ[A-Za-z0-9_\\-]{5,4096}\\.eyJ[A-Za-z0-9_\\-]{5,16384}\\.[A-Za-z0-9_\\-]{0,4096}${R}` },
  {
    kind: 'private_key',
    // a whole block, or a cut one: the header and the base64 lines that follow it. The body never holds
    // `-----`, so the scan for END stops at the next dashes and a text of repeated headers stays linear.
    // A base64 line never holds `\`, so an escaped line end is never read as part of a line.
    pattern:
      '-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----' +
      `(?:(?:(?!-----)[\\s\\S]){0,32768}-----END[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----|(?:${PEM_EOL}[A-Za-z0-9+/=]{16,100}){1,600})`,
    anywhere: true,
  },
];

/**
 * The one regex of pass 1, and the detector of each of its capture groups (TOKEN_GROUPS[i] is group
 * i + 1). Detectors are grouped by their first letter, so that at each position the scan tries one
 * alternative per first letter, not one per detector: a scan costs about one step per position and
 * alternative (docs/ARCHITECTURE.md, "Partitions").
 */
function tokenRegex(detectors: Detector[]): { re: RegExp; groups: Detector[] } {
  const byFirst = new Map<string, Detector[]>();
  const anywhere: Detector[] = [];
  for (const d of detectors) {
    if (d.anywhere) anywhere.push(d);
    else byFirst.set(d.pattern[0], [...(byFirst.get(d.pattern[0]) ?? []), d]);
  }
  const groups: Detector[] = [];
  const parts: string[] = [];
  for (const [letter, ds] of byFirst) {
    groups.push(...ds);
    parts.push(`${first(letter)}(?:${ds.map((d) => `(${d.pattern.slice(1)})`).join('|')})`);
  }
  for (const d of anywhere) {
    groups.push(d);
    parts.push(`(${d.pattern})`);
  }
  return { re: new RegExp(parts.join('|'), 'g'), groups };
}

export const { re: TOKEN_RE, groups: TOKEN_GROUPS } = tokenRegex(TOKEN_DETECTORS);

/**
 * Pass 2: values named by their context. The key name must end with a secret word: `api_key`,
 * `access_key`, `secret_access_key`, `secret_key`, `secret`, `private_key`, `password`, `passwd`,
 * `passphrase`, `token` (so `max_tokens`, `tokenizer`, `secret_santa` do not count). Words that share
 * their first letters are one alternative: the scan costs about one step per position and alternative.
 */
const SECRET_WORDS = [
  'a(?:pi[_\\-]?key|ccess[_\\-]?key)',
  'secret(?:[_\\-]?access[_\\-]?key|[_\\-]?key)?',
  'p(?:rivate[_\\-]?key|ass(?:word|wd|phrase))',
  'token',
];
/**
 * Or an environment-style `*_KEY` or `*_AUTH*` name (`AZURE_OPENAI_KEY`, `DEEPL_AUTH_KEY`, `NPM_AUTH`;
 * not `*_AUTHOR*`), whose value must also look random (weakName, randomValue).
 */
const WEAK_NAME = '[_\\-](?:key|auth(?!or)[A-Za-z0-9_\\-]{0,32})';
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
    `(${[...SECRET_WORDS, WEAK_NAME].join('|')})\\\\?["']?[ \\t]{0,8}(?::=|=(?![=>])|:(?![:=]))[ \\t]{0,8}` +
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

/** Ends with a word of SECRET_WORDS, which names a secret by itself (`_AUTH_TOKEN`, `_authToken`). */
const STRONG_END = new RegExp(`(?:${SECRET_WORDS.join('|')})$`, 'i');

/**
 * A `*_KEY` or `*_AUTH*` name (`OPENAI_KEY`, `DEEPL_AUTH_KEY`, `SSH_AUTH_SOCK`) that does not end with a
 * word naming a secret by itself: `sort_key`, `cache_key`, `*_AUTH_DOMAIN` name other things too, so
 * such a name's value must look random (randomValue).
 */
export function weakName(name: string): boolean {
  // only WEAK_NAME starts with `_` or `-`
  return (name.charCodeAt(0) === 95 || name.charCodeAt(0) === 45) && !STRONG_END.test(name);
}

/** A host name (`dev-a1b2.us.auth0.com`), alone or after the `@` of an e-mail address. */
const HOST = /^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;

/**
 * The value of a weak name that looks random: 16 characters or more, letters and digits, not a host
 * name or an e-mail address. `AZURE_OPENAI_KEY=<32 hex>` and `DEEPL_AUTH_KEY=<uuid>:fx` are;
 * `SORT_KEY=created_at_desc`, `CACHE_KEY=v2` and `FIREBASE_AUTH_DOMAIN=app-4f2a.firebaseapp.com` are not.
 */
export function randomValue(value: string, kinds: KindsOf = kindsOfString(value)): boolean {
  if (value.length < 16) return false;
  const all = kinds(0);
  return all.digit && (all.lower || all.upper) && !HOST.test(value.slice(value.lastIndexOf('@') + 1));
}
