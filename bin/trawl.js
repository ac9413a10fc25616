#!/usr/bin/env node
// `npx trawl` (the root package's bin) runs the CLI's bundle, dist/cli.mjs, built first when one of its sources is
// newer than it, as `npm start` does (scripts/build.mjs): through tsx, `trawl --help` took 0.5 to 2 s.
import { BUNDLES, buildBundles, cliStale } from '../scripts/build.mjs';

if (cliStale()) await buildBundles();
// Stack frames of a crash name our TypeScript sources (the CLI's maps are small: no measurable cost).
process.setSourceMapsEnabled(true);
await import(new URL(`../${BUNDLES.cli.out}`, import.meta.url).href);
