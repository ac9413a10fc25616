import { describe, expect, it } from 'vitest';
import { BlockedTargetError, HostResolverRules, SsrfGuard, type LookupAll, type LookupFunction } from '../src/index.ts';

// Node http requests through these functions, to a canary listening on 127.0.0.2: lookup-function.e2e.test.ts.

const noDns: LookupAll = async () => {
  throw new Error('unexpected DNS lookup');
};

function call(fn: LookupFunction, host: string, options: object | number | null): Promise<unknown[]> {
  return new Promise((resolve) => {
    const cb = (...args: unknown[]) => resolve(args);
    if (options === null) fn(host, cb);
    else fn(host, options as never, cb);
  });
}

describe('lookup functions', () => {
  const rules = HostResolverRules.parse('MAP *.canary.test 127.0.0.2');

  it('answers in every dns.lookup calling form, honouring all', async () => {
    const fn = new SsrfGuard({ allowPrivate: ['127.0.0.2/32'], rules, lookup: noDns }).lookupFn();
    expect(await call(fn, 'a.canary.test', null)).toEqual([null, '127.0.0.2', 4]);
    expect(await call(fn, 'a.canary.test', 4)).toEqual([null, '127.0.0.2', 4]);
    expect(await call(fn, 'a.canary.test', { all: true })).toEqual([null, [{ address: '127.0.0.2', family: 4 }]]);
  });

  it('passes the refusal to the callback', async () => {
    const fn = new SsrfGuard({ allowPrivate: [], rules, lookup: noDns }).lookupFn();
    const [err] = await call(fn, 'a.canary.test', { all: true });
    expect(err).toBeInstanceOf(BlockedTargetError);
  });

  it('pins one host to its checked address and refuses any other host without DNS', async () => {
    const guard = new SsrfGuard({ allowPrivate: ['127.0.0.2/32'], rules, lookup: noDns });
    const target = await guard.resolve('a.canary.test');
    const pinned = guard.pinnedLookupFn('a.canary.test', target);
    expect(await call(pinned, 'A.Canary.Test.', { all: true })).toEqual([null, [{ address: '127.0.0.2', family: 4 }]]);
    const [err] = await call(pinned, 'b.canary.test', {});
    expect(err).toMatchObject({ code: 'blocked_target', category: 'unchecked_host' });
  });
});
