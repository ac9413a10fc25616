import { startFixtureSite } from '@trawl/test-support/fixture-site.ts';

// A fixture site in its own process, so the benchmark client does not share its event loop.
const site = await startFixtureSite();
process.stdout.write(`${JSON.stringify({ port: site.port })}\n`);
process.on('SIGTERM', () => {
  site.close().then(() => process.exit(0));
});
