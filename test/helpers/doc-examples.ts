/**
 * The documentation's pages and the SQL examples in them (issue 28: every example runs). A page is README.md
 * or a docs/*.md file; an example is an indented code block that is a query (it starts with select, with or
 * from), or the quoted SQL of a `clinetrail query --out DIR "..."` or `make query ... Q="..."` line in a
 * code block. test/hostile/query-sandbox.test.ts runs them on the demo fleet; test/docs/docs.test.ts
 * checks the pages' links.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO } from './source.js';

/** README.md and every docs/*.md page, relative to the repository, in name order. */
export function docPages(): string[] {
  const docs = fs
    .readdirSync(path.join(REPO, 'docs'))
    .filter((n) => n.endsWith('.md'))
    .sort()
    .map((n) => `docs/${n}`);
  return ['README.md', ...docs];
}

/** The indented code blocks of a page (four spaces, after a blank line), their indentation removed. */
export function codeBlocks(markdown: string): string[] {
  return [...`\n${markdown}`.matchAll(/\n\n((?: {4}.*\n|\n(?= {4}))+)/g)].map((m) => m[1].replace(/^ {4}/gm, '').trim());
}

/** The page's text outside code: indented blocks and inline code spans removed. */
export function prose(markdown: string): string {
  const blocks = `\n${markdown}`.replace(/\n\n((?: {4}.*\n|\n(?= {4}))+)/g, '\n\n');
  return blocks.replace(/`[^`\n]*`/g, '``');
}

export interface SqlExample {
  page: string;
  sql: string;
}

/** How a query starts. */
const QUERY = /^(select|with|from)\b/i;

/** The SQL examples of a page, in order. */
export function sqlExamples(page: string): SqlExample[] {
  const found: SqlExample[] = [];
  for (const block of codeBlocks(fs.readFileSync(path.join(REPO, page), 'utf8'))) {
    if (QUERY.test(block)) {
      found.push({ page, sql: block });
      continue;
    }
    for (const line of block.split('\n')) {
      const command = /^(?:clinetrail query\b.*?|make query\b.*?Q=)"((?:[^"\\]|\\.)*)"/.exec(line);
      // a synopsis's placeholder ("SQL") is no example
      if (command && QUERY.test(command[1])) found.push({ page, sql: command[1].replace(/\\(.)/g, '$1') });
    }
  }
  return found;
}
