import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlJob } from '@trawl/contract';
import { keySlot } from '@trawl/redis';
import { allItems, duplicates, sorted, startCrawl, type Caller } from '@trawl/test-support/crawl-client.ts';
import { startCrawlEnv, workerLogs, type CrawlEnv } from '@trawl/test-support/crawl-modes.ts';
import { defineTreeWeb, startCrawlSite, type CrawlSite } from '@trawl/test-support/crawl-site.ts';

/**
 * Issue 31: a Redis Cluster master is killed (-9) in the middle of a crawl with two worker processes. Its replica
 * is promoted after the node timeout; until then the crawl's slot answers nothing. The workers and the gateway ride
 * it out as they ride out a single server's outage, and the crawl completes with every page delivered once.
 */
let site: CrawlSite;
let web: string[];
let env: CrawlEnv;
const HOSTS = ['f0.example.test', 'f1.example.test', 'f2.example.test', 'f3.example.test'];

beforeAll(async () => {
  site = await startCrawlSite();
  // 340 pages, 60 ms each: the crawl is still well under way when the master dies.
  web = defineTreeWeb(site, { hosts: HOSTS, fanout: 4, levels: 3, crossLinks: 3, latencyMs: 60 });
  env = await startCrawlEnv('redis-cluster', { workers: 2 });
}, 90_000);
afterAll(async () => {
  await env?.close();
  await site?.close();
});

describe('a Redis Cluster master killed mid-crawl', () => {
  it("the crawl's master: its replica takes over, and every page is delivered exactly once", async () => {
    const crawl = await startCrawl(env.gw, { urls: [site.url(HOSTS[0])], scope: 'same_domain', max_depth: 10, max_pages: 1000 });
    const health = async () => (await env.gw.call('GET', '/healthz')).json() as Promise<{ status: string; redis_cluster?: unknown }>;
    expect(await health()).toMatchObject({ status: 'ok', redis_cluster: { state: 'ok', masters: 3, masters_answering: 3 } });
    const statuses = new Set<string>();
    await poll(env.gw, crawl.id, (j) => j.progress.pages_completed >= 60, statuses);

    const victim = await env.cluster!.masterPortForSlot(keySlot(`${env.prefix}crawl:{${crawl.id}}:meta`));
    await env.cluster!.kill(victim);

    const done = await poll(env.gw, crawl.id, (j) => ['completed', 'failed', 'cancelled', 'expired'].includes(j.status), statuses, 90_000);
    expect([...statuses].filter((s) => s !== 'running' && s !== 'completed'), workerLogs(env)).toEqual([]);
    expect(done.progress).toMatchObject({ pages_completed: web.length, pages_failed: 0, pages_queued: 0 });
    const urls = (await allItems(env.gw, crawl.id)).map((i) => i.url);
    expect(duplicates(urls)).toEqual([]);
    expect(sorted(urls)).toEqual(sorted(web));
    // The promoted replica serves the slot now; the cluster is whole again without its dead node.
    expect(await env.cluster!.masterPortForSlot(keySlot(`${env.prefix}crawl:{${crawl.id}}:meta`))).not.toBe(victim);
    expect(await health()).toMatchObject({ status: 'ok', redis_cluster: { state: 'ok', masters: 3, masters_answering: 3 } });
  }, 150_000);
});

/**
 * Polls the crawl until `until` holds. While the slot has no master the gateway answers 503 (store unavailable):
 * that is the outage, waited out, not a failure.
 */
async function poll(gw: Caller, id: string, until: (j: CrawlJob) => boolean, statuses: Set<string>, timeoutMs = 45_000): Promise<CrawlJob> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const res = await gw.call('GET', `/v1/crawl/${id}`);
    const text = await res.text();
    if (res.status === 200) {
      const job = (JSON.parse(text) as { crawl: CrawlJob }).crawl;
      statuses.add(job.status);
      if (until(job)) return job;
      last = `${job.status} ${JSON.stringify(job.progress)}`;
    } else {
      expect(res.status, text).toBe(503);
      last = text;
    }
    if (Date.now() > deadline) {
      const c = env.cluster!;
      const nodes = await c.nodes();
      const logs = c.urls.map((u) => Number(new URL(u).port)).map((p) => `--- redis ${p}\n${c.logTail(p)}`).join('\n');
      throw new Error(`crawl ${id}: ${last}\n${nodes}\n${logs}\n${workerLogs(env)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
