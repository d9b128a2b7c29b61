/**
 * The SQL lint's rules on the text of a file, as written (before any placeholder is filled): no tab, no
 * whitespace at a line's end, and DuckDB's keywords in lower case, the way every model and hunt file is
 * written. Type names are the one exception the files make (`::VARCHAR`, `rule VARCHAR`): a type
 * name that is not a reserved word may be written in upper case. Words inside strings, quoted names,
 * comments and `{{placeholders}}` are not SQL the file writes, and are not looked at.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlSegments } from '../../src/warehouse/model-statements.js';
import { lineOfOffset, type Problem } from './problem.js';

/** The words DuckDB's parser knows, from DuckDB itself. */
export interface SqlWords {
  /** Every keyword (duckdb_keywords()), lower case. */
  keywords: Set<string>;
  /** The type names (duckdb_types()) that are no reserved keyword: these may be written in upper case. */
  typeNames: Set<string>;
}

/** The keywords and type names of the DuckDB the lint runs on. */
export async function sqlWords(conn: DuckDBConnection): Promise<SqlWords> {
  const rows = async (sql: string) => (await conn.runAndReadAll(sql)).getRows().map((r) => String(r[0]));
  const reserved = new Set(await rows(`select keyword_name from duckdb_keywords() where keyword_category = 'reserved'`));
  const types = await rows('select distinct lower(type_name) from duckdb_types()');
  return {
    keywords: new Set(await rows('select lower(keyword_name) from duckdb_keywords()')),
    typeNames: new Set(types.filter((t) => !reserved.has(t))),
  };
}

/** The problems of `text`, the content of `file`, with the rules tab, trailing-space and keyword-case. */
export function textProblems(file: string, text: string, words: SqlWords): Problem[] {
  const problems: Problem[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.includes('\t')) problems.push({ file, line: i + 1, rule: 'tab', message: 'a tab character: indent with spaces' });
    if (/\s$/.test(line))
      problems.push({ file, line: i + 1, rule: 'trailing-space', message: 'whitespace at the end of the line' });
  });
  const lineOf = lineOfOffset(text);
  for (const segment of sqlSegments(text)) {
    if (segment.kind !== 'code') continue;
    const code = text.slice(segment.start, segment.end).replace(/\{\{\w+\}\}/g, (p) => ' '.repeat(p.length));
    for (const m of code.matchAll(/\b[A-Za-z_][A-Za-z0-9_]*\b/g)) {
      const word = m[0];
      const lower = word.toLowerCase();
      if (word === lower || !words.keywords.has(lower)) continue;
      if (words.typeNames.has(lower) && word === word.toUpperCase()) continue;
      problems.push({
        file,
        line: lineOf(segment.start + (m.index ?? 0)),
        rule: 'keyword-case',
        message: `'${word}' is a keyword: write it in lower case`,
      });
    }
  }
  return problems;
}
