import { parseArgs } from 'node:util';
import { startTrendsSimulator } from './simulator.ts';

// `npm run trends-simulator [-- --port 8090]`: a local Google Trends stand-in to point Trawl at (README "Search trends").
const { values } = parseArgs({
  options: { port: { type: 'string', default: '8090' }, host: { type: 'string', default: '127.0.0.1' }, fixtures: { type: 'string' } },
  strict: true,
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write('--port must be 0-65535\n');
  process.exit(2);
}
const sim = await startTrendsSimulator({ port, host: values.host, fixturesDir: values.fixtures });
process.stdout.write(
  [
    `Google Trends simulator on ${sim.url}`,
    `Point Trawl at it:  TRAWL_TRENDS_BASE_URL=${sim.url} TRAWL_ALLOW_PRIVATE=127.0.0.1/32 npm start`,
    `Script faults:      curl -s -X POST ${sim.url}/__simulator/faults -H 'content-type: application/json' \\`,
    `                      -d '{"endpoint":"explore","fault":{"kind":"status","status":429},"times":2}'`,
    `Calls so far:       curl -s ${sim.url}/__simulator/calls`,
    '',
  ].join('\n'),
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void sim.close().then(() => process.exit(0)));
