/**
 * The statements of a model file, each with what it does to which relation, so the two builds can treat
 * them apart (docs/ARCHITECTURE.md "SQL models"): the build of a batch of hosts runs them all but the
 * comments, and the assembly of fleet.duckdb turns each table a host build wrote out into a view over its
 * files and skips the inserts that filled it. The model files stay plain SQL that DuckDB runs as they
 * are; this only has to find where a statement ends (a `;` outside quotes and comments) and its first
 * words. Where each starts, and which stretches are code, is what the SQL lint (tools/sql-lint/) needs
 * to name a file's line and to read its keywords.
 */

/** What a statement of a model file does. */
export type StatementKind = 'create-table' | 'create-view' | 'insert' | 'drop-table' | 'comment' | 'other';

/** One statement of a model file. */
export interface ModelStatement {
  /** Its text, without the `;` that ends it; comments before it kept. */
  sql: string;
  kind: StatementKind;
  /** The relation it creates, inserts into, drops or comments on (lower case); null for `other`. */
  target: string | null;
}

/** A stretch of SQL text: code, a string literal, a quoted name or a comment. */
export interface SqlSegment {
  kind: 'code' | 'string' | 'quoted-name' | 'comment';
  start: number;
  end: number;
}

/** The text cut into code, `'strings'`, `"quoted names"` and comments (`--` to the line's end, and block comments). */
export function sqlSegments(text: string): SqlSegment[] {
  const segments: SqlSegment[] = [];
  const add = (kind: SqlSegment['kind'], start: number, end: number) => {
    const last = segments.at(-1);
    if (kind === 'code' && last?.kind === 'code') last.end = end;
    else if (end > start) segments.push({ kind, start, end });
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    let end: number;
    if (c === "'" || c === '"') {
      // a quote ends at the next one that is not doubled
      let j = i + 1;
      while (j < text.length && !(text[j] === c && text[j + 1] !== c)) j += text[j] === c ? 2 : 1;
      end = Math.min(j + 1, text.length);
      add(c === "'" ? 'string' : 'quoted-name', i, end);
    } else if (c === '-' && text[i + 1] === '-') {
      const eol = text.indexOf('\n', i);
      end = eol < 0 ? text.length : eol + 1;
      add('comment', i, end);
    } else if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      end = close < 0 ? text.length : close + 2;
      add('comment', i, end);
    } else {
      end = i + 1;
      add('code', i, end);
    }
    i = end;
  }
  return segments;
}

/** One statement of SQL text: its text, without the `;` that ends it, and where it starts in the text. */
export interface StatementSpan {
  sql: string;
  start: number;
}

/** The statements of SQL text, cut at each `;` outside strings, quoted names and comments. */
export function statementSpans(text: string): StatementSpan[] {
  const spans: StatementSpan[] = [];
  let start = 0;
  for (const seg of sqlSegments(text)) {
    if (seg.kind !== 'code') continue;
    for (let i = text.indexOf(';', seg.start); i >= 0 && i < seg.end; i = text.indexOf(';', i + 1)) {
      spans.push({ sql: text.slice(start, i), start });
      start = i + 1;
    }
  }
  spans.push({ sql: text.slice(start), start });
  return spans.filter((s) => codeOf(s.sql).trim() !== '');
}

/**
 * The text with its comments blanked and each string literal emptied (`''`), quoted names kept: what a
 * pattern over its code may match without being fooled by a `--` in a string or a word in a comment.
 */
export function codeOf(sql: string): string {
  return sqlSegments(sql)
    .map((s) => (s.kind === 'comment' ? ' ' : s.kind === 'string' ? "''" : sql.slice(s.start, s.end)))
    .join('');
}

const NAME = `"?([A-Za-z_][A-Za-z0-9_]*)"?`;
const PATTERNS: ReadonlyArray<readonly [StatementKind, RegExp]> = [
  // a temporary table too: the assembly skips it with the other statements on a table a model file drops
  [
    'create-table',
    new RegExp(String.raw`^create\s+(?:or\s+replace\s+)?(?:temp(?:orary)?\s+)?table\s+(?:if\s+not\s+exists\s+)?${NAME}`, 'i'),
  ],
  ['create-view', new RegExp(String.raw`^create\s+(?:or\s+replace\s+)?view\s+(?:if\s+not\s+exists\s+)?${NAME}`, 'i')],
  ['insert', new RegExp(String.raw`^insert\s+(?:or\s+\w+\s+)?into\s+${NAME}`, 'i')],
  ['drop-table', new RegExp(String.raw`^drop\s+table\s+(?:if\s+exists\s+)?${NAME}`, 'i')],
  ['comment', new RegExp(String.raw`^comment\s+on\s+(?:table|view|column)\s+${NAME}`, 'i')],
];

/** The kind and target of one statement. */
export function classify(sql: string): ModelStatement {
  const head = codeOf(sql).trim();
  for (const [kind, re] of PATTERNS) {
    const m = re.exec(head);
    if (m) return { sql, kind, target: m[1].toLowerCase() };
  }
  return { sql, kind: 'other', target: null };
}

/** Every statement of a model file, classified. */
export function modelStatements(text: string): ModelStatement[] {
  return statementSpans(text).map((s) => classify(s.sql));
}
