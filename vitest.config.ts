import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const TESTS = ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'test/**/*.test.ts'];
const E2E = '**/*.e2e.test.ts';
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Two lanes (README "Development"): `npm run test:unit` runs the unit project alone, `npm test` both.
export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // e2e tests start real servers (redis-server, Chromium, fixture sites); two cores, so keep files in parallel low.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          // Every *.test.ts but *.e2e.test.ts: no child process, no listening socket (the setup file fails them).
          name: 'unit',
          include: TESTS,
          exclude: [...configDefaults.exclude, E2E],
          setupFiles: [here('test/support/unit-lane-guard.ts')],
          // One module graph per worker for all its files (the setup file still runs before each): each file
          // re-importing the content and extraction packages cost about two thirds of the lane's CPU.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // Tests that start a process (redis-server, Chromium, a gateway or worker, any spawn) or listen on a socket.
          name: 'e2e',
          include: TESTS.map((glob) => glob.replace(/\*\.test\.ts$/, '*.e2e.test.ts')),
          // The bundles of scripts/build.mjs, which spawned gateway and worker processes run.
          globalSetup: [here('test/support/build-setup.ts')],
        },
      },
    ],
  },
});
