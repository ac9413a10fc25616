import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCanary, type Canary } from '@trawl/test-support/canary.ts';
import { BlockedTargetError, HostResolverRules, SsrfGuard, type LookupAll, type LookupFunction } from '../src/index.ts';

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

function httpGet(host: string, port: number, lookup: LookupFunction): Promise<{ status?: number; code?: string }> {
  return new Promise((resolve) => {
    const req = get({ host, port, path: '/', lookup: lookup as never, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ code: err.code }));
  });
}

describe('lookup functions', () => {
  let canary: Canary;
  beforeAll(async () => {
    canary = await startCanary();
  });
  afterAll(() => canary.close());

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

  it('stops a Node http request before it connects when the mapped address is refused', async () => {
    const fn = new SsrfGuard({ allowPrivate: ['127.0.0.1/32'], rules, lookup: noDns }).lookupFn();
    expect(await httpGet('a.canary.test', canary.port, fn)).toEqual({ code: 'blocked_target' });
    expect(canary.connections()).toBe(0);
  });

  it('connects a Node http request to the checked address when it is allowed', async () => {
    const fn = new SsrfGuard({ allowPrivate: ['127.0.0.2/32'], rules, lookup: noDns }).lookupFn();
    const before = canary.requests();
    expect(await httpGet('a.canary.test', canary.port, fn)).toEqual({ status: 200 });
    expect(canary.requests()).toBe(before + 1);
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
