/**
 * sql/06_stores.sql: the store specification as the `stores` table, and its transcript_regex, the test
 * the models apply to tell a transcript's rows (sql/32 has_transcript, sql/14 SDK model rows).
 */
import { describe, expect, it } from 'vitest';
import { files, useModelDbs } from '../helpers/models.js';

const open = useModelDbs();

describe('stores', () => {
  it('has one row per store with its role, and discovery among them', async () => {
    const db = await open([]);
    const rows = await db.query(
      `select store, role from stores where store in ('vscode-tasks', 'hooks-log', 'search-index', 'discovery') order by store`,
    );
    expect(rows).toEqual([
      { store: 'discovery', role: 'primary' },
      { store: 'hooks-log', role: 'secondary' },
      { store: 'search-index', role: 'secondary' },
      { store: 'vscode-tasks', role: 'primary' },
    ]);
  });

  it.each([
    ['vscode-tasks', files.uiMessages('1760000000000'), true],
    ['vscode-tasks', files.apiHistory('1760000000000'), true],
    ['vscode-tasks', files.taskMetadata('1760000000000'), false],
    ['vscode-tasks', files.taskHistory(), false],
    ['cline-tasks', files.clineUiMessages('1760000000000'), true],
    ['sdk-sessions', files.sdkMessages('s1'), true],
    ['sdk-sessions', files.sdkMessages('s1', 'agent_1_x'), true],
    ['sdk-sessions', files.sdkManifest('s1'), false],
    ['hooks-log', files.hooksLog(), null],
  ])('%s: %s is a transcript: %s', async (store, file, expected) => {
    const db = await open([]);
    const rows = await db.query(
      `select regexp_matches('${file}', transcript_regex) as is_transcript from stores where store = '${store}'`,
    );
    expect(rows).toEqual([{ is_transcript: expected }]);
  });
});
