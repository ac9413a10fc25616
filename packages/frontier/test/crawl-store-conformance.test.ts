import { describe, expect, it } from 'vitest';
import { randomPrefix, useKvBackends, useLmdbKvs } from '@trawl/test-support/backends.ts';
import { KvCrawlStore } from '../src/index.ts';
import { req } from './crawl-fixtures.ts';
import { crawlStoreConformance, plan } from './crawl-store-suite.ts';

const kvBackends = useKvBackends();
const lmdbKv = useLmdbKvs();

crawlStoreConformance(kvBackends.map(([name, open]) => [name, () => new KvCrawlStore(open(), randomPrefix())]));

describe.each(kvBackends)('Kv crawl store on %s', (_name, tempKv) => {
  it('expiring a crawl leaves none of its keys behind once swept, host queues, seen-set and index included', async () => {
    const kv = tempKv();
    const prefix = randomPrefix();
    const s = new KvCrawlStore(kv, prefix);
    const p = plan();
    await s.createCrawl(p, [req('http://a.test/1'), req('http://a.test/2'), req('http://b.test/1')]);
    const [l] = (await s.lease(p.crawl_id, 'a.test', 1, 30_000, Date.now())).leases;
    await s.complete(p.crawl_id, l, { kind: 'delivered', item: '{}' }, [req('http://c.test/1', 1)], Date.now());
    const keys = () => kv.transact((tx) => [...tx.range({ prefix })].length);
    const before = keys();
    expect(before).toBeGreaterThanOrEqual(10);
    await s.expireCrawl(p.crawl_id, 200);
    // The index gained its entry of crawls being forgotten; no key of the crawl was rewritten.
    expect(keys()).toBe(before + 1);
    await new Promise((r) => setTimeout(r, 300));
    // Gone at once for every read...
    expect(await s.getCrawl(p.crawl_id)).toBeNull();
    expect(await s.items(p.crawl_id, 0, 10)).toEqual([]);
    expect(await s.item(p.crawl_id, 0)).toBeNull();
    expect(await s.listCrawls({ limit: 10 })).toEqual([]);
    // ...and deleted for space by the sweep, which finds every one of them, and nothing is left to find.
    expect(kv.sweepExpired(10_000)).toBe(before + 1);
    expect(keys()).toBe(0);
    expect(kv.sweepExpired(10_000)).toBe(0);
  });

  it('ending and forgetting a crawl larger than one batch of keys drops and expires every one of them', async () => {
    const kv = tempKv();
    const prefix = randomPrefix();
    const s = new KvCrawlStore(kv, prefix);
    const p = plan({ max_pages: 2_000 });
    await s.createCrawl(p, Array.from({ length: 1_300 }, (_, i) => req(`http://a.test/${i}`)));
    await s.lease(p.crawl_id, 'a.test', 600, 30_000, Date.now());
    expect(await s.transition(p.crawl_id, ['running'], 'failed', Date.now())).toBe(true);
    expect((await s.getCrawl(p.crawl_id))!.counters).toMatchObject({ queued: 0, in_flight: 0, dropped: 1_300 });
    expect(await s.hostLoads(p.crawl_id)).toEqual([{ host: 'a.test', queued: 0, leased: 0, oldest_leased_at: null }]);
    const keys = () => kv.transact((tx) => [...tx.range({ prefix })].length);
    // The seen-set, meta, plan, the host's record and two index entries: no queue entry or lease is left.
    expect(keys()).toBe(1_300 + 5);
    await s.expireCrawl(p.crawl_id, 200);
    await new Promise((r) => setTimeout(r, 300));
    expect(await s.getCrawl(p.crawl_id)).toBeNull();
    // Sweeps of 500 keys, as the sweeper runs them, take the crawl's keys a batch at a time.
    const swept = [];
    for (let n = kv.sweepExpired(500); n > 0; n = kv.sweepExpired(500)) swept.push(n);
    expect(swept).toEqual([500, 500, 306]);
    expect(keys()).toBe(0);
  });

  it('admits URLs longer than a key may be: the seen-set holds their hashes', async () => {
    const s = new KvCrawlStore(tempKv(), randomPrefix());
    const long = `http://a.test/${'x'.repeat(3_000)}`;
    const p = plan();
    await s.createCrawl(p, [req(long), req(long), req(`${long}y`)]);
    expect((await s.getCrawl(p.crawl_id))!.counters.discovered).toBe(2);
    const { leases } = await s.lease(p.crawl_id, 'a.test', 5, 30_000, Date.now());
    expect(leases.map((x) => x.request.url)).toEqual([long, `${long}y`]);
    const r = await s.complete(p.crawl_id, leases[0], { kind: 'delivered', item: '{}' }, [req(long, 1), req(`${long}z`, 1)], Date.now());
    expect(r.accepted).toBe(true);
    expect((await s.getCrawl(p.crawl_id))!.counters.discovered).toBe(3);
  });
});

describe('Kv crawl store on LMDB', () => {
  it('expiring a crawl rewrites none of its items: the data file grows by a few pages, not by the items it holds', async () => {
    const kv = lmdbKv();
    const s = new KvCrawlStore(kv, randomPrefix());
    const p = plan({ max_pages: 100 });
    await s.createCrawl(p, Array.from({ length: 50 }, (_, i) => req(`http://a.test/${i}`)));
    const { leases } = await s.lease(p.crawl_id, 'a.test', 50, 30_000, Date.now());
    for (const [i, l] of leases.entries()) await s.complete(p.crawl_id, l, { kind: 'delivered', item: `${i}${'x'.repeat(40_000)}` }, [], Date.now());
    expect((await s.getCrawl(p.crawl_id))!.status).toBe('completed');
    const before = kv.space().fileBytes;
    await s.expireCrawl(p.crawl_id, 60_000);
    // 50 items of 40 KB are 2 MB: rewriting them (as setting each key's expiry did) wrote that much again.
    expect(kv.space().fileBytes - before).toBeLessThan(256 * 1024);
    expect(await s.items(p.crawl_id, 49, 1)).toEqual([`49${'x'.repeat(40_000)}`]);
  });
});
