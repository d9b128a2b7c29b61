/**
 * The code version that decides a re-read (core/code-version.ts, load/state.ts loaderVersion) covers
 * every module that shapes rows, in every stage and whatever folder it sits in, and nothing else: a
 * partition written by other code is read again, so a warehouse never mixes rows of two code versions.
 */
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleGraphVersion } from '../../src/core/code-version.js';
import { ROW_SHAPING_ENTRIES } from '../../src/load/state.js';
import { captureCommandLine } from '../helpers/command-line.js';
import { REPO } from '../helpers/source.js';

/** One module of each stage that shapes rows, and modules that do not (the CLI's output, the warehouse). */
const ROW_SHAPING = [
  'core/records',
  'core/row',
  'evidence/file-chunks',
  'discover/discover',
  'readers/sessions-db/reader',
  'readers/parse/json-stream',
  'readers/common/values',
  'write/arrow-batch',
  'write/redact-patterns',
  'load/partition',
];
const NOT_ROW_SHAPING = ['cli/format', 'warehouse/query-sandbox'];
/** One module per stage for the loads (each load costs a CLI start and a warehouse build). */
const ONE_PER_STAGE = [
  'core/records',
  'evidence/file-chunks',
  'discover/discover',
  'readers/common/values',
  'write/arrow-batch',
  'load/partition',
];

const work = mkdtempSync(path.join(os.tmpdir(), 'clinetrail-code-version-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the loader version, on a copy of the sources', () => {
  const src = path.join(work, 'src');
  beforeAll(() => cpSync(path.join(REPO, 'src'), src, { recursive: true }));
  const version = () => moduleGraphVersion(src, ROW_SHAPING_ENTRIES);

  it.each(ROW_SHAPING)('changes when %s.ts changes', async (module) => {
    const before = await version();
    const file = path.join(src, `${module}.ts`);
    const text = readFileSync(file, 'utf8');
    appendFileSync(file, '\n// edited\n');
    try {
      expect(await version()).not.toBe(before);
    } finally {
      writeFileSync(file, text);
    }
    expect(await version()).toBe(before);
  });

  it.each(NOT_ROW_SHAPING)('stays when %s.ts changes', async (module) => {
    const before = await version();
    const file = path.join(src, `${module}.ts`);
    const text = readFileSync(file, 'utf8');
    appendFileSync(file, '\n// edited\n');
    try {
      expect(await version()).toBe(before);
    } finally {
      writeFileSync(file, text);
    }
  });

  it('still covers a helper moved into a new subfolder', async () => {
    const from = path.join(src, 'readers', 'settings', 'cloud.ts');
    const to = path.join(src, 'readers', 'settings', 'parts', 'cloud.ts');
    const importer = path.join(src, 'readers', 'settings', 'reader.ts');
    const [helper, importing] = [readFileSync(from, 'utf8'), readFileSync(importer, 'utf8')];
    const before = await version();
    try {
      mkdirSync(path.dirname(to));
      writeFileSync(to, helper.replaceAll("from '../", "from '../../").replaceAll("from './", "from '../"));
      rmSync(from);
      writeFileSync(importer, importing.replace("'./cloud.js'", "'./parts/cloud.js'"));
      const moved = await version();
      expect(moved).not.toBe(before);
      appendFileSync(to, '\n// edited\n');
      expect(await version()).not.toBe(moved);
    } finally {
      rmSync(path.dirname(to), { recursive: true, force: true });
      writeFileSync(from, helper);
      writeFileSync(importer, importing);
    }
    expect(await version()).toBe(before);
  });
});

describe('a load with one module of a stage changed reads every partition again', () => {
  // A copy of the built CLI (dist/src, sql/, package.json) that the test may edit; node_modules linked.
  const root = path.join(work, 'copy');
  const out = path.join(work, 'out');
  const host = `lnx-u01=${path.join(REPO, 'fixtures', 'fleet', 'lnx-u01')}`;
  // The copy's own command line, run in this process: the version is hashed from the module files on
  // disk at each load (as a new process after an upgrade would), not from the modules loaded here.
  const load = async () => {
    const { runCommandLine } = (await import(
      pathToFileURL(path.join(root, 'dist', 'src', 'cli', 'commands.js')).href
    )) as typeof import('../../src/cli/commands.js');
    const { code, stderr } = await captureCommandLine(runCommandLine, [
      'load',
      '--host',
      host,
      '--out',
      out,
      '--log-format',
      'json',
    ]);
    expect(code, stderr).toBe(0);
    const events = stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; unchanged?: boolean; reason?: string });
    const partitions = events.filter((e) => e.event === 'partition');
    return {
      written: partitions.filter((e) => !e.unchanged),
      unchanged: partitions.filter((e) => e.unchanged),
      total: partitions.length,
    };
  };

  beforeAll(async () => {
    if (!existsSync(path.join(REPO, 'dist', 'src', 'cli', 'main.js'))) throw new Error('dist/ is not built: run make test');
    cpSync(path.join(REPO, 'dist', 'src'), path.join(root, 'dist', 'src'), { recursive: true });
    cpSync(path.join(REPO, 'sql'), path.join(root, 'sql'), { recursive: true });
    cpSync(path.join(REPO, 'package.json'), path.join(root, 'package.json'));
    symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
    const first = await load();
    expect(first.total).toBeGreaterThan(3);
    expect(first.unchanged).toEqual([]);
  });

  it.each(ONE_PER_STAGE)('%s changed: every partition read again, each for "code changed"', async (module) => {
    appendFileSync(path.join(root, 'dist', 'src', `${module}.js`), '\n// edited\n');
    const run = await load();
    expect(run.unchanged).toEqual([]);
    expect(run.written.length).toBe(run.total);
    expect(new Set(run.written.map((e) => e.reason))).toEqual(new Set(['code changed']));
  });

  it.each(['cli/format'])('%s changed: no partition read again', async (module) => {
    appendFileSync(path.join(root, 'dist', 'src', `${module}.js`), '\n// edited\n');
    const run = await load();
    expect(run.written).toEqual([]);
    expect(run.unchanged.length).toBe(run.total);
  });
});
