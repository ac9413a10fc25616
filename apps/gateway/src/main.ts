import { runProcess } from '@trawl/process';
import { startGateway } from './start.ts';

// `npm start`: the gateway with in-process workers (embedded) or against REDIS_URL (cluster). The banner goes to
// stderr: stdout is the JSON log stream.
await runProcess(async (config) => {
  const g = await startGateway(config);
  const mode = config.REDIS_URL ? 'cluster (Redis)' : 'embedded (in-memory)';
  process.stderr.write(`Trawl listening on ${g.url}  mode: ${mode}\n`);
  if (g.bootstrap?.generatedKey) process.stderr.write(`Development API key: ${g.bootstrap.generatedKey}\n`);
  else if (config.TRAWL_BOOTSTRAP_KEY) process.stderr.write('API key: the value of TRAWL_BOOTSTRAP_KEY\n');
  process.stderr.write(`API docs: ${g.url}/api-docs/public-v1/openapi\n`);
  if (g.runtime.metrics) process.stderr.write(`Metrics: ${g.runtime.metrics.url}/metrics\n`);
  return { stop: () => g.close() };
});
