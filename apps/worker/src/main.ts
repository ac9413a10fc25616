import { redisTarget } from '@trawl/config';
import { createRuntime, runProcess, runtimeFaultLog, startTrendsRunners, startWorkers } from '@trawl/process';

// `npm run worker`: one worker actor process against the shared Redis (REDIS_URL or REDIS_CLUSTER_NODES is required). The banner goes
// to stderr: stdout is the log stream (README "Logging").
await runProcess('trawl-worker', async (config, log) => {
  if (!redisTarget(config)) {
    process.stderr.write('npm run worker needs REDIS_URL or REDIS_CLUSTER_NODES (embedded mode runs its workers inside `npm start`)\n');
    process.exit(2);
  }
  const runtime = await createRuntime(config, { name: 'trawl-worker', log });
  // Faults of background work: one line each; a Redis outage is logged when it begins and when it ends.
  const onError = runtimeFaultLog(runtime);
  const workers = startWorkers(runtime, Math.max(1, config.TRAWL_WORKERS ?? 1), onError);
  const trendsRunners = startTrendsRunners(runtime, 1, onError);
  // The crawl engine and the light engine's HTTP library load in the background; "running" means a page or a
  // trends job announced now is taken at once, with nothing left to load inside its deadline.
  await Promise.all([...workers.map((w) => w.loaded()), runtime.light.warm()]);
  const ids = { workers: workers.map((w) => w.id), trends_runners: trendsRunners.map((r) => r.id) };
  process.stderr.write(`Trawl worker running  crawl workers: ${ids.workers.join(',')}  trends runners: ${ids.trends_runners.join(',')}\n`);
  if (runtime.metrics) process.stderr.write(`Metrics: ${runtime.metrics.url}/metrics\n`);
  log.info(ids, 'worker process started');
  return {
    // Graceful: in-flight pages finish, shards and buffered leases go back at once; trends jobs in flight go back
    // to the queue for another worker.
    async stop() {
      await Promise.all([...workers.map((w) => w.stop()), ...trendsRunners.map((r) => r.stop())]);
      await runtime.close();
    },
  };
});
