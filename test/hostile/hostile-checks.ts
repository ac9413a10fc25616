import { expect } from 'vitest';
import { PageRunResponse, PublicErrorResponse } from '@trawl/contract';
import type { TestGateway } from '@trawl/test-support/gateway.ts';
import { ORDINARY_MARKER, type HostileSite } from '@trawl/test-support/hostile-site.ts';

/**
 * The longest an ordinary Fetch may take while hostile pages are in flight. Before the content deadlines one waited
 * 50 s behind a deep page; on a loaded 2-core machine a healthy one takes up to ~4 s. How fast they stay is measured
 * by bench/hostile-load.bench.ts, not here.
 */
export const ORDINARY_BOUND_MS = 10_000;

/** The deadline the hostile suites give the gateway: long enough for real work, short enough to wait out. */
export const DEADLINE_MS = 10_000;
/**
 * How late past the deadline an answer may come (scheduling on two loaded shared cores, closing a renderer that is
 * still parsing 5 MiB, the response itself): 15,016 ms was seen for /binary in a full run.
 */
export const GRACE_MS = 7000;

export interface Answer {
  path: string;
  status: number;
  ms: number;
  body: unknown;
}

/** One call, timed; its body must be the contract's page result (200) or error object (anything else). */
export async function timedCall(gw: TestGateway, route: string, url: string, path: string, extra: Record<string, unknown> = {}): Promise<Answer> {
  const started = Date.now();
  const res = await gw.call('POST', route, { url, ...extra });
  const body: unknown = await res.json();
  const answer = { path, status: res.status, ms: Date.now() - started, body };
  if (res.status === 200) PageRunResponse.parse(body);
  else PublicErrorResponse.parse(body);
  return answer;
}

/** On time, in shape, and nothing raw (addresses, hosts, paths) in what the caller sees besides its own URLs. */
export function expectOnTime(a: Answer): void {
  expect(a.ms, `${a.path} took ${a.ms} ms`).toBeLessThan(DEADLINE_MS + GRACE_MS);
  const b = a.body as { result?: { diagnostics: unknown; audit: unknown }; error?: { details: unknown; message: string } };
  const exposed = JSON.stringify(b.error ?? { d: b.result?.diagnostics, a: b.result?.audit });
  expect(exposed, a.path).not.toMatch(/127\.0\.0\.1|hostile\.test|\/deep|\/binary|\/loop/);
}

export function expectError(a: Answer, status: number, code: string, blockReason: string, retryable: boolean): void {
  const e = (a.body as PublicErrorResponse).error;
  expect({ path: a.path, status: a.status, code: e.code, block_reason: e.details.block_reason, retryable: e.retryable }).toEqual({
    path: a.path,
    status,
    code,
    block_reason: blockReason,
    retryable,
  });
  expect(typeof e.details.run_id).toBe('string');
}

export function resultOf(a: Answer) {
  expect(a.status, `${a.path}: ${JSON.stringify(a.body).slice(0, 300)}`).toBe(200);
  return PageRunResponse.parse(a.body).result;
}

/**
 * Ordinary Fetches, one every 100 ms, until `until` settles; each must come back whole. Returns their times. (Paced:
 * the suite runs gateway, fixture site and client in one process, and a client spinning flat out would measure
 * its own event loop.)
 */
export async function ordinaryWhile(gw: TestGateway, site: HostileSite, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => (done = true));
  const times: number[] = [];
  for (let n = 0; !done || n < 3; n++) {
    const a = await timedCall(gw, '/v1/fetch', site.url('hostile.test', `/ordinary?n=${n}`), `/ordinary?n=${n}`);
    expect(resultOf(a).content.markdown).toContain(`${ORDINARY_MARKER} ${n}`);
    times.push(a.ms);
    await new Promise((r) => setTimeout(r, 100));
  }
  return times;
}

/** One ordinary Fetch, so that content threads have started (their start is not what the suites measure). */
export async function warmUp(gw: TestGateway, site: HostileSite): Promise<void> {
  resultOf(await timedCall(gw, '/v1/fetch', site.url('hostile.test', '/ordinary?n=0'), 'warm-up'));
}
