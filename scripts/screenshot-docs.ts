import { startTestGateway } from '@trawl/test-support/gateway.ts';
import { renderReference } from '@trawl/test-support/reference-page.ts';

/**
 * `node --import tsx scripts/screenshot-docs.ts [out.png]`: renders /docs of a throw-away gateway in Chromium and
 * saves a full-page screenshot (docs/api-reference.png by default), for the README and change notes.
 */
const out = process.argv[2] ?? 'docs/api-reference.png';
const gw = await startTestGateway({ LOG_LEVEL: 'warn', TRAWL_DATA_DIR: ':memory:', TRAWL_WORKERS: '0' });
try {
  const r = await renderReference(gw.url, { screenshot: out, minOperations: 5 });
  process.stderr.write(`${r.title}: ${r.operations.length} operations, ${r.requests.length} requests, ${r.errors.length} errors; wrote ${out}\n`);
} finally {
  await gw.close();
}
process.exit(0);
