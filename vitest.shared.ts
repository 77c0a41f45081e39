import { defineConfig } from 'vitest/config';

/**
 * One vitest configuration for every project. Tests run in forked processes because the
 * engines load native addons (better-sqlite3, chDB) that do not belong in worker threads.
 * Files run one at a time, except in the projects that pass `--fileParallelism` (apps/leadstream's
 * black-box suites, apps/api, apps/worker, and the split-pipeline run of .ci/run): each of their
 * files has its own data directory, topic prefix, database and ports (random names, port 0), and
 * much of their time is spent waiting on servers, so two at once (maxForks) take about two thirds
 * of the time of one after another (api 136 s -> 83 s, worker 89 s -> 56 s).
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
