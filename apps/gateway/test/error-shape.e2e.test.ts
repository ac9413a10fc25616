import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublicErrorResponse } from '@trawl/contract';
import { startTestGateway, TEST_KEY, type TestGateway } from '@trawl/test-support/gateway.ts';

// Errors raised before any route runs (Node's HTTP parser, Fastify's router) and by admin tRPC keep the
// contract's shape and never echo what the caller sent. Raw sockets: fetch() would refuse to send most of these.

const ADMIN_TOKEN = 'admin-token-0123456789abcdef';
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ TRAWL_ADMIN_TOKEN: ADMIN_TOKEN });
});
afterAll(async () => {
  await gw?.close();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends bytes as they are and reads the answer until the server closes. */
function raw(request: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(gw.url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(port), hostname, () => socket.write(request));
    socket.on('data', (b) => chunks.push(b));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const i = line.indexOf(':');
        headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
    socket.setTimeout(5_000, () => socket.destroy(new Error('no answer')));
  });
}

function contractError(answer: RawAnswer) {
  const body = PublicErrorResponse.parse(JSON.parse(answer.body));
  expect(answer.headers['x-request-id']).toBe(body.error.request_id);
  return body.error;
}

const auth = `Authorization: Bearer ${TEST_KEY}\r\n`;

describe('errors before any route keep the contract shape', () => {
  it('a 5,000-character path parameter: 400 invalid_request, the path not echoed', async () => {
    const id = `run_${'a'.repeat(5000)}`;
    const answer = await raw(`GET /v1/runs/${id} HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`);
    expect(answer.status).toBe(400);
    expect(contractError(answer)).toMatchObject({ code: 'invalid_request', details: { reason: 'path_parameter_too_long' } });
    expect(answer.body).not.toContain('aaaaaaaaaa');
  });

  it('headers over 16 KB: 431 with the contract error, the header not echoed', async () => {
    const answer = await raw(`GET /v1/runs/run_x HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\nConnection: close\r\n\r\n`);
    expect(answer.status).toBe(431);
    expect(contractError(answer)).toMatchObject({ code: 'invalid_request', details: { reason: 'headers_too_large' } });
    expect(answer.body).not.toContain('bbbbbbbbbb');
  });

  it('a header with a DEL byte, bad chunked framing and non-HTTP bytes: 400 invalid_request', async () => {
    const requests = [
      `GET /v1/runs/run_x HTTP/1.1\r\nHost: x\r\nX-Bad: a\x7fb\r\nConnection: close\r\n\r\n`,
      `POST /v1/fetch HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\nConnection: close\r\n\r\nzz\r\n`,
      `HELLO\r\n\r\n`,
    ];
    for (const request of requests) {
      const answer = await raw(request);
      expect(answer.status).toBe(400);
      expect(contractError(answer)).toMatchObject({ code: 'invalid_request', details: { reason: 'malformed_request' } });
    }
  });

  it('a method a route lacks: 405 method_not_allowed with Allow; an unknown path: 404 route_not_found', async () => {
    const cases = [
      ['DELETE', '/v1/fetch', 'POST'],
      ['PUT', '/v1/runs/run_x', 'GET, HEAD'],
      ['GET', '/v1/crawl', 'POST'],
      ['POST', '/v1/crawl/crawl_x/', 'DELETE, GET, HEAD'],
    ] as const;
    for (const [method, path, allow] of cases) {
      const answer = await raw(`${method} ${path} HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 0\r\nConnection: close\r\n\r\n`);
      expect(answer.status, `${method} ${path}`).toBe(405);
      expect(answer.headers.allow, `${method} ${path}`).toBe(allow);
      expect(contractError(answer).code).toBe('method_not_allowed');
    }
    const missing = await raw(`GET /v1/nowhere HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`);
    expect(missing.status).toBe(404);
    expect(contractError(missing).code).toBe('route_not_found');
  });

  it('a body over the limit and a non-JSON content type: 400 invalid_request', async () => {
    const big = await raw(
      `POST /v1/fetch HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 3000000\r\nConnection: close\r\n\r\n{}`,
    );
    expect(big.status).toBe(400);
    expect(contractError(big).details).toEqual({ reason: 'body_too_large' });
    const xml = await raw(`POST /v1/fetch HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: text/xml\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`);
    expect(xml.status).toBe(400);
    expect(contractError(xml).details).toEqual({ reason: 'invalid_media_type' });
  });
});

describe('admin tRPC errors', () => {
  it('answer in tRPC shape with no stack or server path, authenticated or not', async () => {
    const calls = [
      { path: '/admin/teams.get?input=%7B%22name%22%3A%22default%22%7D', token: null, status: 401 },
      { path: '/admin/no.such', token: ADMIN_TOKEN, status: 404 },
      { path: '/admin/teams.get?input=%7B%22name%22%3A5%7D', token: ADMIN_TOKEN, status: 400 },
    ];
    for (const c of calls) {
      const res = await fetch(`${gw.url}${c.path}`, { headers: c.token ? { authorization: `Bearer ${c.token}` } : {} });
      expect(res.status, c.path).toBe(c.status);
      const text = await res.text();
      const body = JSON.parse(text) as { error: { message: string; code: number; data: Record<string, unknown> } };
      expect(typeof body.error.message).toBe('string');
      expect(body.error.data).not.toHaveProperty('stack');
      expect(text).not.toMatch(/\bat .*\(|\/work\/|node_modules|\.ts:\d+/);
    }
  });

  it('say nothing of an unexpected failure, a malformed body or a wrong method, whatever NODE_ENV says', async () => {
    // A store fault whose message and stack name server files: the answer must carry neither.
    const store = gw.ctx.store;
    const listTeams = store.listTeams;
    const fault = new Error(`ENOENT: no such file or directory, open '${process.cwd()}/packages/store/src/teams.ts'`);
    store.listTeams = async () => {
      throw fault;
    };
    const env = process.env.NODE_ENV;
    process.env.NODE_ENV = 'development';
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
    try {
      const calls: [string, RequestInit, number][] = [
        ['/admin/teams.list', { headers: auth }, 500],
        ['/admin/teams.create', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"name": ' }, 400],
        ['/admin/teams.create', { headers: auth }, 405],
        ['/admin/teams.list?input=%7Bnot-json', { headers: auth }, 400],
      ];
      for (const [path, init, status] of calls) {
        const res = await fetch(`${gw.url}${path}`, init);
        const text = await res.text();
        expect(res.status, path).toBe(status);
        expect(text, path).not.toMatch(/\bat .*\(|\/work\/|node_modules|\.ts\b|ENOENT|stack/i);
        expect(text, path).not.toContain(process.cwd());
      }
      const internal = (await (await fetch(`${gw.url}/admin/teams.list`, { headers: auth })).json()) as { error: { message: string; data: Record<string, unknown> } };
      expect(internal.error.message).toBe('internal error; retry later');
      expect(Object.keys(internal.error.data).sort()).toEqual(['code', 'httpStatus', 'path']);
    } finally {
      store.listTeams = listTeams;
      process.env.NODE_ENV = env;
    }
  });
});
