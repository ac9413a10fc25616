import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '@trawl/test-support/tls-certificate.ts';
import { createLightEngine, type LightEngine } from '../src/index.ts';
import { testGuard, within } from './test-setup.ts';

let server: Server;
let port = 0;
let dir = '';
let requests = 0;
let engine: LightEngine;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'trawl-tls-'));
  server = createServer(selfSignedCertificate(dir, 'tls.test'), (_req, res) => {
    requests += 1;
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>secret</p>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
  engine = createLightEngine({ guard: testGuard() });
});
afterAll(async () => {
  await engine?.close();
  await new Promise((r) => server?.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe('light engine TLS', () => {
  it('refuses a server whose certificate it cannot verify, before sending the request', async () => {
    const r = await engine.fetch({ url: `https://tls.test:${port}/`, deadline: within(10_000) });
    expect(r).toMatchObject({ ok: false, failure: 'network_error' });
    expect(requests).toBe(0);
  });
});
