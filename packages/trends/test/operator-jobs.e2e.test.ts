import { useRedisBackend } from '@trawl/test-support/backends.ts';
import { RedisTrendsJobStore } from '../src/index.ts';
import { operatorJobCases } from './operator-jobs-suite.ts';

const redis = useRedisBackend();

operatorJobCases([['redis', () => new RedisTrendsJobStore(redis.conn, redis.prefix())]]);
