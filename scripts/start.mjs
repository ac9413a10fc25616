// `npm start` and `npm run worker`: builds the bundle when a source is newer than it (scripts/build.mjs), then runs
// it in this process, so signals reach the process that handles them.
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BUNDLES, buildBundles, stale } from './build.mjs';

const which = process.argv[2];
const STARTS = ['gateway', 'worker']; // the CLI's bundle runs from bin/trawl.js
const bundle = STARTS.includes(which) ? BUNDLES[which] : undefined;
if (!bundle) {
  process.stderr.write(`usage: node scripts/start.mjs ${STARTS.join('|')}\n`);
  process.exit(2);
}
if (stale()) await buildBundles();
// Stack frames of fault logs name our TypeScript sources, not lines of the bundle.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), '..', bundle.out)).href);
