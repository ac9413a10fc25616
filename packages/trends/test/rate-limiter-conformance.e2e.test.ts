import { describe, expect, it } from 'vitest';
import { useRedisBackend } from '@trawl/test-support/backends.ts';
import { RedisRateLimiter } from '../src/index.ts';
import { rateLimiterConformance } from './rate-limiter-suite.ts';

const redis = useRedisBackend();

rateLimiterConformance([['redis', (s) => new RedisRateLimiter(redis.conn, redis.prefix(), s)]]);

describe('redis rate limiter', () => {
  it('is one bucket for every limiter on the same prefix (every process of a cluster)', async () => {
    const prefix = redis.prefix();
    const a = new RedisRateLimiter(redis.conn, prefix, { perWindow: 2, windowMs: 1000 });
    const b = new RedisRateLimiter(redis.conn, prefix, { perWindow: 2, windowMs: 1000 });
    expect(await a.take()).toBe(0);
    expect(await b.take()).toBeGreaterThan(400);
  });
});
