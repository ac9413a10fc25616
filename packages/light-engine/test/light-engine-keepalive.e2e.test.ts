import { describe, expect, it } from 'vitest';
import { startKeepAliveDropper } from '@trawl/test-support/keepalive-dropper.ts';
import { createLightEngine } from '../src/index.ts';
import { testGuard, within } from './test-setup.ts';

describe('light engine on kept-alive connections', () => {
  it('sends a request again on a fresh connection when the server closed the reused one under it', async () => {
    const dropper = await startKeepAliveDropper();
    const engine = createLightEngine({ guard: testGuard() });
    try {
      const first = await engine.fetch({ url: `http://keepalive.test:${dropper.port}/one`, deadline: within(10_000) });
      expect(first).toMatchObject({ ok: true, statusCode: 200 });
      const second = await engine.fetch({ url: `http://keepalive.test:${dropper.port}/two`, deadline: within(10_000) });
      expect(second).toMatchObject({ ok: true, statusCode: 200 });
      if (second.ok) expect(second.body.toString()).toBe('ok');
      // The second request went out on the first connection, was dropped, and was answered on a new one.
      expect(dropper.connections()).toBe(2);
    } finally {
      await engine.close();
      await dropper.close();
    }
  });
});
