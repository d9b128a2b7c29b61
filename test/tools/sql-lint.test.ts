/**
 * The SQL lint of `make lint` (tools/sql-lint/): clean on the repository's sql/ and hunts/, and on a copy
 * of them with problems planted it reports each one, `file:line: rule: message`, at the line the planted
 * text is on, and nothing else (a statement that fails does not drag the files after it into the report).
 * The command exits 1 with those lines on stdout, 0 on the real tree, 2 on a bad argument.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lintSql } from '../../tools/sql-lint/lint.js';
import { type Problem, problemLine } from '../../tools/sql-lint/problem.js';
import { REPO } from '../helpers/source.js';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'clinetrail-sql-lint-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const MAIN = path.join(REPO, 'dist', 'tools', 'sql-lint', 'main.js');

/** A copy of the repository's sql/ and hunts/ under `work/<name>`. */
function copyTree(name: string): { sql: string; hunts: string } {
  const root = path.join(work, name);
  fs.cpSync(path.join(REPO, 'sql'), path.join(root, 'sql'), { recursive: true });
  fs.cpSync(path.join(REPO, 'hunts'), path.join(root, 'hunts'), { recursive: true });
  return { sql: path.join(root, 'sql'), hunts: path.join(root, 'hunts') };
}

/** The line (from 1) of the first line of `file` that `test` accepts. */
function lineWhere(file: string, test: (line: string) => boolean): number {
  const at = fs.readFileSync(file, 'utf8').split('\n').findIndex(test);
  expect(at, `${file} has the line the test plants on`).toBeGreaterThanOrEqual(0);
  return at + 1;
}

/** Rewrites the first line of `file` that `test` accepts with `edit` (undefined: deletes it); returns the old line. */
function editLine(file: string, test: (line: string) => boolean, edit: (line: string) => string | undefined): string {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const at = lines.findIndex(test);
  expect(at, `${file} has the line the test plants on`).toBeGreaterThanOrEqual(0);
  const old = lines[at];
  const edited = edit(old);
  if (edited === undefined) lines.splice(at, 1);
  else lines[at] = edited;
  fs.writeFileSync(file, lines.join('\n'));
  return old;
}

function lint(folders: { sql: string; hunts: string }, cwd: string) {
  return spawnSync(process.execPath, [MAIN, '--sql', folders.sql, '--hunts', folders.hunts], { cwd, encoding: 'utf8' });
}

describe('the SQL lint', () => {
  it('finds no problem in the repository', async () => {
    expect((await lintSql()).map(problemLine)).toEqual([]);
    const run = lint({ sql: path.join(REPO, 'sql'), hunts: path.join(REPO, 'hunts') }, REPO);
    expect({ code: run.status, stdout: run.stdout }).toEqual({ code: 0, stdout: '' });
  });

  it('reports a broken statement, a column without comment and a misnamed file, each at its line', async () => {
    const tree = copyTree('models');
    // a statement DuckDB cannot parse, in sql/33
    const files = path.join(tree.sql, '33_files.sql');
    const broken = lineWhere(files, (l) => /^select\b/.test(l));
    editLine(
      files,
      (l) => /^select\b/.test(l),
      (l) => l.replace(/^select/, 'selec'),
    );
    // one column comment of sql/38 gone
    const settings = path.join(tree.sql, '38_settings.sql');
    const removed = editLine(
      settings,
      (l) => l.startsWith('comment on column settings.'),
      () => undefined,
    );
    const column = /^comment on column (settings\.\w+) is/.exec(removed)?.[1];
    const settingsCreated = lineWhere(settings, (l) => l.startsWith('create or replace table settings'));
    // sql/40 renamed: it no longer creates the model its name says
    const misnamed = path.join(tree.sql, '40_safety_offs.sql');
    fs.renameSync(path.join(tree.sql, '40_safety_off.sql'), misnamed);
    const safetyCreated = lineWhere(misnamed, (l) => l.startsWith('create or replace table safety_off'));

    const expected: Problem[] = [
      { file: files, line: broken, rule: 'parse', message: 'Parser Error: syntax error at or near "selec"' },
      { file: settings, line: settingsCreated, rule: 'comment', message: `no comment on column ${column}` },
      {
        file: misnamed,
        line: safetyCreated,
        rule: 'model',
        message: 'creates safety_off: a file creates only the model it is named after (safety_offs)',
      },
    ];
    expect(await lintSql(tree)).toEqual(expected);

    const run = lint(tree, path.dirname(tree.sql));
    expect(run.status).toBe(1);
    expect(run.stdout.trimEnd().split('\n')).toEqual([
      `sql/33_files.sql:${broken}: parse: Parser Error: syntax error at or near "selec"`,
      `sql/38_settings.sql:${settingsCreated}: comment: no comment on column ${column}`,
      `sql/40_safety_offs.sql:${safetyCreated}: model: creates safety_off: a file creates only the model it is named after (safety_offs)`,
    ]);
  });

  it('reports the file rules, an unknown placeholder, a relation read before it is made, and a broken hunt', async () => {
    const tree = copyTree('rules');
    // a file the runner would skip, with a tab and trailing blanks
    const skipped = path.join(tree.sql, '7_scratch.sql');
    fs.writeFileSync(skipped, 'select\t1;  \n');
    // two files with one number
    const twin = path.join(tree.sql, '44_more_commands.sql');
    fs.writeFileSync(
      twin,
      "create view more_commands as select 1 as one;\ncomment on view more_commands is 'x';\ncomment on column more_commands.one is 'y';\n",
    );
    // an upper-case keyword beside an upper-case type name, as the files write them (`::VARCHAR`), and a blank at the end
    const rowMacros = path.join(tree.sql, '01_row_macros.sql');
    const upper = lineWhere(rowMacros, (l) => l.includes('::VARCHAR'));
    editLine(
      rowMacros,
      (l) => l.includes('::VARCHAR'),
      (l) => `${l.replace('file_row::VARCHAR', 'cast(file_row AS VARCHAR)')} `,
    );
    // sql/31 reads sessions, which sql/32 makes after it
    const duplicates = path.join(tree.sql, '31_duplicates.sql');
    const early = lineWhere(duplicates, (l) => l.startsWith('where s.duplicate_rule is not null'));
    editLine(
      duplicates,
      (l) => l.startsWith('where s.duplicate_rule is not null'),
      (l) => `${l} and s.host in (select host from sessions)`,
    );
    // a placeholder the runner does not know
    const rawEvents = path.join(tree.sql, '02_raw_events.sql');
    const unknown = lineWhere(rawEvents, (l) => l.includes('{{events_source}}'));
    editLine(
      rawEvents,
      (l) => l.includes('{{events_source}}'),
      (l) => l.replace('{{events_source}}', '{{event_source}}'),
    );
    // a hunt with a bad severity and a clause DuckDB cannot parse
    const hunt = path.join(tree.hunts, 'secret-in-prompt.sql');
    editLine(
      hunt,
      (l) => l.startsWith('-- severity:'),
      () => '-- severity: huge',
    );
    const where = lineWhere(hunt, (l) => l.startsWith('where '));
    editLine(
      hunt,
      (l) => l.startsWith('where '),
      (l) => l.replace('where ', 'where where '),
    );

    expect((await lintSql(tree)).map((p) => [path.basename(p.file), p.line, p.rule])).toEqual([
      ['secret-in-prompt.sql', 1, 'hunt-header'],
      ['secret-in-prompt.sql', where, 'parse'],
      ['01_row_macros.sql', upper, 'keyword-case'],
      ['01_row_macros.sql', upper, 'trailing-space'],
      ['02_raw_events.sql', unknown, 'placeholder'],
      ['44_more_commands.sql', 1, 'file-name'],
      ['7_scratch.sql', 1, 'file-name'],
      ['7_scratch.sql', 1, 'tab'],
      ['7_scratch.sql', 1, 'trailing-space'],
    ]);
    // with the placeholder mended, the files after sql/02 are built, and sql/31's read of sql/32's model fails
    editLine(
      rawEvents,
      (l) => l.includes('{{event_source}}'),
      (l) => l.replace('{{event_source}}', '{{events_source}}'),
    );
    expect((await lintSql(tree)).filter((p) => p.rule === 'build')).toEqual([
      { file: duplicates, line: early, rule: 'build', message: 'Catalog Error: Table with name sessions does not exist!' },
    ]);
  });

  it('exits 2 on an argument it does not know', () => {
    const run = spawnSync(process.execPath, [MAIN, '--sqll', 'x'], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^sql-lint: .*--sqll/);
  });
});
