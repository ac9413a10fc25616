import { ConfigError, loadConfig } from '@trawl/config';
import { startGateway } from './start.ts';

// `npm start`: the gateway with in-process workers (embedded) or against REDIS_URL (cluster).
try {
  const config = loadConfig();
  const g = await startGateway(config);
  const mode = config.REDIS_URL ? 'cluster (Redis)' : 'embedded (in-memory)';
  process.stdout.write(`Trawl listening on ${g.url}  mode: ${mode}\n`);
  if (g.bootstrap?.generatedKey) process.stdout.write(`Development API key: ${g.bootstrap.generatedKey}\n`);
  else if (config.TRAWL_BOOTSTRAP_KEY) process.stdout.write('API key: the value of TRAWL_BOOTSTRAP_KEY\n');
  process.stdout.write(`API docs: ${g.url}/api-docs/public-v1/openapi\n`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      g.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  throw err;
}
