import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCrawl, startCrawl, waitForCrawl } from '@trawl/test-support/crawl-client.ts';
import { startCrawlEnv, workerLogs, type CrawlEnv } from '@trawl/test-support/crawl-modes.ts';
import { startFixtureSite, type FixtureSite } from '@trawl/test-support/fixture-site.ts';
import { startWorkerProcess, stopAllProcesses, type ManagedProcess } from '@trawl/test-support/processes.ts';

/**
 * Issue 15 (operators see what happens), cluster mode: worker processes log pino JSON lines like the gateway, honour
 * LOG_LEVEL and LOG_PRETTY, log each crawl transition once whatever the number of workers (created and paused in
 * the gateway, started and ended in whichever worker did it), and log their shutdown on SIGTERM. No line carries a
 * URL or a crawled host.
 */
const HOST = 'lifecycle.test';
let site: FixtureSite;
let env: CrawlEnv;

beforeAll(async () => {
  site = await startFixtureSite();
  // One page at a time per host: a second page of a host waits in its owner's buffer (the shutdown test).
  env = await startCrawlEnv('cluster', { workers: 2, env: { LOG_LEVEL: 'info', TRAWL_HOST_CONCURRENCY: '1' } });
});
afterAll(async () => {
  await env?.close();
  await stopAllProcesses();
  await site?.close();
});

type Line = Record<string, any>;

/** Every stdout line of a process, parsed: the test fails on any line that is not JSON. */
function jsonLines(p: ManagedProcess): Line[] {
  return p
    .stdout()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      try {
        return JSON.parse(l) as Line;
      } catch {
        throw new Error(`${p.name} wrote a line that is not JSON: ${l}`);
      }
    });
}

/** The lines of every process of the cluster (the in-process gateway's and each worker's). */
const allLines = () => [...env.gw.logs, ...env.workers.flatMap(jsonLines)];
const linesOf = (crawlId: string, msg: string) => allLines().filter((l) => l.crawl_id === crawlId && l.msg === msg);

async function eventually<T>(what: string, get: () => T | undefined | false, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = get();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms\n${workerLogs(env)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('worker process logs (cluster, two workers)', () => {
  it('logs each crawl transition once, with ids, status and counts and no URL; JSON lines with level, time and msg', async () => {
    const crawl = await startCrawl(env.gw, { urls: [`${site.origin(HOST)}/article`], max_depth: 0 });
    expect((await waitForCrawl(env.gw, crawl.id, { context: () => workerLogs(env) })).status).toBe('completed');
    // The end is logged by the worker that settles the crawl, just after the status turned.
    await eventually('the completed line', () => linesOf(crawl.id, 'crawl completed').length > 0);

    // A crawl paused and resumed while its one slow page has at most just begun; one whose only page is missing fails.
    const paused = await startCrawl(env.gw, { urls: [`${site.origin(HOST)}/slow?ms=1500`], max_depth: 0 });
    expect((await env.gw.call('POST', `/v1/crawl/${paused.id}/pause`)).status).toBe(200);
    expect((await env.gw.call('POST', `/v1/crawl/${paused.id}/resume`)).status).toBe(200);
    const failed = await startCrawl(env.gw, { urls: [`${site.origin(HOST)}/missing`], max_depth: 0 });
    expect((await waitForCrawl(env.gw, paused.id)).status).toBe('completed');
    expect((await waitForCrawl(env.gw, failed.id)).status).toBe('failed');
    await eventually('the end lines', () => linesOf(paused.id, 'crawl completed').length > 0 && linesOf(failed.id, 'crawl failed').length > 0);

    const once = (id: string, msg: string) => {
      const found = linesOf(id, msg);
      expect(found, `${msg} for ${id}`).toHaveLength(1);
      return found[0];
    };
    expect(once(crawl.id, 'crawl created')).toMatchObject({ level: 30, name: 'trawl-gateway', event: 'crawl_created', status: 'queued', pages: { discovered: 1, queued: 1 } });
    const started = once(crawl.id, 'crawl started');
    expect(started).toMatchObject({ level: 30, name: 'trawl-worker', event: 'crawl_started', status: 'running', team_id: expect.stringMatching(/^team_/) });
    const completed = once(crawl.id, 'crawl completed');
    expect(completed).toMatchObject({ name: 'trawl-worker', event: 'crawl_completed', status: 'completed', pages: { discovered: 1, completed: 1, queued: 0 } });
    for (const msg of ['crawl created', 'crawl paused', 'crawl resumed', 'crawl started', 'crawl completed']) once(paused.id, msg);
    expect(once(failed.id, 'crawl failed')).toMatchObject({ status: 'failed', failure_code: 'no_pages_delivered', pages: { completed: 0 } });
    expect(linesOf(failed.id, 'crawl completed')).toHaveLength(0);

    for (const w of env.workers) {
      const lines = jsonLines(w);
      expect(lines.length).toBeGreaterThan(0);
      for (const l of lines) {
        expect(l).toMatchObject({ level: expect.any(Number), time: expect.any(Number), msg: expect.any(String), name: 'trawl-worker', pid: w.pid });
      }
      expect(lines.filter((l) => l.msg === 'crawl worker started' && w.workerIds.includes(l.worker_id))).toHaveLength(1);
      expect(lines.some((l) => l.msg === 'worker process started')).toBe(true);
    }
    const text = JSON.stringify(allLines());
    expect(text).not.toContain(HOST);
    expect(text).not.toContain('/article');
    // The port as an address part (`:port`): its digits alone turn up inside millisecond timestamps now and then.
    expect(text).not.toContain(`:${site.port}`);
  });

  it('logs the shutdown on SIGTERM: drain started, pages finished, leases given back, shards released', async () => {
    // Two slow pages on one host: the first runs, the second waits leased in its worker's buffer.
    const drain = `${site.origin(`drain.${HOST}`)}/slow?ms=3000`;
    const slow = await startCrawl(env.gw, { urls: [drain, `${drain}&second`], max_depth: 0 });
    await eventually('the first slow page in flight', () => site.hits('/slow', `drain.${HOST}`) === 1);
    await waitForCrawl(env.gw, slow.id, { until: (j) => j.progress.pages_in_flight === 2 });
    await Promise.all(env.workers.map((w) => w.stop(20_000)));
    const lines = env.workers.map(jsonLines);
    for (const [i, w] of env.workers.entries()) {
      const msgs = lines[i].map((l) => l.msg);
      const order = ['shutdown started', 'crawl worker draining', 'crawl worker stopped', 'shutdown complete'];
      expect(order.map((m) => msgs.indexOf(m)).every((at, j, all) => at >= 0 && (j === 0 || at > all[j - 1])), `${w.name}: ${msgs.join(' | ')}`).toBe(true);
      expect(lines[i].find((l) => l.msg === 'shutdown started')).toMatchObject({ level: 30, signal: 'SIGTERM' });
      expect(lines[i].find((l) => l.msg === 'crawl worker stopped')).toMatchObject({
        pages_finished: expect.any(Number),
        pages_unfinished: 0,
        leases_given_back: expect.any(Number),
        shards_released: expect.any(Number),
      });
    }
    // The running page finished during the drain instead of being dropped; the buffered one went back to its
    // queue at once with the host's shard (the crawl still has work there), rather than lapsing with its lease.
    const all = lines.flat();
    const sum = (msg: string, field: string) => all.filter((l) => l.msg === msg).reduce((n, l) => n + l[field], 0);
    expect(sum('crawl worker draining', 'in_flight')).toBe(1);
    expect(sum('crawl worker stopped', 'pages_finished')).toBe(1);
    expect(sum('crawl worker stopped', 'leases_given_back')).toBe(1);
    expect(sum('crawl worker stopped', 'shards_released')).toBeGreaterThanOrEqual(1);
    expect((await getCrawl(env.gw, slow.id)).progress).toMatchObject({ pages_completed: 1, pages_queued: 1, pages_in_flight: 0 });
    // Out of the way of the next workers.
    expect((await env.gw.call('POST', `/v1/crawl/${slow.id}/pause`)).status).toBe(200);
  });
});

describe('LOG_LEVEL and LOG_PRETTY of a worker process', () => {
  it('LOG_LEVEL=warn: a worker that crawls a page writes no info line', async () => {
    const w = await startWorkerProcess('warn worker', { ...env.processEnv!, TRAWL_WORKERS: '1', LOG_LEVEL: 'warn' });
    const crawl = await startCrawl(env.gw, { urls: [`${site.origin(HOST)}/article?warn`], max_depth: 0 });
    // The only worker alive did the crawl: at info it would have logged its start and end.
    expect((await waitForCrawl(env.gw, crawl.id, { context: () => w.output() })).status).toBe('completed');
    await w.stop();
    const lines = jsonLines(w);
    expect(lines.filter((l) => l.level < 40)).toEqual([]);
    // The banner still names the worker, on stderr.
    expect(w.workerIds).toHaveLength(1);
  });

  it('LOG_PRETTY=1: human-readable lines, not JSON; LOG_LEVEL=debug adds shard claims naming the registrable domain', async () => {
    const w = await startWorkerProcess('pretty worker', { ...env.processEnv!, TRAWL_WORKERS: '1', LOG_LEVEL: 'debug', LOG_PRETTY: '1' });
    const crawl = await startCrawl(env.gw, { urls: [`${site.origin(`www.${HOST}`)}/article?pretty`], max_depth: 0 });
    expect((await waitForCrawl(env.gw, crawl.id, { context: () => w.output() })).status).toBe('completed');
    await w.stop();
    const lines = w.stdout().split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(() => JSON.parse(l), l).toThrow();
    expect(lines.some((l) => /\bINFO\b.*crawl worker started/.test(l) && l.includes(w.workerIds[0]))).toBe(true);
    const claimed = lines.find((l) => /\bDEBUG\b.*shard claimed/.test(l));
    expect(claimed).toBeDefined();
    expect(claimed).toContain(`"domain":"${HOST}"`);
    expect(w.stdout()).not.toContain(`www.${HOST}`);
  });
});
