/**
 * The net under every reader (core/row.ts `fileFailedRow`): a file whose reading throws anyway (a
 * stack overflow in a walk that was not bounded, a bug) costs that file only, with one `parser:` row
 * naming it, and an own fault goes through. No input is known to trigger it any more (test/hostile/
 * deep-values.test.ts checks that), so a walk of the settings reader is made to overflow here.
 */
import * as path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { OwnFault } from '../../src/core/own-fault.js';
import { fileFailedRow } from '../../src/readers/common/rows.js';
import { readSettings } from '../../src/readers/settings/reader.js';
import { collect, fixture, makeSource } from '../helpers/source.js';

vi.mock('../../src/readers/shapes/settings-permissions.js', async (original) => ({
  ...(await original<typeof import('../../src/readers/shapes/settings-permissions.js')>()),
  // globalState.json's walk overflows after its first row, as the unbounded walk did on a deep file
  *globalStatePermissions() {
    yield { key: 'first', value: 1 };
    throw new RangeError('Maximum call stack size exceeded');
  },
}));

const IMG = fixture('settings', 'img');
const DATA = 'home/u/.cline/data';

describe('a settings file whose reading throws', () => {
  it('costs that file only: its rows so far, one parser row naming it, and every other file', async () => {
    const rows = await collect(readSettings, makeSource({ store: 'settings', imageRoot: IMG, root: path.join(IMG, DATA) }));
    const state = rows.filter((r) => r.source_file === `${DATA}/globalState.json`);
    expect(state.map((r) => [r.kind, r.text])).toEqual([
      ['permission', 'permission setting: first=1 (from .cline/data/globalState.json, file mtime)'],
      [
        'parser',
        'parser: home/u/.cline/data/globalState.json: nested too deeply to read (Maximum call stack size exceeded); the rest of the file not read',
      ],
    ]);
    // The other three files of the store give their rows (test/readers/settings/reader.test.ts counts 3 + 4 + 6).
    expect(rows.length - state.length).toBe(3 + 4 + 6);
  });
});

describe('fileFailedRow', () => {
  const source = makeSource({ store: 'settings', imageRoot: IMG, root: path.join(IMG, DATA) });
  it('says reading failed for any other error', () => {
    expect(fileFailedRow(source, path.join(IMG, DATA, 'globalState.json'), new TypeError('x is not a function')).text).toBe(
      'parser: home/u/.cline/data/globalState.json: reading failed (x is not a function); the rest of the file not read',
    );
  });
  it('throws an own fault on instead of making it a row', () => {
    expect(() =>
      fileFailedRow(source, path.join(IMG, DATA, 'globalState.json'), new OwnFault('load: own temporary folder full', 'ENOSPC')),
    ).toThrow(OwnFault);
  });
});
