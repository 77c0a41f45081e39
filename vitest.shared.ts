import { defineConfig } from 'vitest/config';

/**
 * One vitest configuration for every project. Tests run in forked processes because the
 * engines load native addons (better-sqlite3, chDB) that do not belong in worker threads.
 * Files run one at a time, except apps/leadstream's black-box suites (`--fileParallelism` in its
 * project.json, and the split-pipeline run of .ci/run): each of those has its own data directory,
 * topic prefix, database and ports, and spends most of its time waiting on the servers, so two at
 * once (maxForks) take about two thirds of the time of one after another.
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
