import { startHostileSite } from '@trawl/test-support/hostile-site.ts';

// The hostile fixture site (test/support/hostile-site.ts) in its own process, announcing its port as JSON.
const site = await startHostileSite();
process.stdout.write(`${JSON.stringify({ port: site.port })}\n`);
process.on('SIGTERM', () => {
  site.close().then(() => process.exit(0));
});
