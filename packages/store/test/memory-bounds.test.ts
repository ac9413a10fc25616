import { describe, expect, it } from 'vitest';
import { MAX_MEMORY_IDEMPOTENCY_KEYS, MAX_MEMORY_LEDGER_ENTRIES, MAX_MEMORY_QUOTA_RETURN_MARKS, MAX_MEMORY_RATE_WINDOWS, MAX_MEMORY_SELECTOR_MEMORIES, MemoryStore } from '../src/index.ts';

/** Embedded mode keeps state in maps: those a caller can grow by sending requests are bounded. */
describe('memory store bounds', () => {
  it('remembers at most MAX_MEMORY_IDEMPOTENCY_KEYS keys, forgetting the least recently used first', async () => {
    const store = new MemoryStore();
    const response = { status: 200, body: '{}' };
    for (let i = 0; i <= MAX_MEMORY_IDEMPOTENCY_KEYS; i++) {
      await store.beginIdempotent(`k${i}`, 'f', 60);
      await store.completeIdempotent(`k${i}`, 'f', response, 60);
    }
    // The newest keys still replay; the very first was forgotten, so it starts afresh.
    expect((await store.beginIdempotent(`k${MAX_MEMORY_IDEMPOTENCY_KEYS}`, 'f', 60)).state).toBe('replay');
    expect((await store.beginIdempotent('k1', 'f', 60)).state).toBe('replay');
    expect((await store.beginIdempotent('k0', 'f', 60)).state).toBe('started');
    await store.close();
  });

  it('keeps the newest MAX_MEMORY_LEDGER_ENTRIES ledger entries per team and the whole balance', async () => {
    const store = new MemoryStore();
    const n = MAX_MEMORY_LEDGER_ENTRIES + 50;
    for (let i = 0; i < n; i++) {
      await store.charge({ team_id: 'team_a', run_id: `run_${i}`, units: 1, reason: 'reserve', at: new Date().toISOString() }, false);
    }
    const entries = await store.entries('team_a', n);
    expect(entries).toHaveLength(MAX_MEMORY_LEDGER_ENTRIES);
    expect(entries[0].run_id).toBe(`run_${n - 1}`);
    expect(await store.balance('team_a')).toBe(-n);
    // A repeated (run, reason) is still recorded once.
    await store.charge({ team_id: 'team_a', run_id: `run_${n - 1}`, units: 1, reason: 'reserve', at: new Date().toISOString() }, false);
    expect(await store.balance('team_a')).toBe(-n);
    await store.close();
  });

  it('keeps at most MAX_MEMORY_SELECTOR_MEMORIES selector memories, forgetting the least recently used first', async () => {
    const store = new MemoryStore();
    const key = (i: number) => ({ team_id: 'team_a', domain: `d${i}.test`, schema_key: 's' });
    for (let i = 0; i <= MAX_MEMORY_SELECTOR_MEMORIES; i++) await store.putSelectorMemory(key(i), `m${i}`, 60);
    expect(await store.getSelectorMemory(key(0), 60)).toBeNull();
    expect(await store.getSelectorMemory(key(1), 60)).toBe('m1');
    expect(await store.getSelectorMemory(key(MAX_MEMORY_SELECTOR_MEMORIES), 60)).toBe(`m${MAX_MEMORY_SELECTOR_MEMORIES}`);
    await store.close();
  });

  it('keeps at most MAX_MEMORY_RATE_WINDOWS rate-limit windows, forgetting the least recently used first', async () => {
    const store = new MemoryStore();
    for (let i = 0; i <= MAX_MEMORY_RATE_WINDOWS; i++) await store.takeRateLimit(`team_${i}`, 'reads', 1);
    // The first team's window was forgotten (it starts empty); the newest is still full.
    expect((await store.takeRateLimit('team_0', 'reads', 1)).allowed).toBe(true);
    expect((await store.takeRateLimit(`team_${MAX_MEMORY_RATE_WINDOWS}`, 'reads', 1)).allowed).toBe(false);
    // Overrides are not part of the bound.
    await store.setRateLimit('team_keep', 'reads', 7);
    for (let i = 0; i <= MAX_MEMORY_RATE_WINDOWS; i++) await store.takeRateLimit(`other_${i}`, 'reads', 1);
    expect(await store.getRateLimits('team_keep')).toEqual({ reads: 7 });
    await store.close();
  });

  it('remembers at most MAX_MEMORY_QUOTA_RETURN_MARKS give-back marks, and never forgets usage', async () => {
    const store = new MemoryStore();
    const month = '2031-05';
    await store.takeQuota('team_a', 'scrape', month, MAX_MEMORY_QUOTA_RETURN_MARKS + 10);
    for (let i = 0; i <= MAX_MEMORY_QUOTA_RETURN_MARKS; i++) await store.returnQuota('team_a', 'scrape', month, 0, `run_${i}`);
    // A recent mark still stops a repeat; the very first was forgotten, so a repeat of it gives back again.
    await store.returnQuota('team_a', 'scrape', month, 1, `run_${MAX_MEMORY_QUOTA_RETURN_MARKS}`);
    expect((await store.getQuotas('team_a', month)).scrape.used).toBe(MAX_MEMORY_QUOTA_RETURN_MARKS + 10);
    await store.returnQuota('team_a', 'scrape', month, 1, 'run_0');
    expect((await store.getQuotas('team_a', month)).scrape.used).toBe(MAX_MEMORY_QUOTA_RETURN_MARKS + 9);
    await store.close();
  });
});
