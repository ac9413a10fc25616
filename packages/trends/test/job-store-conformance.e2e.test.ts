import { useRedisBackend } from '@trawl/test-support/backends.ts';
import { RedisTrendsJobStore } from '../src/index.ts';
import { jobStoreConformance } from './job-store-suite.ts';

const redis = useRedisBackend();

jobStoreConformance([['redis', (opts) => new RedisTrendsJobStore(redis.conn, redis.prefix(), opts)]]);
