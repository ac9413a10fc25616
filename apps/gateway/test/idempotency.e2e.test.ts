import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageRunResponse, PublicErrorResponse } from '@trawl/contract';
import { startTestGateway, type TestGateway } from '@trawl/test-support/gateway.ts';
import { startFixtureSite } from '@trawl/test-support/fixture-site.ts';
import { randomPrefix, startRedisServer, type RedisServer } from '@trawl/test-support/redis-server.ts';

let site: Awaited<ReturnType<typeof startFixtureSite>>;
let redis: RedisServer;
beforeAll(async () => {
  site = await startFixtureSite();
  redis = await startRedisServer();
});
afterAll(async () => {
  await site?.close();
  await redis?.stop();
});

const modes: [string, () => Record<string, string>][] = [
  ['embedded', () => ({})],
  ['cluster', () => ({ REDIS_URL: redis.url, REDIS_PREFIX: randomPrefix() })],
];

describe.each(modes)('Idempotency-Key on POST /v1/fetch (%s)', (mode, env) => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway(env());
  });
  afterAll(async () => {
    await gw?.close();
  });

  const post = (body: unknown, key: string, headers: Record<string, string> = {}) =>
    gw.call('POST', '/v1/fetch', body, { 'idempotency-key': key, ...headers });

  it('replays the original response for the same key and body: same run, one charge', async () => {
    const team = (await gw.ctx.store.findTeamByName('default'))!;
    const before = await gw.ctx.store.balance(team.id);
    const url = `${site.origin(`idem1-${mode}.test`)}/article`;
    const first = await post({ url }, 'k-replay');
    const second = await post({ url }, 'k-replay');
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const a = PageRunResponse.parse(await first.json());
    const b = PageRunResponse.parse(await second.json());
    expect(b.run.id).toBe(a.run.id);
    expect(b).toEqual(a);
    expect(site.hits('/article', `idem1-${mode}.test`)).toBe(1);
    expect(await gw.ctx.store.balance(team.id)).toBe(before - 1);
  });

  it('treats the same body with other key order and whitespace as identical', async () => {
    const url = `${site.origin(`idem2-${mode}.test`)}/article`;
    const first = await post(`{"url":"${url}"}`, 'k-canon');
    const second = await post(`{ "url" : "${url}" }`, 'k-canon');
    expect((await second.json() as { run: { id: string } }).run.id).toBe((await first.json() as { run: { id: string } }).run.id);
  });

  it('answers 409 idempotency_conflict for the same key with another body', async () => {
    await post({ url: `${site.origin(`idem3-${mode}.test`)}/article` }, 'k-conflict');
    const res = await post({ url: `${site.origin(`idem3-${mode}.test`)}/plain.txt` }, 'k-conflict');
    expect(res.status).toBe(409);
    expect(PublicErrorResponse.parse(await res.json()).error.code).toBe('idempotency_conflict');
  });

  it('answers 409 idempotency_in_progress while the first request still runs', async () => {
    const url = `${site.origin(`idem4-${mode}.test`)}/slow?ms=1500`;
    const first = post({ url }, 'k-progress');
    await new Promise((r) => setTimeout(r, 300));
    const second = await post({ url }, 'k-progress');
    expect(second.status).toBe(409);
    const e = PublicErrorResponse.parse(await second.json()).error;
    expect(e.code).toBe('idempotency_in_progress');
    expect(e.retryable).toBe(true);
    expect((await first).status).toBe(200);
  });

  it('keeps keys apart per team', async () => {
    const team = await gw.ctx.store.createTeam('idem-other');
    await gw.ctx.store.grantCredits(team.id, 10);
    const { secret } = await gw.ctx.store.createApiKey(team.id, { label: 'x', scopes: ['fetch'] });
    const url = `${site.origin(`idem5-${mode}.test`)}/article`;
    const a = await post({ url }, 'k-team');
    const b = await post({ url }, 'k-team', { authorization: `Bearer ${secret}` });
    expect((await b.json() as { run: { id: string } }).run.id).not.toBe((await a.json() as { run: { id: string } }).run.id);
  });

  it('creates exactly one run for 50 simultaneous identical requests', async () => {
    const url = `${site.origin(`idem6-${mode}.test`)}/slow?ms=400`;
    const responses = await Promise.all(Array.from({ length: 50 }, () => post({ url }, 'k-fifty')));
    // One request runs; the others are told it is in progress (409) or, if they reach a loaded machine after it
    // finished, get its replay. Never a second run or a second fetch of the page.
    const fresh = responses.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') !== 'true');
    const replayed = responses.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') === 'true');
    expect(fresh).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409).length + replayed.length).toBe(49);
    expect(site.hits('/slow', `idem6-${mode}.test`)).toBe(1);
    const replay = await post({ url }, 'k-fifty');
    const runId = ((await fresh[0].json()) as { run: { id: string } }).run.id;
    expect(((await replay.json()) as { run: { id: string } }).run.id).toBe(runId);
    for (const r of replayed) expect(((await r.json()) as { run: { id: string } }).run.id).toBe(runId);
  });
});
