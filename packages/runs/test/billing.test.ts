import { describe, expect, it } from 'vitest';
import { MemoryStore } from '@trawl/store';
import { BUDGET_BLOCK, crawlBudgetWant, PAGE_COST, reserveCrawlCredits, settleCrawlCredits } from '../src/billing.ts';
import { failPageRun, startPageRun } from '../src/page-runs.ts';

const now = () => Date.parse('2026-11-25T00:00:00Z');

describe('billing', () => {
  it('a page run in enforce mode is refused with no credit and creates nothing', async () => {
    const store = new MemoryStore(now);
    const team = await store.createTeam('t');
    const svc = { store, billingMode: 'enforce' as const, artifactRetentionS: 60, now };
    expect(await startPageRun(svc, team.id, 'fetch')).toBeNull();
    expect(await store.balance(team.id)).toBe(0);
  });

  it('a failed page run gives its reservation back', async () => {
    const store = new MemoryStore(now);
    const team = await store.createTeam('t');
    await store.grantCredits(team.id, 5);
    const svc = { store, billingMode: 'enforce' as const, artifactRetentionS: 60, now };
    const record = await startPageRun(svc, team.id, 'fetch');
    expect(await store.balance(team.id)).toBe(5 - PAGE_COST);
    const run = await failPageRun(svc, record!, { blockReason: 'timeout', retryable: true });
    expect(run).toMatchObject({ status: 'failed', cost_units: 0 });
    expect(await store.balance(team.id)).toBe(5);
    expect((await store.getRun(run.id))?.failure).toEqual({ block_reason: 'timeout', retryable: true });
  });

  it('a crawl takes at most what the team has, in blocks no larger than the pages it may still deliver', async () => {
    const store = new MemoryStore(now);
    const team = await store.createTeam('t');
    await store.grantCredits(team.id, 10);
    expect(crawlBudgetWant(100, 0)).toBe(BUDGET_BLOCK);
    expect(crawlBudgetWant(100, 95)).toBe(5);
    expect(crawlBudgetWant(3, 3)).toBe(1);
    expect(await reserveCrawlCredits({ store, now }, team.id, 'run_c', BUDGET_BLOCK)).toBe(10);
    expect(await reserveCrawlCredits({ store, now }, team.id, 'run_c', BUDGET_BLOCK)).toBe(0);
  });

  it('settling charges delivered pages in shadow mode and refunds unused prepaid credit in enforce mode, once each', async () => {
    const store = new MemoryStore(now);
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
