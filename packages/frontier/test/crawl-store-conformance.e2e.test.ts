import { describe, expect, it } from 'vitest';
import { lIndexBuffer } from '@trawl/redis';
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

  it('keeps a delivered item compressed, reads it back whole, and still reads an item stored as JSON text by an older version', async () => {
    const prefix = redis.prefix();
    const s = new RedisCrawlStore(redis.conn, prefix);
    const p = plan();
    await s.createCrawl(p, [req('http://a.test/1'), req('http://a.test/2')]);
    const { leases } = await s.lease(p.crawl_id, 'a.test', 2, 30_000, Date.now());
    const item = JSON.stringify({ url: 'http://a.test/1', content: { markdown: 'The harbour at dawn. '.repeat(500) } });
    await s.complete(p.crawl_id, leases[0], { kind: 'delivered', item }, [], Date.now());
    const items = `${prefix}crawl:{${p.crawl_id}}:items`;
    const stored = await lIndexBuffer(redis.conn, items, 0);
    expect(stored!.length).toBeLessThan(item.length / 10);
    expect(await s.item(p.crawl_id, 0)).toBe(item);

    const older = JSON.stringify({ url: 'http://a.test/2', title: 'Stored before compression: é ✓' });
    await redis.conn.rPush(items, older);
    expect(await s.items(p.crawl_id, 0, 10)).toEqual([item, older]);
    expect(await s.item(p.crawl_id, 1)).toBe(older);
  });
});
