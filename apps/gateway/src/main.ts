import { resolve } from 'node:path';
import { redisTarget } from '@trawl/config';
import { IN_MEMORY, runProcess } from '@trawl/process';
import { startGateway } from './start.ts';

// `npm start`: the gateway with in-process workers (embedded) or against REDIS_URL or REDIS_CLUSTER_NODES (cluster). The banner goes to
// stderr: stdout is the log stream (README "Logging").
await runProcess('trawl-gateway', async (config, log) => {
  const g = await startGateway(config, { log });
  const target = redisTarget(config);
  const mode = target ? ('url' in target ? 'cluster (Redis)' : 'cluster (Redis Cluster)') : config.TRAWL_DATA_DIR === IN_MEMORY ? 'embedded (in memory)' : `embedded (data directory ${resolve(config.TRAWL_DATA_DIR)})`;
  process.stderr.write(`Trawl listening on ${g.url}  mode: ${mode}\n`);
  if (g.bootstrap?.generatedKey) process.stderr.write(`Development API key: ${g.bootstrap.generatedKey}\n`);
  else if (config.TRAWL_BOOTSTRAP_KEY) process.stderr.write('API key: the value of TRAWL_BOOTSTRAP_KEY\n');
  process.stderr.write(`API reference: ${g.url}/docs  (OpenAPI document: ${g.url}/api-docs/public-v1/openapi; admin API: ${g.url}/docs/admin)\n`);
  if (g.runtime.metrics) process.stderr.write(`Metrics: ${g.runtime.metrics.url}/metrics\n`);
  log.info({ mode: target ? 'cluster' : 'embedded', workers: g.workers.map((w) => w.id), trends_runners: g.trendsRunners.length }, 'gateway started');
  return { stop: () => g.close() };
});
