/**
 * Secret redaction: every API key, token, private key block or credential assignment found in a text is
 * replaced by `[REDACTED:<kind>:<fingerprint>]`, where the fingerprint is the first 12 hex digits of the
 * SHA-256 of the secret, so a hunt can follow one leaked key across the fleet without the warehouse
 * holding it. Format-independent: write/redact-row.ts applies it to every content column of every
 * row once, before the row is batched.
 *
 * Two scans of single global regexes with bounded quantifiers and literal anchors (no catastrophic
 * backtracking on MB-sized texts; write/redact-patterns.ts):
 *  1. self-identifying tokens, recognised by their prefix (`sk-ant-`, `AKIA`, `ghp_`, `npm_`, `eyJ...`,
 *     ...) wherever they start, also glued to a word (`mytoken-ghp_...`);
 *  2. tokens recognised by their context (`Bearer <token>`, `"apiKey": "<value>"`, `API_KEY=<value>`,
 *     `aws_secret_access_key = <40 chars>`, `AZURE_OPENAI_KEY=<random>`), whose value is redacted and
 *     whose name is kept. A value that runs into a token of scan 1 is left to it, so a known token
 *     keeps its own kind.
 * A text holding `\uXXXX` or `\/` escapes is scanned a second time with them decoded (write/
 * redact-escapes.ts), and what that finds is mapped back to the original characters.
 * A secret is fingerprinted as it reads once unescaped: `sk\u002dant-...` has the fingerprint of
 * `sk-ant-...`, and a JSON string's `\"` counts as `"`.
 */
import { createHash } from 'node:crypto';
import { decodeEscapes, originalOffset } from './redact-escapes.js';
import {
  awsSecretKey,
  CONTEXT_RE,
  hasDigit,
  hasLetter,
  randomValue,
  secretValue,
  TOKEN_GROUPS,
  TOKEN_RE,
  unescapeValue,
  weakName,
} from './redact-patterns.js';
import { ValueRuns } from './redact-values.js';

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

/** A secret found: the characters it takes in the text, its kind, and the secret as fingerprinted. */
interface Span {
  start: number;
  end: number;
  kind: string;
  secret: string;
}

/** Replaces every secret of `text`; returns the same string and no hit when there is none. */
export function redact(text: string): Redacted {
  let spans = findSpans(text);
  const decoded = decodeEscapes(text);
  if (decoded !== null) {
    // what the decoded text shows, mapped back; a span the plain scan found too is dropped as a duplicate
    const seen = findSpans(decoded.text).map((s) => ({
      ...s,
      start: originalOffset(decoded, s.start),
      end: originalOffset(decoded, s.end),
    }));
    if (seen.length > 0) spans = spans.concat(seen).sort((a, b) => a.start - b.start || b.end - a.end);
  }
  if (spans.length === 0) return { text, hits: [] };
  return replaceSpans(text, spans);
}

/** The secrets of scans 1 and 2, in text order, none overlapping. */
function findSpans(text: string): Span[] {
  const tokens = tokenSpans(text);
  const named = contextSpans(text, tokens);
  if (named.length === 0) return tokens;
  if (tokens.length === 0) return named;
  return tokens.concat(named).sort((a, b) => a.start - b.start);
}

function tokenSpans(text: string): Span[] {
  const spans: Span[] = [];
  TOKEN_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = TOKEN_RE.exec(text)) !== null) {
    let i = 1;
    while (m[i] === undefined) i++;
    const detector = TOKEN_GROUPS[i - 1];
    if (detector.valid && !detector.valid(m[0])) {
      TOKEN_RE.lastIndex = m.index + 1;
      continue;
    }
    spans.push({ start: m.index, end: m.index + m[0].length, kind: detector.kind, secret: m[0] });
  }
  return spans;
}

/** Inside a marker already in the text (`[REDACTED:private_key:...]` reads like an assignment). */
function insideMarker(text: string, index: number): boolean {
  const previous = text.charAt(index - 1);
  if (previous !== ':' && previous !== '_') return false; // `[REDACTED:private_key:`, `[REDACTED:aws_secret_key:`
  const before = text.slice(Math.max(0, index - 40), index);
  const at = before.lastIndexOf(MARKER_START);
  return at !== -1 && !before.includes(']', at);
}

/** Scan 2 over the text, skipping what scan 1 found (`tokens`, in text order). */
function contextSpans(text: string, tokens: Span[]): Span[] {
  const spans: Span[] = [];
  const runs = new ValueRuns(text);
  let t = 0;
  CONTEXT_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = CONTEXT_RE.exec(text)) !== null) {
    while (t < tokens.length && tokens[t].end <= m.index) t++;
    const token = tokens[t];
    if (token !== undefined && token.start <= m.index) {
      CONTEXT_RE.lastIndex = token.end; // inside a token
      continue;
    }
    const found = insideMarker(text, m.index) ? null : namedValue(text, m, runs);
    if (found === null || (token !== undefined && token.start < found.end)) {
      // none, or a value that runs into a token, which keeps its own kind
      CONTEXT_RE.lastIndex = m.index + 1;
      continue;
    }
    spans.push(found);
    CONTEXT_RE.lastIndex = found.end;
  }
  return spans;
}

/** The secret of a CONTEXT_RE match, read to its end, or null when it is none. */
function namedValue(text: string, m: RegExpExecArray, runs: ValueRuns): Span | null {
  const matchEnd = m.index + m[0].length;
  if (m[1] !== undefined) {
    const token = m[1];
    if (!hasDigit(token) || !hasLetter(token)) return null;
    return { start: matchEnd - token.length, end: matchEnd, kind: 'bearer', secret: token };
  }
  const level = m[3] !== undefined ? 0 : m[4] !== undefined ? 1 : null;
  const start = matchEnd - (m[3] ?? m[4] ?? m[5]).length;
  const end = runs.valueEnd(start, matchEnd, level === null ? null : '\\'.repeat(2 * level + 1));
  const raw = text.slice(start, end);
  const value = level === null ? raw : unescapeValue(raw, level);
  if (awsSecretKey(m[2], value)) return { start, end, kind: 'aws_secret_key', secret: value };
  const kinds = runs.kinds(start, end);
  if (weakName(m[2]) && !randomValue(value, kinds)) return null;
  return secretValue(value, text.charAt(end), kinds) ? { start, end, kind: 'assignment', secret: value } : null;
}

/**
 * The text with each span replaced by its marker. Spans come sorted by start, longest first; a span
 * inside another is dropped (a partial find of the same secret), and spans that overlap in part are
 * replaced together by both markers, so no character of either survives.
 */
function replaceSpans(text: string, spans: Span[]): Redacted {
  const groups: Array<{ start: number; end: number; spans: Span[] }> = [];
  for (const s of spans) {
    const g = groups[groups.length - 1];
    if (g !== undefined && s.start < g.end) {
      if (s.end <= g.end) continue;
      g.end = s.end;
      g.spans.push(s);
    } else groups.push({ start: s.start, end: s.end, spans: [s] });
  }
  const hits: SecretHit[] = [];
  const parts: string[] = [];
  let last = 0;
  for (const g of groups) {
    parts.push(text.slice(last, g.start));
    for (const s of g.spans) {
      const hit = { kind: s.kind, fingerprint: secretFingerprint(s.secret) };
      hits.push(hit);
      parts.push(marker(hit.kind, hit.fingerprint));
    }
    last = g.end;
  }
  parts.push(text.slice(last));
  return { text: parts.join(''), hits };
}
