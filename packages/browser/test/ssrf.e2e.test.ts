import { createSocket, type Socket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCanary, type Canary } from '@trawl/test-support/canary.ts';
import { createBrowserPool, type BrowserPool } from '../src/index.ts';
import { startBrowserSite, type BrowserSite } from './support/browser-site.ts';
import { strings, testGuard, within } from './setup.ts';

// Real traffic goes only to loopback: the page aims everything at a canary on 127.0.0.2, outside
// TRAWL_ALLOW_PRIVATE (127.0.0.1/32), and the canary counts every TCP connection it gets. WebRTC speaks UDP, so
// a UDP socket on the same address and port counts datagrams too.
let site: BrowserSite;
let canary: Canary;
let udpCanary: Socket;
let datagrams = 0;
let pool: BrowserPool;
beforeAll(async () => {
  site = await startBrowserSite();
  canary = await startCanary();
  udpCanary = createSocket('udp4');
  udpCanary.on('message', () => void datagrams++);
  await new Promise<void>((resolve) => udpCanary.bind(canary.port, '127.0.0.2', () => resolve()));
  site.setVar('CANARY_PORT', String(canary.port));
  pool = createBrowserPool({ guard: testGuard(['127.0.0.1/32']), maxPages: 2 });
});
afterAll(async () => {
  await pool?.close();
  await canary?.close();
  udpCanary?.close();
  await site?.close();
});

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('SSRF guard in the browser', () => {
  it('a page that aims scripts, images, frames, fetch, XHR, websockets, workers and WebRTC at a private address reaches nothing', async () => {
    const url = `${site.origin('site.test')}/ssrf.html`;
    const r = await pool.render({ url, deadline: within(15_000), controls: { process_iframes: true }, record: true });
    await settle(800); // stragglers (workers, ICE gathering, the late navigation) get their chance
    expect(canary.connections()).toBe(0);
    expect(datagrams).toBe(0);
    if (!r.ok) throw new Error(`expected the page to be delivered: ${r.blockReason}`);

    // The page itself is delivered; its late navigation to the canary was dropped, not followed.
    expect(r.finalUrl).toBe(url);
    expect(r.html).toContain('The west channel buoy was moved');
    expect(r.html).not.toContain('canary reached');
    expect(r.requests.blocked).toBeGreaterThanOrEqual(8);
    expect(r.diagnostics.browser_failure.present).toBe(false);
    // Refused frames are inlined empty: no browser error page text in the content.
    expect(r.html).not.toMatch(/refused|blocked|ERR_|can.t be reached/i);
    // Diagnostics are counts and codes only.
    for (const s of strings(r.diagnostics)) {
      expect(s).not.toMatch(/127\.0\.0|canary|\/\/|site\.test|ssrf/);
    }
  });

  it('refuses a top document on a private address, by any spelling, by name, or by redirect', async () => {
    const p = canary.port;
    const vectors = [
      `http://127.0.0.2:${p}/`,
      `http://2130706434:${p}/`,
      `http://0x7f.0.0.2:${p}/`,
      `http://[::ffff:127.0.0.2]:${p}/`,
      `http://a.canary.internal:${p}/`,
      `https://a.canary.internal:${p}/`,
      `${site.origin('hop.test')}/redirect-to?url=${encodeURIComponent(`http://127.0.0.2:${p}/`)}`,
      `${site.origin('hop.test')}/redirect-to?url=${encodeURIComponent(`https://b.canary.internal:${p}/`)}`,
    ];
    for (const url of vectors) {
      const r = await pool.render({ url, deadline: within(10_000) });
      expect(r, url).toMatchObject({ ok: false, blockReason: 'blocked_target', retryable: false });
      expect(r.diagnostics.browser_failure, url).toMatchObject({ present: true, category: 'blocked', stage: 'navigate', error_code: 'blocked_target' });
    }
    expect(canary.connections()).toBe(0);
  });

  it('refuses non-http schemes for the top document', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://site.test/', 'chrome://version', 'javascript:alert(1)']) {
      expect(await pool.render({ url, deadline: within(5_000) }), url).toMatchObject({ ok: false, blockReason: 'blocked_target' });
    }
  });

  // Last, because it lets the canary be reached: proof that the page above really tries, so the zero means something.
  it('control: with the canary allowed, the same page does reach it', async () => {
    const open = createBrowserPool({ guard: testGuard(['127.0.0.1/32', '127.0.0.2/32']), maxPages: 1 });
    try {
      const r = await open.render({ url: `${site.origin('site.test')}/ssrf.html`, deadline: within(15_000) });
      expect(r.ok).toBe(true);
      expect(canary.requests()).toBeGreaterThan(0);
    } finally {
      await open.close();
    }
  });
});
