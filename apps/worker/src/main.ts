import { ConfigError, loadConfig } from '@trawl/config';
import { createRuntime, startWorkers } from '@trawl/runtime';

// `npm run worker`: one worker actor process against the shared Redis (REDIS_URL is required).
try {
  const config = loadConfig();
  if (!config.REDIS_URL) {
    process.stderr.write('npm run worker needs REDIS_URL (embedded mode runs its workers inside `npm start`)\n');
    process.exit(2);
  }
  const runtime = await createRuntime(config, { name: 'trawl-worker' });
  const workers = startWorkers(runtime, Math.max(1, config.TRAWL_WORKERS ?? 1), (err) => {
    process.stderr.write(`${JSON.stringify({ level: 'error', msg: 'worker error', err: String((err as Error).message ?? err) })}\n`);
  });
  process.stdout.write(`${JSON.stringify({ msg: 'trawl worker started', workers: workers.map((w) => w.id), pid: process.pid })}\n`);
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      if (stopping) return;
      stopping = true;
      // Graceful: in-flight pages finish, shards and buffered leases go back at once.
      Promise.all(workers.map((w) => w.stop()))
        .then(() => runtime.close())
        .then(
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
