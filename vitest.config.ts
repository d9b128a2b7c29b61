import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // a guard against a hang, not a measure: a load with the hunt pack on a shared 2-core machine at a load
    // average of 15 took past 120 s where it takes 20 s alone
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // vitest's default is one worker per core less one: a single worker on these 2-core machines, where
    // most of a test's time is a CLI child process and its I/O. Two at a time are faster (docs/BENCHMARKS.md "Behind the code").
    maxWorkers: 2,
    // CLINETRAIL_TEST_RETIRE_GRACE_MS: test-only, see src/load/retire.ts
    env: { TZ: 'UTC', CLINETRAIL_TEST_RETIRE_GRACE_MS: '0' },
  },
});
