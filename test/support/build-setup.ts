import { buildBundles, stale } from '../../scripts/build.mjs';

/**
 * Vitest's global setup: the gateway and worker bundles that tests' processes run (test/support/processes.ts),
 * built once per test run when a source is newer than them, as `npm start` does.
 */
export default async function buildOnce(): Promise<void> {
  if (stale()) await buildBundles();
}
