import { describe, expect, it } from 'vitest';
import { KvStore } from '@trawl/store';
import { BUDGET_BLOCK, crawlBudgetWant, PAGE_COST, reserveCrawlCredits, settleCrawlCredits, settleCrawlQuota } from '../src/billing.ts';
import { failPageRun, startPageRun, type RunServices } from '../src/page-runs.ts';
import { memoryKv } from '@trawl/test-support/backends.ts';

const now = () => Date.parse('2026-11-25T00:00:00Z');

async function openRun(svc: RunServices, teamId: string, type: 'fetch' | 'browser_scrape' = 'fetch') {
  const started = await startPageRun(svc, teamId, type);
  if (!started.ok) throw new Error(`page run refused: ${started.reason}`);
  return started.record;
}

describe('billing', () => {
  it('a page run in enforce mode is refused with no credit, creates nothing and keeps no quota', async () => {
    const store = new KvStore(memoryKv(now), '', now);
    const team = await store.createTeam('t');
    await store.setQuota(team.id, 'scrape', 1);
    const svc = { store, billingMode: 'enforce' as const, artifactRetentionS: 60, now };
    expect(await startPageRun(svc, team.id, 'fetch')).toEqual({ ok: false, reason: 'payment_required' });
    expect(await store.balance(team.id)).toBe(0);
    expect((await store.getQuotas(team.id, '2026-11')).scrape.used).toBe(0);
  });

  it('a failed page run gives its reservation back', async () => {
    const store = new KvStore(memoryKv(now), '', now);
    const team = await store.createTeam('t');
    await store.grantCredits(team.id, 5);
    const svc = { store, billingMode: 'enforce' as const, artifactRetentionS: 60, now };
    const record = await openRun(svc, team.id);
    expect(await store.balance(team.id)).toBe(5 - PAGE_COST);
    const run = await failPageRun(svc, record, { blockReason: 'timeout', retryable: true });
    expect(run).toMatchObject({ status: 'failed', cost_units: 0 });
    expect(await store.balance(team.id)).toBe(5);
    expect((await store.getRun(run.id))?.failure).toEqual({ block_reason: 'timeout', retryable: true });
  });

  it('a crawl takes at most what the team has, in blocks no larger than the pages it may still deliver', async () => {
    const store = new KvStore(memoryKv(now), '', now);
    const team = await store.createTeam('t');
    await store.grantCredits(team.id, 10);
    expect(crawlBudgetWant(100, 0)).toBe(BUDGET_BLOCK);
    expect(crawlBudgetWant(100, 95)).toBe(5);
    expect(crawlBudgetWant(3, 3)).toBe(1);
    expect(await reserveCrawlCredits({ store, now }, team.id, 'run_c', BUDGET_BLOCK)).toBe(10);
    expect(await reserveCrawlCredits({ store, now }, team.id, 'run_c', BUDGET_BLOCK)).toBe(0);
  });

  it('settling charges delivered pages in shadow mode and refunds unused prepaid credit in enforce mode, once each', async () => {
    const store = new KvStore(memoryKv(now), '', now);
    const team = await store.createTeam('t');
    const shadow = { mode: 'shadow' as const, teamId: team.id, runId: 'run_s', delivered: 7, unusedBudget: 0 };
    await settleCrawlCredits({ store, now }, shadow);
    await settleCrawlCredits({ store, now }, shadow); // a repeat after a lost reply changes nothing
    expect(await store.balance(team.id)).toBe(-7);
    await store.grantCredits(team.id, 7 + 16);
    expect(await reserveCrawlCredits({ store, now }, team.id, 'run_e', 16)).toBe(16);
    await settleCrawlCredits({ store, now }, { mode: 'enforce', teamId: team.id, runId: 'run_e', delivered: 4, unusedBudget: 12 });
    expect(await store.balance(team.id)).toBe(12);
  });
});

describe('quotas', () => {
  it('a page run takes one unit of its type’s quota; over the limit it is refused, nothing created or reserved', async () => {
    const store = new KvStore(memoryKv(now), '', now);
    const team = await store.createTeam('t');
    await store.setQuota(team.id, 'browser_scrape', 1);
    const svc = { store, billingMode: 'shadow' as const, artifactRetentionS: 60, now };
    const record = await openRun(svc, team.id, 'browser_scrape');
    expect(record.run.quota).toEqual({ resource: 'browser_scrape', quantity_reserved: 1 });
    const entries = (await store.entries(team.id, 10)).length;
    expect(await startPageRun(svc, team.id, 'browser_scrape')).toEqual({ ok: false, reason: 'quota_exceeded', resource: 'browser_scrape' });
    expect((await store.entries(team.id, 10)).length).toBe(entries);
    // Fetch draws on its own quota.
    expect((await openRun(svc, team.id, 'fetch')).run.quota).toEqual({ resource: 'scrape', quantity_reserved: 1 });
    expect(await store.getQuotas(team.id, '2026-11')).toMatchObject({ browser_scrape: { used: 1, monthly: 1 }, scrape: { used: 1 } });
  });

  it('a failed page run gives its unit back once, to the month it was opened in', async () => {
    let t = Date.parse('2026-11-30T23:59:59Z');
    const clock = () => t;
    const store = new KvStore(memoryKv(clock), '', clock);
    const team = await store.createTeam('t');
    await store.setQuota(team.id, 'scrape', 1);
    const svc = { store, billingMode: 'shadow' as const, artifactRetentionS: 60, now: clock };
    const record = await openRun(svc, team.id);
    t += 2_000; // December now
    expect((await openRun(svc, team.id)).run.created_at).toMatch(/^2026-12-01/);
    await failPageRun(svc, record, { blockReason: 'timeout', retryable: true });
    await failPageRun(svc, record, { blockReason: 'timeout', retryable: true });
    expect((await store.getQuotas(team.id, '2026-11')).scrape.used).toBe(0);
    expect((await store.getQuotas(team.id, '2026-12')).scrape.used).toBe(1);
  });

  it('an ended crawl gives back what it reserved and did not admit, once, to the month it was created in', async () => {
    const store = new KvStore(memoryKv(now), '', now);
    const team = await store.createTeam('t');
    await store.takeQuota(team.id, 'crawl_pages', '2026-10', 50);
    const settle = { teamId: team.id, run: { id: 'run_c', created_at: '2026-10-31T23:00:00.000Z' }, maxPages: 50, admitted: 12 };
    await settleCrawlQuota(store, settle);
    await settleCrawlQuota(store, settle); // a retried finalize
    expect((await store.getQuotas(team.id, '2026-10')).crawl_pages.used).toBe(12);
    expect((await store.getQuotas(team.id, '2026-11')).crawl_pages.used).toBe(0);
  });
});
