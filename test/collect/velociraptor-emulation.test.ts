/**
 * The glob emulation of velociraptor-emulation.ts against Velociraptor's own expectations: the patterns
 * and the mock file system of glob/glob_test.go (Velocidex/velociraptor at cd02ac66), and the hits its
 * golden file glob/fixtures/TestGlobWithContext.golden records for them (the Go-only invalid-UTF-8 case
 * left out). Case-insensitive literals, character classes, brace expansion, `**` with and without a
 * depth, `**` matching no folder before a name but never at the end.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { csvColumn, expandBraces, globHits } from './velociraptor-emulation.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe('the Velociraptor glob emulation', () => {
  it('gives the hits of glob/fixtures/TestGlobWithContext.golden', () => {
    // glob_test.go GetMockFileSystemAccessor: the same tree, folders ending in '/'
    const root = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-glob-golden-'));
    made.push(root);
    const tree = ['bin/bash', 'bin/dash', 'bin/rm', 'usr/bin/diff', 'usr/sbin/X', 'usr/bin/X11/diff', 'usr/bin/X11/X11/diff'];
    tree.push('usr/bin/X11/X11/X11/diff', 'tmp/1/1.txt', 'tmp/1/5/', 'tmp/1/4/', 'tmp/1/3/', 'tmp/1/2/23/', 'tmp/1/2/21/1.txt');
    tree.push('tmp/1/2/21/213/', 'tmp/1/2/21/212/1.txt', 'tmp/1/2/21/211/', 'tmp/1/2/20/');
    for (const p of tree) {
      const full = path.join(root, ...p.split('/'));
      if (p.endsWith('/')) mkdirSync(full, { recursive: true });
      else {
        mkdirSync(path.dirname(full), { recursive: true });
        writeFileSync(full, 'A');
      }
    }
    const golden: Array<[string[], string[]]> = [
      [['/bin/Bash'], ['/bin/bash']],
      [['/bin/[a-b]ash'], ['/bin/bash']],
      [['/bin/[!a-b]ash'], ['/bin/dash']],
      [['/bin/{b,d}ash'], ['/bin/bash', '/bin/dash']],
      [['/usr/**2/diff'], ['/usr/bin/diff', '/usr/bin/X11/diff']],
      [['/usr/**/diff'], ['/usr/bin/diff', '/usr/bin/X11/diff', '/usr/bin/X11/X11/diff', '/usr/bin/X11/X11/X11/diff']],
      [['/usr/**4/diff'], ['/usr/bin/diff', '/usr/bin/X11/diff', '/usr/bin/X11/X11/diff', '/usr/bin/X11/X11/X11/diff']],
      [
        ['/tmp/1/*', '/tmp/1/*/*'],
        ['/tmp/1/1.txt', '/tmp/1/2', '/tmp/1/3', '/tmp/1/4', '/tmp/1/5', '/tmp/1/2/20', '/tmp/1/2/21', '/tmp/1/2/23'],
      ],
      [
        ['/tmp/1/**5'],
        ['/tmp/1/1.txt', '/tmp/1/2', '/tmp/1/3', '/tmp/1/4', '/tmp/1/5', '/tmp/1/2/20', '/tmp/1/2/21', '/tmp/1/2/23'].concat([
          '/tmp/1/2/21/1.txt',
          '/tmp/1/2/21/211',
          '/tmp/1/2/21/212',
          '/tmp/1/2/21/213',
          '/tmp/1/2/21/212/1.txt',
        ]),
      ],
      [['/usr/bin/X11/**/diff'], ['/usr/bin/X11/diff', '/usr/bin/X11/X11/diff', '/usr/bin/X11/X11/X11/diff']],
      [['/bin/bash/**'], []],
      [
        ['/usr/bin', '/usr/*/diff'],
        ['/usr/bin', '/usr/bin/diff'],
      ],
      [['/bin/bash', '/bin/ba*'], ['/bin/bash']],
    ];
    for (const [patterns, want] of golden) {
      const got = new Set(expandBraces(patterns).flatMap((g) => globHits(root, g).map((h) => h.osPath)));
      expect([...got].sort(), patterns.join(' , ')).toEqual([...want].sort());
    }
  });

  it('reads a CSV parameter as Velociraptor does, and refuses a comma left unquoted', () => {
    expect(csvColumn('Glob\n"/a/{b,c}"\n/d/*\n', 'Glob')).toEqual(['/a/{b,c}', '/d/*']);
    expect(() => csvColumn('Glob\n/a/{b,c}\n', 'Glob')).toThrow(/2 fields/);
  });

  it('expands braces as glob.go does: over the whole expression, an empty alternative too', () => {
    expect(expandBraces(['/{bin/ls*,usr*/top}'])).toEqual(['/bin/ls*', '/usr*/top']);
    expect(expandBraces(['C:/Users/*/{,OneDrive*/}Documents/{a,b}'])).toEqual([
      'C:/Users/*/Documents/a',
      'C:/Users/*/OneDrive*/Documents/a',
      'C:/Users/*/Documents/b',
      'C:/Users/*/OneDrive*/Documents/b',
    ]);
  });
});
