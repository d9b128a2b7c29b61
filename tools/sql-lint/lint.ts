/**
 * The SQL lint (`make lint`): every rule over the model files of `sql/` and the hunts of `hunts/`, on
 * one empty in-memory DuckDB. The model files are parsed and run in build order (model-build.ts) and
 * checked against the house rules (model-rules.ts); the hunts' headers are read by the hunt pack's own
 * parser (hunt/pack.ts) and their SELECTs parsed by DuckDB's; both are held to the text rules
 * (text-rules.ts). Whether a hunt binds and returns its columns is test/hunt/pack.test.ts's, on a real
 * warehouse.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { HUNTS_DIR, HuntPackError, parseHunt } from '../../src/hunt/pack.js';
import { openDuckDB } from '../../src/warehouse/duckdb-open.js';
import { placeholders } from '../../src/warehouse/model-run.js';
import { SQL_DIR } from '../../src/warehouse/models-version.js';
import { walkModels } from './model-build.js';
import { commentProblems, fileNameProblems, modelProblems } from './model-rules.js';
import { duckdbError, type Problem, sortedProblems } from './problem.js';
import { sqlWords, textProblems } from './text-rules.js';

/** The folders the lint reads: the model files and the hunt pack. */
export interface LintFolders {
  sql: string;
  hunts: string;
}

export const SHIPPED: LintFolders = { sql: SQL_DIR, hunts: HUNTS_DIR };

/** The `.sql` files of `dir`, sorted. */
async function sqlFilesOf(dir: string): Promise<string[]> {
  return (await fs.readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
}

/** Every problem of the model files and hunts of `folders`, in file and line order; none when all is well. */
export async function lintSql(folders: LintFolders = SHIPPED): Promise<Problem[]> {
  const { instance, conn } = await openDuckDB(':memory:', { threads: '1' });
  try {
    const words = await sqlWords(conn);
    const problems: Problem[] = [];
    const sqlFiles = await sqlFilesOf(folders.sql);
    const huntFiles = await sqlFilesOf(folders.hunts);
    for (const [dir, names] of [
      [folders.sql, sqlFiles],
      [folders.hunts, huntFiles],
    ] as const) {
      for (const name of names) {
        const file = path.join(dir, name);
        problems.push(...textProblems(file, await fs.readFile(file, 'utf8'), words));
      }
    }
    // the build over no data: no partition file, no run record
    const vars = placeholders(path.join(folders.sql, 'no-out'), { parquet: [], inventory: [], secrets: [] }, false);
    const walked = await walkModels(conn, folders.sql, vars);
    problems.push(...walked.problems, ...fileNameProblems(folders.sql, sqlFiles, walked.files), ...modelProblems(walked.files));
    problems.push(...(await commentProblems(conn, walked.files)));
    for (const name of huntFiles) {
      const file = path.join(folders.hunts, name);
      const text = await fs.readFile(file, 'utf8');
      try {
        parseHunt(text, file);
      } catch (err) {
        if (!(err instanceof HuntPackError)) throw err;
        problems.push({ file, line: 1, rule: 'hunt-header', message: err.message.replace(`hunt ${file}: `, '') });
      }
      try {
        await conn.extractStatements(text);
      } catch (err) {
        const e = duckdbError(err);
        problems.push({ file, line: e.line ?? 1, rule: 'parse', message: e.message });
      }
    }
    return sortedProblems(problems);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
