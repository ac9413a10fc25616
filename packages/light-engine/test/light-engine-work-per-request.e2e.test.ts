import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createLightEngine } from '../src/index.ts';
import { testGuard, within } from './test-setup.ts';

/**
 * The work one retrieval costs, counted rather than timed: requests to one host ride one kept-alive connection, and
 * no request captures a stack trace (got-scraping's per-request option validation did, through `ow`: 3% of a
 * crawl's main-thread CPU).
 */
describe('light engine work per request', () => {
  it('reuses one connection for a host and captures no stack trace per request', async () => {
    let connections = 0;
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>ok</p>'));
    server.on('connection', () => connections++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const engine = createLightEngine({ guard: testGuard() });
    // A stack trace taken for its call sites swaps Error.prepareStackTrace in and out (callsites, under `ow`).
    const descriptor = Object.getOwnPropertyDescriptor(Error, 'prepareStackTrace');
    let prepare = Error.prepareStackTrace;
    let captured = 0;
    try {
      // The first request loads got-scraping and its identity; what follows is the steady state.
      expect(await engine.fetch({ url: `http://work.test:${port}/warm`, deadline: within(10_000) })).toMatchObject({ ok: true });
      Object.defineProperty(Error, 'prepareStackTrace', {
        configurable: true,
        get: () => prepare,
        set: (v) => {
          captured++;
          prepare = v;
        },
      });
      for (let i = 0; i < 20; i++) {
        expect(await engine.fetch({ url: `http://work.test:${port}/p/${i}`, deadline: within(10_000) })).toMatchObject({ ok: true, statusCode: 200 });
      }
    } finally {
      if (descriptor) Object.defineProperty(Error, 'prepareStackTrace', descriptor);
      else delete (Error as { prepareStackTrace?: unknown }).prepareStackTrace;
      await engine.close();
      await new Promise((r) => server.close(r));
    }
    expect(captured).toBe(0);
    expect(connections).toBe(1);
  });
});
