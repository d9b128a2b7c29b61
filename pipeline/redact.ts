/**
 * Secret redaction: every API key, token, private key block or credential assignment found in a row's
 * text is replaced by `[REDACTED:<kind>:<fingerprint>]`, where the fingerprint is the first 12 hex
 * digits of the SHA-256 of the secret, so a hunt can follow one leaked key across the fleet without the
 * warehouse holding it. Format-independent: pipeline/partition.ts applies it to every row once, before
 * the row is batched.
 *
 * Two scans, both single global regexes with bounded quantifiers and literal anchors (no catastrophic
 * backtracking on MB-sized texts):
 *  1. self-identifying tokens, recognised by their prefix (`sk-ant-`, `AKIA`, `ghp_`, `eyJ...`, ...);
 *  2. tokens recognised by their context (`Bearer <token>`, `"apiKey": "<value>"`, `API_KEY=<value>`,
 *     `aws_secret_access_key = <40 chars>`), whose value is redacted and whose name is kept.
 * Pass 2 never matches a marker of pass 1 (`[` is not a value character), so a known token inside an
 * assignment keeps its own kind and fingerprint.
 */
import { createHash } from 'node:crypto';

/** One secret found in a text: its kind and fingerprint, never its value. */
export interface SecretHit {
  kind: string;
  fingerprint: string;
}

export interface Redacted {
  /** The text with every secret replaced by its marker (the same string when nothing was found). */
  text: string;
  hits: SecretHit[];
}

/** First 12 hex digits of the SHA-256 of a secret. */
export function secretFingerprint(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex').slice(0, 12);
}

const MARKER_START = '[REDACTED:';

export function marker(kind: string, fingerprint: string): string {
  return `[REDACTED:${kind}:${fingerprint}]`;
}

const hasLower = (s: string) => /[a-z]/.test(s);
const hasUpper = (s: string) => /[A-Z]/.test(s);
const hasDigit = (s: string) => /[0-9]/.test(s);
/** Looks random: digits and letters of both cases (real keys are; identifiers and prose are not). */
const mixed = (s: string) => hasLower(s) && hasUpper(s) && hasDigit(s);

interface Detector {
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

/** Pass 1: tokens that say what they are. Order matters where prefixes overlap (sk-ant-, sk-or- before sk-). */
const TOKEN_DETECTORS: Detector[] = [
  { kind: 'anthropic', pattern: `${L}sk-ant-[a-z]{2,8}[0-9]{0,4}-[A-Za-z0-9_\\-]{32,200}${R}` },
  { kind: 'openrouter', pattern: `${L}sk-or-(?:v[0-9]{1,2}-)?[A-Za-z0-9]{32,128}${R}` },
  { kind: 'openai', pattern: `${L}sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_\\-]{20,250}${R}`, valid: mixed },
  { kind: 'google', pattern: `${L}AIza[0-9A-Za-z_\\-]{35}${R}` },
  { kind: 'google', pattern: `${L}ya29\\.[0-9A-Za-z_\\-]{30,2048}${R}` },
  { kind: 'aws_access_key_id', pattern: `(?<![A-Za-z0-9/+])(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z2-7]{16}(?![A-Za-z0-9/+=])` },
  { kind: 'github', pattern: `${L}gh[pousr]_[A-Za-z0-9]{36,251}${R}` },
  { kind: 'github', pattern: `${L}github_pat_[A-Za-z0-9_]{22,255}${R}` },
  { kind: 'gitlab', pattern: `${L}gl(?:pat|dt|rt|ptt|cbt|oas|soat|ft|imt|agent)-[A-Za-z0-9_\\-]{20,64}(?:\\.[A-Za-z0-9_\\-]{1,32}){0,3}${R}` },
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
    pattern:
      '-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----' +
      '(?:(?:(?!-----)[\\s\\S]){0,32768}-----END[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----|(?:(?:\\r?\\n|\\\\n)[A-Za-z0-9+/=]{16,100}){1,600})',
  },
];

const TOKEN_RE = new RegExp(TOKEN_DETECTORS.map((d) => `(${d.pattern})`).join('|'), 'g');

/**
 * Pass 2: values named by their context. Groups: 1 bearer token; 2 key name, 3 value. The key name
 * must end with a secret word (so `max_tokens`, `tokenizer`, `secret_santa` do not count); the value is
 * 8 to 512 characters without quotes, spaces, brackets or backslashes.
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
const CONTEXT_RE = new RegExp(
  [
    `\\b[Bb]earer[ \\t]{1,8}([A-Za-z0-9._~+/\\-]{16,4096}=*)(?![A-Za-z0-9._~+/=\\-])`,
    `(${SECRET_WORDS.join('|')})\\\\?["']?[ \\t]{0,8}(?::=|=(?![=>])|:(?![:=]))[ \\t]{0,8}\\\\?["'\`]?([^\\s"'\`,;()<>{}\\[\\]\\\\|]{8,512})`,
  ].join('|'),
  'gi',
);

/** Values that name or stand for a secret rather than being one. */
const PLACEHOLDER = /^(?:\$|%|\*|x{3}|X{3}|your|my[_\-]|<|example|sample|changeme|change[_\-]me|placeholder|dummy|redacted|none|null|undefined|true|false|secret|password|token|api[_\-]?key|test)/i;

/** An assignment value that is a secret, not code or a placeholder (`this.apiKey`, `getToken()`, `Optional[str]`, `your-key-here`). */
function secretValue(value: string, next: string): boolean {
  if (next === '(' || next === '[' || next === '.') return false;
  if (PLACEHOLDER.test(value)) return false;
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value)) return false; // dotted identifier: options.apiKey
  if (/^[A-Za-z_]+$/.test(value)) return false; // a word, an identifier or a type name
  if (/^[0-9]+$/.test(value)) return false; // a count
  if (/^(.)\1+$/.test(value)) return false;
  if (/^(?:https?:\/\/|\/|~|\.\.?\/)/.test(value)) return false; // a URL or a path
  const classes = Number(hasLower(value)) + Number(hasUpper(value)) + Number(hasDigit(value)) + Number(/[^A-Za-z0-9]/.test(value));
  return classes >= 2;
}

/** The kind of a value found in context: a specific detector's kind when it is one of those tokens. */
function contextKind(name: string, value: string): string {
  if (/secret[_\-]?access[_\-]?key/i.test(name) && /^[A-Za-z0-9/+]{40}$/.test(value)) return 'aws_secret_key';
  return 'assignment';
}

/** Replaces every secret of `text`; returns the same string and no hit when there is none. */
export function redact(text: string): Redacted {
  const hits: SecretHit[] = [];
  let out = scanTokens(text, hits);
  out = scanContext(out, hits);
  return { text: out, hits };
}

function scanTokens(text: string, hits: SecretHit[]): string {
  TOKEN_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  let last = 0;
  const parts: string[] = [];
  while ((m = TOKEN_RE.exec(text)) !== null) {
    let i = 1;
    while (m[i] === undefined) i++;
    const detector = TOKEN_DETECTORS[i - 1];
    const secret = m[0];
    if (detector.valid && !detector.valid(secret)) {
      TOKEN_RE.lastIndex = m.index + 1;
      continue;
    }
    const fingerprint = secretFingerprint(secret);
    hits.push({ kind: detector.kind, fingerprint });
    parts.push(text.slice(last, m.index), marker(detector.kind, fingerprint));
    last = m.index + secret.length;
  }
  if (parts.length === 0) return text;
  parts.push(text.slice(last));
  return parts.join('');
}

function scanContext(text: string, hits: SecretHit[]): string {
  CONTEXT_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  let last = 0;
  const parts: string[] = [];
  while ((m = CONTEXT_RE.exec(text)) !== null) {
    let kind: string;
    let value: string;
    if (text.startsWith(MARKER_START, m.index - MARKER_START.length)) continue; // the kind of a marker (private_key)
    if (m[1] !== undefined) {
      value = m[1];
      if (!hasDigit(value) || !(hasLower(value) || hasUpper(value))) {
        CONTEXT_RE.lastIndex = m.index + 1;
        continue;
      }
      kind = 'bearer';
    } else {
      value = m[3];
      const end = m.index + m[0].length;
      if (!secretValue(value, text.charAt(end))) {
        CONTEXT_RE.lastIndex = m.index + 1;
        continue;
      }
      kind = contextKind(m[2], value);
    }
    const start = m.index + m[0].length - value.length;
    const fingerprint = secretFingerprint(value);
    hits.push({ kind, fingerprint });
    parts.push(text.slice(last, start), marker(kind, fingerprint));
    last = start + value.length;
  }
  if (parts.length === 0) return text;
  parts.push(text.slice(last));
  return parts.join('');
}
