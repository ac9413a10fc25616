import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keySlot, sendCommand } from '../src/index.ts';
import { useRedisCluster } from '@trawl/test-support/redis-cluster.ts';

const redis = useRedisCluster({ masters: 3, replicasPerMaster: 0 });

describe('keySlot', () => {
  it('agrees with CLUSTER KEYSLOT on hash tags, empty and unclosed tags, and any text', async () => {
    const fixed = ['', 'a', 'foo', '{user1000}.following', 'foo{}{bar}', 'foo{{bar}}zap', 'foo{bar}{zap}', '{', '}{', 'crawl:{crawl_x}:meta', 'héllo'];
    const random = fc.sample(fc.string({ unit: 'binary', maxLength: 40 }), 200);
    for (const key of [...fixed, ...random]) {
      expect(keySlot(key), JSON.stringify(key)).toBe(Number(await sendCommand(redis.conn, ['CLUSTER', 'KEYSLOT', key])));
    }
  });
});
