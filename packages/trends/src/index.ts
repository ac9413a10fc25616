export { createTrendsBackends, type TrendsBackends, type TrendsState } from './backends.ts';
export { KvTrendsJobStore } from './kv/kv-job-store.ts';
export { createTrendsJob, readTrendsJob, type TrendsJobCreate, type TrendsJobRead } from './jobs/job-access.ts';
export {
  listTrendsJobs,
  getTrendsJob,
  ListTrendsJobsInput,
  TrendsJobIdInput,
  type ListTrendsJobsQuery,
  type TrendsJobIdQuery,
  type OperatorTrendsJob,
  type TrendsJobListPage,
} from './jobs/operator-jobs.ts';
export { RedisTrendsJobStore } from './redis/redis-job-store.ts';
export {
  WORKER_LOST,
  type ClaimOptions,
  type TrendsJobRecord,
  type TrendsJobStore,
  type TrendsJobStoreOptions,
  type TrendsLease,
} from './jobs/types.ts';
export { acquire, MemoryRateLimiter, type RateLimitSettings, type UpstreamRateLimiter } from './rate-limit/rate-limiter.ts';
export { RedisRateLimiter } from './redis/redis-rate-limiter.ts';
export { retryDelayMs, shouldRetry, type BackoffSettings } from './retry-policy.ts';
export { TrendsRunner, type TrendsRunnerDeps, type TrendsRunnerSettings } from './runner/trends-runner.ts';
export { normalizeRelatedQueries } from './upstream/normalize.ts';
export { parseJsonBody, pickRelatedQueriesWidget } from './upstream/protocol.ts';
export { TrendsClient, type TrendsClientOptions, type TrendsHttp } from './upstream/trends-client.ts';
export { jobErrorOf, UpstreamError, type TrendsEndpoint, type UpstreamFailure } from './upstream/upstream-error.ts';
