import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // CLINETRAIL_TEST_RETIRE_GRACE_MS: test-only, see src/load/retire.ts
    env: { TZ: 'UTC', CLINETRAIL_TEST_RETIRE_GRACE_MS: '0' },
  },
});
