import { loadConfig } from '@trawl/config';
import { startGateway } from '../../apps/gateway/src/start.ts';

// The gateway as `npm start` runs it (embedded mode, info logs to a pipe), announcing its URL as JSON.
const g = await startGateway(loadConfig());
process.stdout.write(`${JSON.stringify({ url: g.url })}\n`);
process.on('SIGTERM', () => {
  g.close().then(() => process.exit(0));
});
