/**
 * The statements of a model file, each with what it does to which relation, so the two builds can treat
 * them apart (docs/ARCHITECTURE.md "SQL models"): the build of a batch of hosts runs them all but the
 * comments, and the assembly of fleet.duckdb turns each table a host build wrote out into a view over its
 * files and skips the inserts that filled it. The model files stay plain SQL that DuckDB runs as they
 * are; this only has to find where a statement ends (a `;` outside quotes and comments) and its first
 * words.
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

/** Splits SQL text at each `;` outside strings, quoted names and comments. */
export function splitStatements(text: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "'" || c === '"') {
      // a quote ends at the next one that is not doubled
      let j = i + 1;
      while (j < text.length && !(text[j] === c && text[j + 1] !== c)) j += text[j] === c ? 2 : 1;
      i = j + 1;
    } else if (c === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end + 1;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (c === ';') {
      statements.push(text.slice(start, i));
      start = i + 1;
      i += 1;
    } else {
      i += 1;
    }
  }
  statements.push(text.slice(start));
  return statements.filter((s) => stripComments(s).trim() !== '');
}

/** The text without its `--` line comments (enough for the first words of a model statement). */
function stripComments(sql: string): string {
  return sql.replace(/--[^\n]*/g, '');
}

const NAME = `"?([A-Za-z_][A-Za-z0-9_]*)"?`;
const PATTERNS: ReadonlyArray<readonly [StatementKind, RegExp]> = [
  // a temp table too: one a model file drops (sql/29's hub_search_rows) is the host build's alone, never
  // rebuilt over the whole fleet by the assembly of fleet.duckdb
  [
    'create-table',
    new RegExp(String.raw`^create\s+(?:or\s+replace\s+)?(?:temp\s+|temporary\s+)?table\s+(?:if\s+not\s+exists\s+)?${NAME}`, 'i'),
  ],
  ['create-view', new RegExp(String.raw`^create\s+(?:or\s+replace\s+)?view\s+(?:if\s+not\s+exists\s+)?${NAME}`, 'i')],
  ['insert', new RegExp(String.raw`^insert\s+(?:or\s+\w+\s+)?into\s+${NAME}`, 'i')],
  ['drop-table', new RegExp(String.raw`^drop\s+table\s+(?:if\s+exists\s+)?${NAME}`, 'i')],
  ['comment', new RegExp(String.raw`^comment\s+on\s+(?:table|view|column)\s+${NAME}`, 'i')],
];

/** The kind and target of one statement. */
export function classify(sql: string): ModelStatement {
  const head = stripComments(sql).trim();
  for (const [kind, re] of PATTERNS) {
    const m = re.exec(head);
    if (m) return { sql, kind, target: m[1].toLowerCase() };
  }
  return { sql, kind: 'other', target: null };
}

/** Every statement of a model file, classified. */
export function modelStatements(text: string): ModelStatement[] {
  return splitStatements(text).map(classify);
}
