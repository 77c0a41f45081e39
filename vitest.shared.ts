import { defineConfig } from 'vitest/config';

/**
 * One vitest configuration for every project. Tests run in forked processes because the
 * engines load native addons (better-sqlite3, chDB) that do not belong in worker threads.
 */
export default defineConfig({
  test: {
    include: ['src/**/*.spec.ts'],
    pool: 'forks',
    poolOptions: { forks: { singleFork: false, maxForks: 2 } },
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
