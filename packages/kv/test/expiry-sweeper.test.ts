import { describe, expect, it } from 'vitest';
import { useKvBackends } from '@trawl/test-support/backends.ts';
import { startExpirySweeper, type Kv } from '../src/index.ts';

const backends = useKvBackends();

const until = async (cond: () => boolean) => {
  while (!cond()) await new Promise((r) => setTimeout(r, 5));
};

describe.each(backends)('expiry sweeper on %s', (_name, kvAt) => {
  it('drains a backlog batch by batch, letting other work run between batches, and keeps live keys', async () => {
    let t = 1_000;
    const kv = kvAt(() => t);
    kv.transact((tx) => {
      for (let i = 0; i < 1_000; i++) tx.put(`old:${i}`, i, { expiresAt: t + 1 });
      tx.put('live', 1, { expiresAt: t + 1_000_000 });
      tx.put('kept', 2);
    });
    t += 10;
    // Every sweep and every turn of the event loop, in order.
    const log: string[] = [];
    const swept: number[] = [];
    const spy: Kv = { ...kv, sweepExpired: (max) => (swept.push(kv.sweepExpired(max)), log.push('sweep'), swept.at(-1)!) };
    let spinning = true;
    const spin = () => spinning && (log.push('turn'), setImmediate(spin));
    spin();
    // An interval far longer than the test: only the backlog rule can make the batches follow each other.
    const stop = startExpirySweeper(spy, { intervalMs: 3_600_000, batch: 300 });
    await until(() => swept.includes(100));
    stop();
    spinning = false;
    expect(swept.slice(0, 4)).toEqual([300, 300, 300, 100]);
    const sweeps = log.flatMap((e, i) => (e === 'sweep' ? [i] : []));
    for (let i = 1; i < sweeps.length; i++) expect(log.slice(sweeps[i - 1], sweeps[i])).toContain('turn');
    expect(kv.transact((tx) => [...tx.range({})].map((e) => e.key))).toEqual(['kept', 'live']);
  });

  it('sweeps again each interval once drained, and not at all once stopped', async () => {
    let t = 1_000;
    const kv = kvAt(() => t);
    const swept: number[] = [];
    const spy: Kv = { ...kv, sweepExpired: (max) => (swept.push(kv.sweepExpired(max)), swept.at(-1)!) };
    const stop = startExpirySweeper(spy, { intervalMs: 10, batch: 100 });
    await until(() => swept.length >= 2);
    kv.transact((tx) => tx.put('a', 1, { expiresAt: t + 1 }));
    t += 5;
    await until(() => swept.includes(1));
    stop();
    const calls = swept.length;
    kv.transact((tx) => tx.put('b', 1, { expiresAt: t + 1 }));
    t += 5;
    await new Promise((r) => setTimeout(r, 60));
    expect(swept).toHaveLength(calls);
    expect(kv.sweepExpired(100)).toBe(1);
  });

  it('stops and reports the error when the Kv is closed under it', async () => {
    const kv = kvAt();
    const errors: unknown[] = [];
    await kv.close();
    startExpirySweeper(kv, { intervalMs: 5, onError: (e) => errors.push(e) });
    await until(() => errors.length > 0);
    await new Promise((r) => setTimeout(r, 30));
    expect(errors).toHaveLength(1);
  });

});
