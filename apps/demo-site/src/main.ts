import { parseArgs } from 'node:util';
import { DEMO_SITE_DEFAULT_PORT, startDemoSite } from './demo-site.ts';

// `npm run demo-site [-- --port 8070]`: the bundled demo site the README's quick start fetches and crawls.
const { values } = parseArgs({
  options: { port: { type: 'string', default: String(DEMO_SITE_DEFAULT_PORT) }, host: { type: 'string', default: '127.0.0.1' } },
  strict: true,
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write('--port must be 0-65535\n');
  process.exit(2);
}
let site;
try {
  site = await startDemoSite({ port, host: values.host });
} catch (err) {
  // One line an operator can act on (a port in use), not a stack.
  process.stderr.write(`demo site: cannot listen on ${values.host}:${port}: ${(err as NodeJS.ErrnoException).code ?? String(err)}\n`);
  process.exit(1);
}
process.stdout.write(`Demo site on ${site.url}/  (loopback: start Trawl with TRAWL_ALLOW_PRIVATE=127.0.0.1/32 to fetch it)\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void site.close().then(() => process.exit(0)));
