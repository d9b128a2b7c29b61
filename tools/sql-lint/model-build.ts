/**
 * The SQL lint's walk of the model files: every statement of every file of `sql/`, in build order, its
 * placeholders filled by the model runner's own substitution (warehouse/model-run.ts) as a build over no
 * data fills them, parsed by DuckDB's parser and then run on an empty in-memory warehouse. Run, not only
 * parsed: a statement that reads a relation or column that no earlier file made fails to bind, which is
 * how the lint knows the files are numbered in the order the build runs them; and the catalog the run
 * leaves is what the comment rule reads (model-rules.ts).
 *
 * The placeholders are filled line by line, so each line of the filled text is known to come from one
 * line of the file, and a DuckDB error's `LINE n` is reported at the file's line. A statement that fails
 * makes nothing; the failures that follow only from it (`... with name X does not exist` of a relation or
 * macro a failed statement would have made) are not reported again.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import * as path from 'node:path';
import { firstRoundVars, type ModelFile, modelFiles, readModelFile, substituted } from '../../src/warehouse/model-run.js';
import { classify, type ModelStatement, sqlSegments, statementSpans } from '../../src/warehouse/model-statements.js';
import { duckdbError, lineOfOffset, type Problem } from './problem.js';

/** A statement of a model file as the walk met it. */
export interface WalkedStatement extends ModelStatement {
  /** The file's line its first word is on. */
  line: number;
  /** The macro it creates, if it is a `create macro`. */
  macro: string | null;
  /** Whether it parsed and ran. */
  ran: boolean;
}

/** A model file as the walk met it. */
export interface WalkedModelFile {
  /** Its name in `sql/` (`NN_model.sql`). */
  name: string;
  /** Its path. */
  file: string;
  statements: WalkedStatement[];
}

/** The code of a statement: its comments, strings and quoted names left out. */
function codeOf(sql: string): string {
  return sqlSegments(sql)
    .map((s) => (s.kind === 'code' ? sql.slice(s.start, s.end) : ' '))
    .join('');
}

const MACRO = /^\s*create\s+(?:or\s+replace\s+)?(?:temp(?:orary)?\s+)?macro\s+(\w+)/i;

/** Offset of the first word of a statement's text (after its comments). */
function firstWordOffset(sql: string): number {
  for (const s of sqlSegments(sql)) {
    if (s.kind === 'comment') continue;
    const at = sql.slice(s.start, s.end).search(/\S/);
    if (at >= 0) return s.start + at;
  }
  return 0;
}

/** The walk's state over the files: the problems found and the names a failed statement did not make. */
class Walk {
  readonly problems: Problem[] = [];
  private readonly unmade = new Set<string>();

  constructor(private readonly conn: DuckDBConnection) {}

  /** Parses and runs one statement; its problem, if any, at `at(n)` for DuckDB's LINE n. */
  async run(file: string, sql: string, at: (n: number | null) => number, made: string | null): Promise<boolean> {
    try {
      await this.conn.extractStatements(sql);
    } catch (err) {
      const e = duckdbError(err);
      this.problems.push({ file, line: at(e.line), rule: 'parse', message: e.message });
      if (made !== null) this.unmade.add(made);
      return false;
    }
    try {
      await this.conn.run(sql);
      return true;
    } catch (err) {
      const e = duckdbError(err);
      const missing = /with name "?(\w+)"? does not exist/i.exec(e.message)?.[1]?.toLowerCase();
      if (missing === undefined || !this.unmade.has(missing))
        this.problems.push({ file, line: at(e.line), rule: 'build', message: e.message });
      if (made !== null) this.unmade.add(made);
      return false;
    }
  }

  /** Walks `text`, a part of model file `file` from its line `firstLine`, with the placeholders `vars`. */
  async part(file: string, name: string, text: string, firstLine: number, vars: Record<string, string>) {
    const lines: string[] = [];
    /** The file's line of each line of the filled text. */
    const fileLine: number[] = [];
    const unfilled = new Set<number>();
    text.split('\n').forEach((raw, i) => {
      let filled = raw;
      try {
        filled = substituted(name, raw, vars);
      } catch (err) {
        this.problems.push({ file, line: firstLine + i, rule: 'placeholder', message: (err as Error).message });
        unfilled.add(firstLine + i);
      }
      for (const line of filled.split('\n')) {
        lines.push(line);
        fileLine.push(firstLine + i);
      }
    });
    const filled = lines.join('\n');
    const lineOf = lineOfOffset(filled);
    const statements: WalkedStatement[] = [];
    for (const span of statementSpans(filled)) {
      const first = lineOf(span.start) - 1;
      const line = fileLine[lineOf(span.start + firstWordOffset(span.sql)) - 1];
      const statement: WalkedStatement = {
        ...classify(span.sql),
        line,
        macro: MACRO.exec(codeOf(span.sql))?.[1]?.toLowerCase() ?? null,
        ran: false,
      };
      statements.push(statement);
      const made = statement.kind.startsWith('create-') ? statement.target : statement.macro;
      const last = lineOf(span.start + span.sql.length) - 1;
      if (fileLine.slice(first, last + 1).some((l) => unfilled.has(l))) {
        if (made !== null) this.unmade.add(made);
        continue;
      }
      const at = (n: number | null) => (n === null ? line : (fileLine[first + n - 1] ?? line));
      statement.ran = await this.run(file, span.sql, at, made);
    }
    return statements;
  }

  /** Walks one model file: the statements that run once, the for-each query, the first round's statements. */
  async modelFile(dir: string, model: ModelFile, vars: Record<string, string>): Promise<WalkedModelFile> {
    const file = path.join(dir, model.name);
    const statements = await this.part(file, model.name, model.once, 1, vars);
    const repeated = model.repeated;
    if (repeated !== null) {
      if (repeated.forEach !== null) {
        const query = substituted(model.name, repeated.forEach, vars);
        await this.run(file, query, () => repeated.line, null);
      }
      const round = firstRoundVars(repeated.text, vars);
      statements.push(...(await this.part(file, model.name, repeated.text, repeated.line, round)));
    }
    return { name: model.name, file, statements };
  }
}

/**
 * Walks every model file of `dir` in build order on `conn` (an empty DuckDB), placeholders `vars`:
 * the files as walked, and the parse, build and placeholder problems.
 */
export async function walkModels(
  conn: DuckDBConnection,
  dir: string,
  vars: Record<string, string>,
): Promise<{ files: WalkedModelFile[]; problems: Problem[] }> {
  const walk = new Walk(conn);
  const files: WalkedModelFile[] = [];
  for (const name of await modelFiles(dir)) files.push(await walk.modelFile(dir, await readModelFile(name, dir), vars));
  return { files, problems: walk.problems };
}
