import { useRedisBackend } from '@trawl/test-support/backends.ts';
import { storeConformance } from './store-suite.ts';
import { redisStores } from './store-backends.ts';

storeConformance(redisStores(useRedisBackend()));
