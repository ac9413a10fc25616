import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '@trawl/test-support/free-port.ts';

// What `npm start` runs (the bundle, built by the test run's global setup).
const START = fileURLToPath(new URL('../../../scripts/start.mjs', import.meta.url));

/** `npm start` as an operator runs it, until it exits (or `limitMs` passes: then it is killed and code is null). */
function start(env: Record<string, string>, limitMs = 30_000): Promise<{ code: number | null; stderr: string; ms: number }> {
  const began = Date.now();
  const child = spawn(process.execPath, [START, 'gateway'], { env: { PATH: process.env.PATH, HOST: '127.0.0.1', TRAWL_DATA_DIR: ':memory:', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const kill = setTimeout(() => child.kill('SIGKILL'), limitMs);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(kill);
      resolve({ code, stderr, ms: Date.now() - began });
    }),
  );
}

function listen(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port })));
}

const servers: Server[] = [];
afterAll(() => {
  for (const s of servers) s.close();
});

describe('start-up failures an operator can fix', () => {
  it('an unreachable REDIS_URL stops start-up with one clear line, no credentials, exit 1', async () => {
    // A port that accepts TCP but never speaks Redis: the worst case (a closed port fails faster).
    const { server, port } = await listen();
    servers.push(server);
    server.on('connection', () => undefined);
    const r = await start({ PORT: '0', REDIS_URL: `redis://trawl:s3cret-pw@127.0.0.1:${port}`, TRAWL_REDIS_STARTUP_TIMEOUT_MS: '1500' });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`Redis at 127.0.0.1:${port} did not answer within 1.5 s: is it running, and is REDIS_URL right?`);
    expect(r.stderr).not.toContain('s3cret');
  }, 40_000);

  it('an unreachable REDIS_CLUSTER_NODES stops start-up with one clear line naming every node, no credentials, exit 1', async () => {
    const { server, port } = await listen();
    servers.push(server);
    server.on('connection', () => undefined);
    const closed = await freePort();
    const nodes = `redis://trawl:s3cret-pw@127.0.0.1:${port},redis://127.0.0.1:${closed}`;
    const r = await start({ PORT: '0', REDIS_CLUSTER_NODES: nodes, TRAWL_REDIS_STARTUP_TIMEOUT_MS: '1500' });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`Redis Cluster at 127.0.0.1:${port}, 127.0.0.1:${closed} did not answer within 1.5 s: is it running, and is REDIS_CLUSTER_NODES right?`);
    expect(r.stderr).not.toContain('s3cret');
  }, 40_000);

  it('a port in use is one clear line, not a stack, exit 1', async () => {
    const { server, port } = await listen();
    servers.push(server);
    const r = await start({ PORT: String(port) });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`port ${port} on 127.0.0.1 is already in use: stop what holds it or set PORT`);
  }, 40_000);
});
