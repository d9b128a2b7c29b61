/**
 * `make lint`'s SQL lint as a command: `node dist/tools/sql-lint/main.js [--sql DIR] [--hunts DIR]`
 * (default: the repository's sql/ and hunts/). One line per problem on stdout, `file:line: rule:
 * message`, and exit 1 when there is any; exit 2 on a bad argument. CONTRIBUTING.md lists the rules.
 */
import { parseArgs } from 'node:util';
import { lintSql, SHIPPED } from './lint.js';
import { problemLine } from './problem.js';

async function main(): Promise<number> {
  let folders = SHIPPED;
  try {
    const { values } = parseArgs({ options: { sql: { type: 'string' }, hunts: { type: 'string' } } });
    folders = { sql: values.sql ?? SHIPPED.sql, hunts: values.hunts ?? SHIPPED.hunts };
  } catch (err) {
    process.stderr.write(`sql-lint: ${(err as Error).message}\n`);
    return 2;
  }
  const problems = await lintSql(folders);
  for (const p of problems) process.stdout.write(`${problemLine(p)}\n`);
  process.stderr.write(problems.length === 0 ? 'sql-lint: no problem\n' : `sql-lint: ${problems.length} problem(s)\n`);
  return problems.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    process.stderr.write(`sql-lint: ${err.message}\n`);
    process.exit(1);
  },
);
