import { request } from 'node:http';
import { HostResolverRules, SsrfGuard, type LookupAll } from '@trawl/net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCanary, type Canary } from '@trawl/test-support/canary.ts';
import { startKeepAliveDropper } from '@trawl/test-support/keepalive-dropper.ts';
import { startEgressGate, type EgressGate } from '../src/egress-gate.ts';
import { EgressPolicy } from '../src/egress-policy.ts';
import { startBrowserSite, type BrowserSite } from './support/browser-site.ts';
import { testGuard } from './setup.ts';

// The gate is what Chromium connects through; these tests drive it with Node's own HTTP client.
let site: BrowserSite;
let canary: Canary;
beforeAll(async () => {
  site = await startBrowserSite();
  // Same port as the site, on 127.0.0.2: a connection that goes to the wrong address lands here.
  canary = await startCanary({ port: site.port });
});
afterAll(async () => {
  await canary?.close();
  await site?.close();
});

function viaGate(gate: EgressGate, target: string): Promise<{ status: number; body: string }> {
  const proxy = new URL(gate.server);
  return new Promise((resolve, reject) => {
    const req = request({ host: proxy.hostname, port: proxy.port, path: target, headers: { host: new URL(target).host }, agent: false });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function tunnel(gate: EgressGate, authority: string): Promise<number> {
  const proxy = new URL(gate.server);
  return new Promise((resolve, reject) => {
    const req = request({ host: proxy.hostname, port: proxy.port, method: 'CONNECT', path: authority, agent: false });
    req.on('connect', (res, socket) => {
      socket.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on('response', (res) => resolve(res.statusCode ?? 0));
    req.on('error', reject);
    req.end();
  });
}

describe('egress gate', () => {
  it('forwards allowed plain http with the Host the browser sent, and refuses private targets itself', async () => {
    const gate = await startEgressGate(new EgressPolicy(testGuard()));
    try {
      const ok = await viaGate(gate, `${site.origin('gate.test')}/plain`);
      expect(ok.status).toBe(200);
      expect(ok.body).toContain('A small static page.');
      for (const target of [`http://127.0.0.2:${canary.port}/`, `http://a.canary.internal:${canary.port}/`, `http://2130706434:${canary.port}/`]) {
        expect((await viaGate(gate, target)).status, target).toBe(403);
      }
      expect(await tunnel(gate, `127.0.0.2:${canary.port}`)).toBe(403);
      expect(await tunnel(gate, `[::ffff:127.0.0.2]:${canary.port}`)).toBe(403);
      expect(await tunnel(gate, `b.canary.internal:${canary.port}`)).toBe(403);
      expect(await tunnel(gate, `gate.test:${site.port}`)).toBe(200);
      expect(canary.connections()).toBe(0);
    } finally {
      await gate.close();
    }
  });

  it('connects to the address the guard checked: a DNS answer that changes later is never used', async () => {
    let lookups = 0;
    // First answer allowed (127.0.0.1), every later one the canary's address: a rebinding name.
    const lookup: LookupAll = async () => [{ address: lookups++ === 0 ? '127.0.0.1' : '127.0.0.2', family: 4 }];
    const guard = new SsrfGuard({ allowPrivate: ['127.0.0.1/32'], rules: HostResolverRules.empty, lookup });
    const gate = await startEgressGate(new EgressPolicy(guard));
    try {
      for (let i = 0; i < 3; i++) {
        expect((await viaGate(gate, `http://rebind.example:${site.port}/plain`)).status).toBe(200);
        expect(await tunnel(gate, `rebind.example:${site.port}`)).toBe(200);
      }
      expect(lookups).toBe(1);
      expect(canary.connections()).toBe(0);
    } finally {
      await gate.close();
    }
  });

  it('a gate without a policy refuses everything (the browser-wide fallback proxy)', async () => {
    const gate = await startEgressGate(null);
    try {
      expect((await viaGate(gate, `${site.origin('gate.test')}/plain`)).status).toBe(403);
      expect(await tunnel(gate, `gate.test:${site.port}`)).toBe(403);
    } finally {
      await gate.close();
    }
  });
});

describe('egress gate on kept-alive upstream connections', () => {
  it('sends a GET again on a new connection when the target closed the reused one under it', async () => {
    const dropper = await startKeepAliveDropper();
    const gate = await startEgressGate(new EgressPolicy(testGuard()));
    try {
      expect(await viaGate(gate, `http://gate.test:${dropper.port}/one`)).toEqual({ status: 200, body: 'ok' });
      expect(await viaGate(gate, `http://gate.test:${dropper.port}/two`)).toEqual({ status: 200, body: 'ok' });
      // The second request went out on the first connection, was dropped, and was answered on a new one.
      expect(dropper.connections()).toBe(2);
    } finally {
      await gate.close();
      await dropper.close();
    }
  });
});
