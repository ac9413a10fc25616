import { startMatrixSite } from '@trawl/test-support/render-matrix/site.ts';

// The render-fidelity matrix in its own process, so the benchmark client does not share its event loop.
const site = await startMatrixSite();
process.stdout.write(`${JSON.stringify({ port: site.port })}\n`);
process.on('SIGTERM', () => {
  site.close().then(() => process.exit(0));
});
