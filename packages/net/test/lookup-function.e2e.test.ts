import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCanary, type Canary } from '@trawl/test-support/canary.ts';
import { HostResolverRules, SsrfGuard, type LookupAll, type LookupFunction } from '../src/index.ts';

const noDns: LookupAll = async () => {
  throw new Error('unexpected DNS lookup');
};

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
});
