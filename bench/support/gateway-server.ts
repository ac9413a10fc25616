import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@trawl/config';
import { startGateway } from '../../apps/gateway/src/start.ts';

// The gateway as `npm start` runs it (embedded mode, info logs to a pipe), announcing its URL as JSON. Embedded
// without a TRAWL_DATA_DIR of the benchmark's: a fresh data directory of its own, removed at exit, so gateways that
// run side by side never share one.
const ownDir = !process.env.TRAWL_DATA_DIR && !process.env.REDIS_URL ? mkdtempSync(join(tmpdir(), 'trawl-bench-data-')) : null;
const g = await startGateway(loadConfig(ownDir ? { ...process.env, TRAWL_DATA_DIR: ownDir } : process.env));
process.stdout.write(`${JSON.stringify({ url: g.url })}\n`);
process.on('SIGTERM', () => {
  g.close().then(() => {
    if (ownDir) rmSync(ownDir, { recursive: true, force: true });
    process.exit(0);
  });
});
