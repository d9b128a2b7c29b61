/**
 * What the SQL lint reports: one problem per line, `file:line: rule: message`, the form compilers and
 * editors jump to. A DuckDB error becomes one such line: its first line, at the line of the file its
 * `LINE n:` points to.
 */
import * as path from 'node:path';

/** One problem the SQL lint found: the file, its line (from 1), the rule and what is wrong. */
export interface Problem {
  file: string;
  line: number;
  rule: string;
  message: string;
}

/** The problem as printed: its file relative to the working folder when inside it. */
export function problemLine(p: Problem): string {
  const relative = path.relative(process.cwd(), p.file);
  const shown = relative.startsWith('..') || path.isAbsolute(relative) ? p.file : relative;
  return `${shown}:${p.line}: ${p.rule}: ${p.message}`;
}

/** Problems in the order they are printed: by file, line, rule, message. */
export function sortedProblems(problems: Problem[]): Problem[] {
  const key = (p: Problem) => [p.file, String(p.line).padStart(6, '0'), p.rule, p.message].join('\0');
  return [...problems].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** A DuckDB error as the lint reports it: its first line, and the line (from 1) of the SQL it was given. */
export function duckdbError(err: unknown): { message: string; line: number | null } {
  const text = err instanceof Error ? err.message : String(err);
  const message = text.split('\n')[0].replace(/^Failed to extract statements: /, '');
  const at = /^LINE (\d+):/m.exec(text);
  return { message, line: at ? Number(at[1]) : null };
}

/** The line (from 1) of each offset of `text`. */
export function lineOfOffset(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}
