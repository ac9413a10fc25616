import { describe, expect, it } from 'vitest';
import { PublicErrorResponse } from '@trawl/contract';
import { startTestGateway } from '@trawl/test-support/gateway.ts';
import { startFixtureSite } from '@trawl/test-support/fixture-site.ts';

/**
 * A gateway told to stop gives requests in flight TRAWL_SHUTDOWN_GRACE_S, then closes its engines under the ones
 * still running (they get the contract's error object), and a keep-alive connection left idle does not hold the
 * stop for the server's keep-alive timeout (72 s: test files hung in afterAll for a minute before this).
 */
describe('gateway shutdown', () => {
  it('stops within its grace and a few seconds, with a slow Fetch in flight and an idle keep-alive connection', async () => {
    const site = await startFixtureSite();
    const gw = await startTestGateway({ TRAWL_SHUTDOWN_GRACE_S: '1', TRAWL_FETCH_TIMEOUT_MS: '60000' });
    try {
      // An idle keep-alive connection: one answered request, the socket kept by the client.
      expect((await gw.call('GET', '/healthz')).status).toBe(200);
      const slow = gw.call('POST', '/v1/fetch', { url: `${site.origin('site.test')}/slow?ms=50000` });
      while (site.hits('/slow') === 0) await new Promise((r) => setTimeout(r, 20));
      const started = Date.now();
      await gw.close();
      expect(Date.now() - started).toBeLessThan(1000 + 5000);
      const res = await slow;
      expect(res.status).toBeGreaterThanOrEqual(500);
      PublicErrorResponse.parse(await res.json());
    } finally {
      await site.close();
    }
  }, 30_000);
});
