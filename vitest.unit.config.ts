/**
 * `make check`'s test run: the in-process unit suites, which spawn no CLI and build no warehouse, so the
 * inner loop of a change stays near a minute (CONTRIBUTING.md). `make test` runs vitest.config.ts, which
 * holds these and every other suite, each file in a fresh module registry.
 *
 * Here the files of a worker share one module registry (`isolate: false`): importing src/ again for
 * each file was half of the run (docs/BENCHMARKS.md "make check and make test"). A file that mocks a
 * module (`vi.mock`) would leak its mock into the files after it, so those run isolated, apart.
 */
import { configDefaults, defineConfig } from 'vitest/config';
import full from './vitest.config.js';

const UNIT_FILES = [
  'test/{core,evidence,discover,readers,write}/**/*.test.ts',
  'test/collect/*-emulation.test.ts',
  'test/cli/help.test.ts',
  'test/load/progress.test.ts',
];
/** In those folders but a load and a warehouse each: `make test` runs them. */
const LOADS = [
  'test/readers/{checkpoints,cli-notices,cline-logs}/reader.test.ts',
  'test/readers/unread.test.ts',
  'test/write/secrets.test.ts',
];
/** Files that call vi.mock. */
const MOCKING = ['test/readers/file-failure.test.ts'];

// The settings of vitest.config.ts (timeouts, pool, environment) without its list of files.
const { include: _everyFile, ...settings } = full.test ?? {};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...settings,
          name: 'unit',
          include: UNIT_FILES,
          exclude: [...configDefaults.exclude, ...LOADS, ...MOCKING],
          isolate: false,
        },
      },
      { test: { ...settings, name: 'unit-mocking', include: MOCKING } },
    ],
  },
});
