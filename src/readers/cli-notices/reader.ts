/**
 * `cli-notices` store: `~/.cline/data/settings/cli-notices.json`, where the interactive CLI records
 * which of its notices it has shown (apps/cli/src/kanban-migration/notice.ts at cline-formats H).
 *
 * Shape: `{shown: {"<notice id>": true}}`, pretty JSON, rewritten whole by
 * `markClineCliMigrationNoticeShown` when a notice is shown; at H the one notice is the ClinePass
 * intro `cline-cli-cline-pass-intro`, shown once, in a full terminal, to a user whose provider is not
 * ClinePass. So the file says the CLI ran interactively on this home, and its mtime is when the last
 * notice was marked shown (the file records no time of its own).
 *
 * One `notice` system row per entry of `shown`, in key order, at the file's mtime:
 * `cli notice: <id> shown=true (from .cline/data/settings/cli-notices.json, file mtime)`. A value that is
 * not a boolean (Cline skips it) and a file without a `shown` object are `parser:` rows.
 */
import { promises as fs } from 'node:fs';
import type { Row, Source } from '../../core/row.js';
import type { Reader } from '../common/rows.js';
import { eachFile, parserRow, rowFor } from '../common/rows.js';
import { readJsonFile } from '../parse/json-file.js';
import { homePath } from '../common/home-path.js';
import { label, plainObject } from '../common/values.js';

/** One `notice` row per shown entry; see the module comment. */
export const readCliNotices: Reader = eachFile(readNoticesFile);

async function* readNoticesFile(source: Source, file: string): AsyncGenerator<Row> {
  const result = await readJsonFile(file);
  if (!result.ok) {
    yield parserRow(source, file, null, result.message);
    return;
  }
  if (result.repair) yield parserRow(source, file, null, result.repair);
  const shown = plainObject(plainObject(result.value)?.shown);
  if (!shown) {
    yield parserRow(source, file, null, 'not a JSON object with a shown object');
    return;
  }
  const mtimeMs = await fs.stat(file).then(
    (st) => Math.trunc(st.mtimeMs),
    () => null,
  );
  const from = homePath(source, file);
  let position = 0;
  for (const [id, value] of Object.entries(shown)) {
    position += 1;
    if (typeof value !== 'boolean') {
      yield { ...parserRow(source, file, null, `notice ${id}: ${label(value)} is not true or false`), source_line: position };
      continue;
    }
    yield rowFor(source, file, {
      source_line: position,
      timestamp_utc: mtimeMs,
      timestamp_source: 'file_mtime',
      turn_type: 'system',
      kind: 'notice',
      text: `cli notice: ${id} shown=${value} (from ${from}, file mtime)`,
    });
  }
}
