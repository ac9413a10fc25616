import { buildBundles, stale } from '../../scripts/build.mjs';

/**
 * The e2e lane's global setup (vitest.config.ts): the gateway and worker bundles that tests' processes run
 * (test/support/processes.ts), built once per test run when a source is newer than them, as `npm start` does. The
 * unit lane starts no process and never waits for it.
 */
export default async function buildOnce(): Promise<void> {
  if (stale()) await buildBundles();
}
