import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    // The bundles of scripts/build.mjs, which spawned gateway and worker processes run.
    globalSetup: ['test/support/build-setup.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Tests start real servers (redis-server, Chromium, fixture sites); two cores, so keep files in parallel low.
    maxWorkers: 2,
  },
});
