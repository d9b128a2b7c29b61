/**
 * `make check`'s test run: the in-process unit suites, which spawn no CLI and build no warehouse, so the
 * inner loop of a change stays near a minute (CONTRIBUTING.md). `make test` runs vitest.config.ts, which
 * holds these and every other suite.
 */
import { configDefaults, defineConfig } from 'vitest/config';
import full from './vitest.config.js';

export default defineConfig({
  ...full,
  test: {
    ...full.test,
    include: [
      'test/{core,evidence,discover,readers,write}/**/*.test.ts',
      'test/collect/*-emulation.test.ts',
      'test/cli/help.test.ts',
      'test/load/progress.test.ts',
    ],
    // In those folders but a load and a warehouse each: `make test` runs them.
    exclude: [
      ...configDefaults.exclude,
      'test/readers/{checkpoints,cli-notices,cline-logs,unread}.test.ts',
      'test/write/secrets.test.ts',
    ],
  },
});
