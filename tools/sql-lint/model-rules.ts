/**
 * The SQL lint's house rules for the model files of `sql/` (docs/ARCHITECTURE.md "SQL models"), read from
 * the statements the walk met (model-build.ts) and the catalog it left:
 * - file-name: every `.sql` file is named `NN_<model>.sql` (the runner skips any other), and no two share
 *   a number: the numbers are the build order;
 * - model: a file creates exactly the model it is named after and no relation another file makes, drops
 *   none another made, and inserts only into its own; or it holds only macros (`00_out_files`,
 *   `NN_*_macros`); or, named `NN_<model>_<part>.sql`, it adds rows to that earlier model (and to other
 *   earlier ones: sql/23's hub_search), creating only tables it drops again;
 * - comment: every table and view, int_ models too, and each of their columns has a `comment on`.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import * as path from 'node:path';
import { readCatalog } from '../../src/mcp/list-tables.js';
import type { WalkedModelFile, WalkedStatement } from './model-build.js';
import type { Problem } from './problem.js';

/** The model a file is named after: `NN_<model>.sql`. */
const modelOf = (name: string) => name.replace(/^\d\d_/, '').replace(/\.sql$/, '');

/** file-name: the `.sql` files of `dir` the runner skips, and the numbers two files share. */
export function fileNameProblems(dir: string, sqlFiles: string[], models: WalkedModelFile[]): Problem[] {
  const problems: Problem[] = [];
  const run = new Set(models.map((m) => m.name));
  for (const name of sqlFiles.filter((f) => !run.has(f)))
    problems.push({
      file: path.join(dir, name),
      line: 1,
      rule: 'file-name',
      message: 'not named NN_<model>.sql: the build never runs it',
    });
  const byNumber = new Map<string, string>();
  for (const { name, file } of models) {
    const number = name.slice(0, 2);
    const other = byNumber.get(number);
    if (other !== undefined)
      problems.push({
        file,
        line: 1,
        rule: 'file-name',
        message: `shares its number with ${other}: the numbers are the build order`,
      });
    else byNumber.set(number, name);
  }
  return problems;
}

/** The relations a file's statements create and keep (a table the same file drops is its own scratch). */
function keptCreates(statements: WalkedStatement[]): WalkedStatement[] {
  const dropped = new Set(statements.filter((s) => s.kind === 'drop-table').map((s) => s.target));
  return statements.filter((s) => (s.kind === 'create-table' || s.kind === 'create-view') && !dropped.has(s.target));
}

/** model: each file creates the model it is named after, and touches no other file's relation. */
export function modelProblems(models: WalkedModelFile[]): Problem[] {
  const problems: Problem[] = [];
  /** The file that made each relation so far. */
  const madeBy = new Map<string | null, string>();
  const maker = (target: string | null) => madeBy.get(target) ?? 'no file';
  for (const { name, file, statements } of models) {
    const model = modelOf(name);
    const add = (line: number, message: string) => problems.push({ file, line, rule: 'model', message });
    const creates = keptCreates(statements);
    for (const s of creates) {
      if (madeBy.has(s.target)) add(s.line, `creates ${s.target}, which ${maker(s.target)} already made`);
      else if (s.target !== model) add(s.line, `creates ${s.target}: a file creates only the model it is named after (${model})`);
    }
    const own = new Set(statements.filter((s) => s.kind.startsWith('create-')).map((s) => s.target));
    const inserts = statements.filter((s) => s.kind === 'insert' && !own.has(s.target));
    // NN_<model>_<part>.sql creates nothing to keep and adds rows to that earlier model (and other earlier ones)
    const adds = creates.length === 0 && inserts.some((s) => madeBy.has(s.target) && model.startsWith(`${s.target}_`));
    if (!adds)
      for (const s of inserts)
        add(s.line, `inserts into ${s.target}, which ${maker(s.target)} made: only NN_${s.target}_<part>.sql adds to it`);
    for (const s of statements.filter((s) => s.kind === 'drop-table' && !own.has(s.target)))
      add(s.line, `drops ${s.target}, which ${maker(s.target)} made`);
    if (creates.length === 0 && inserts.length === 0 && !statements.some((s) => s.macro !== null))
      add(statements[0]?.line ?? 1, `creates neither the model ${model} nor macros`);
    for (const s of creates) if (!madeBy.has(s.target)) madeBy.set(s.target, name);
  }
  return problems;
}

/** comment: every table and view the files made, and each column, has a `comment on`. */
export async function commentProblems(conn: DuckDBConnection, models: WalkedModelFile[]): Promise<Problem[]> {
  /** Where each relation is created: the file and line of its (last) create statement. */
  const createdAt = new Map<string, { file: string; line: number }>();
  for (const { file, statements } of models)
    for (const s of statements)
      if (s.ran && s.target !== null && s.kind.startsWith('create-')) createdAt.set(s.target, { file, line: s.line });
  const problems: Problem[] = [];
  for (const table of await readCatalog(conn, null, true)) {
    const at = createdAt.get(table.name.toLowerCase());
    if (at === undefined) continue;
    const missing = (what: string) => problems.push({ ...at, rule: 'comment', message: `no comment on ${what}` });
    if (!table.comment?.trim()) missing(`${table.kind} ${table.name}`);
    for (const column of table.columns) if (!column.comment?.trim()) missing(`column ${table.name}.${column.name}`);
  }
  return problems;
}
