import { describe, expect, it } from 'vitest';
import { useRedisBackend } from '@trawl/test-support/backends.ts';
import { RedisCrawlStore } from '../src/index.ts';
import { req } from './crawl-fixtures.ts';
import { crawlStoreConformance, plan } from './crawl-store-suite.ts';

const redis = useRedisBackend();

crawlStoreConformance([['redis', () => new RedisCrawlStore(redis.conn, redis.prefix())]]);

describe('redis crawl store', () => {
  it('expiring a crawl leaves none of its keys behind, host queues included', async () => {
    const prefix = redis.prefix();
    const s = new RedisCrawlStore(redis.conn, prefix);
    const p = plan();
    await s.createCrawl(p, [req('http://a.test/1'), req('http://a.test/2'), req('http://b.test/1')]);
    const [l] = (await s.lease(p.crawl_id, 'a.test', 1, 30_000, Date.now())).leases;
    await s.complete(p.crawl_id, l, { kind: 'delivered', item: '{}' }, [], Date.now());
    const keys = () => redis.conn.keys(`${prefix}*`);
    expect((await keys()).length).toBeGreaterThanOrEqual(6); // meta, seen, leases, items, hosts, two queues
    await s.expireCrawl(p.crawl_id, 200);
    await new Promise((r) => setTimeout(r, 300));
    // The listing drops the forgotten crawl's index entries on its way (every write of the index does too).
    expect(await s.listCrawls({ limit: 10 })).toEqual([]);
    expect(await keys()).toEqual([]);
  });
});
