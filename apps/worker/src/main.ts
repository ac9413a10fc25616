import { createRuntime, runProcess, runtimeFaultLog, startTrendsRunners, startWorkers } from '@trawl/process';

// `npm run worker`: one worker actor process against the shared Redis (REDIS_URL is required).
await runProcess(async (config) => {
  if (!config.REDIS_URL) {
    process.stderr.write('npm run worker needs REDIS_URL (embedded mode runs its workers inside `npm start`)\n');
    process.exit(2);
  }
  const runtime = await createRuntime(config, { name: 'trawl-worker' });
  // One JSON line per fault (no URLs, headers or bodies); a Redis outage is logged when it begins and ends.
  const onError = runtimeFaultLog(runtime);
  const workers = startWorkers(runtime, Math.max(1, config.TRAWL_WORKERS ?? 1), onError);
  const trendsRunners = startTrendsRunners(runtime, 1, onError);
  process.stdout.write(
    `${JSON.stringify({ msg: 'trawl worker started', workers: workers.map((w) => w.id), trends_runners: trendsRunners.map((r) => r.id), pid: process.pid, metrics: runtime.metrics?.url ?? null })}\n`,
  );
  return {
    // Graceful: in-flight pages finish, shards and buffered leases go back at once; trends jobs in flight go back
    // to the queue for another worker.
    async stop() {
      await Promise.all([...workers.map((w) => w.stop()), ...trendsRunners.map((r) => r.stop())]);
      await runtime.close();
    },
  };
});
