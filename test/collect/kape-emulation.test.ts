/**
 * The KAPE emulation of kape-emulation.ts on a small image, rule by rule as KapeDocs states them
 * (Pages/2.1-Targets.md, the changelog): `%user%` is `*`, a `*` stands for one or more characters of a
 * folder or file name, names match whatever their case, `FileMask` matches the whole name (`regex:` too),
 * `Recursive` takes the folders below, and a compound target takes in the targets it names.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type KapeEntry, kapeSelect, readKapeTarget } from './kape-emulation.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-kape-emulation-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const image = path.join(root, 'image');
for (const rel of [
  'C/Users/alice/OneDrive/Documents/Cline/a.json',
  'C/Users/alice/OneDrive - Contoso/Documents/Cline/b.json',
  'C/Users/BOB/.cline/data/deep/er/c.db',
  'C/Users/BOB/.cline/top.txt',
  'C/Users/BOB/.cline/data/d.log',
  'home/u/.cline/data/e.json',
]) {
  mkdirSync(path.dirname(path.join(image, rel)), { recursive: true });
  writeFileSync(path.join(image, rel), rel);
}
const entry = (p: string, fileMask = '*', recursive = false): KapeEntry => ({
  file: 'x',
  name: 'x',
  path: p,
  recursive,
  fileMask,
});
const select = (e: KapeEntry) => [...kapeSelect(image, e)].sort();

describe('the KAPE emulation', () => {
  it('takes %user% and * as one or more characters of a name, in any case, on the image C folder only', () => {
    expect(select(entry('C:\\Users\\%user%\\OneDrive*\\Documents\\Cline\\'))).toEqual([
      'C/Users/alice/OneDrive - Contoso/Documents/Cline/b.json',
    ]);
    expect(select(entry('C:\\users\\%USER%\\.CLINE\\'))).toEqual(['C/Users/BOB/.cline/top.txt']);
  });

  it('takes the folders below with Recursive, and matches FileMask against whole names', () => {
    expect(select(entry('C:\\Users\\%user%\\.cline\\data\\', '*', true))).toEqual([
      'C/Users/BOB/.cline/data/d.log',
      'C/Users/BOB/.cline/data/deep/er/c.db',
    ]);
    expect(select(entry('C:\\Users\\%user%\\.cline\\data\\', '*.db', true))).toEqual(['C/Users/BOB/.cline/data/deep/er/c.db']);
    expect(select(entry('C:\\Users\\%user%\\.cline\\data\\', 'regex:d\\.(log|txt)', true))).toEqual([
      'C/Users/BOB/.cline/data/d.log',
    ]);
    expect(select(entry('C:\\Users\\%user%\\.cline\\data\\', 'regex:\\.log', true))).toEqual([]);
  });

  it('takes in the entries of a target a compound target names, and lists those not beside it', () => {
    const dir = path.join(root, 'targets');
    mkdirSync(dir);
    writeFileSync(
      path.join(dir, 'Inner.tkape'),
      'Targets:\n    -\n        Name: inner\n        Category: Apps\n        Path: C:\\x\\\n',
    );
    writeFileSync(
      path.join(dir, 'Outer.tkape'),
      'Targets:\n    -\n        Name: a\n        Category: Apps\n        Path: Inner.tkape\n    -\n        Name: b\n        Category: Apps\n        Path: Elsewhere.tkape\n',
    );
    const outer = readKapeTarget(path.join(dir, 'Outer.tkape'));
    expect(outer.entries.map((e) => [e.name, e.path, e.recursive, e.fileMask])).toEqual([['inner', 'C:\\x\\', false, '*']]);
    expect(outer.external).toEqual(['Elsewhere.tkape']);
  });
});
