import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublicErrorResponse } from '@trawl/contract';
import { adminErrorOf, createAdminClient, type AdminClient } from '@trawl/admin/client';
import { startFixtureSite, type FixtureSite } from '@trawl/test-support/fixture-site.ts';
import { PIZZA_GRAIN } from '@trawl/test-support/trends-client.ts';
import { startTestGateway, TEST_KEY, useGatewayPair, type TestGateway } from '@trawl/test-support/gateway.ts';
import { randomPrefix, startRedisServer, type RedisServer } from '@trawl/test-support/redis-server.ts';

/**
 * The admin API through its typed client against a real gateway, embedded and cluster: every procedure of teams,
 * keys, credits and limits, the cluster views' answers and errors, its errors as tRPC codes, the admin token as the only way in, and what it does to /v1
 * (a disabled team's keys refused, a rotated key replaced).
 */
const ADMIN = 'admin-token-0123456789abcdef';
const CREDITS = 25;
const ENV = { TRAWL_ADMIN_TOKEN: ADMIN, TRAWL_WORKERS: '0', TRAWL_TEAM_CREDITS: String(CREDITS), LOG_LEVEL: 'warn' };

let redis: RedisServer;
let site: FixtureSite;
beforeAll(async () => {
  redis = await startRedisServer();
  site = await startFixtureSite();
});
afterAll(async () => {
  await site?.close();
  await redis?.stop();
});

const modes: [string, () => Record<string, string>][] = [
  ['embedded', () => ({})],
  ['cluster', () => ({ REDIS_URL: redis.url, REDIS_PREFIX: randomPrefix() })],
];

/** The tRPC code an admin call failed with; fails the test when the call succeeds. */
async function codeOf(call: () => Promise<unknown>): Promise<string | undefined> {
  const outcome = await call().then(
    () => null,
    (err: unknown) => ({ err }),
  );
  if (outcome === null) throw new Error('the admin call succeeded');
  return adminErrorOf(outcome.err)?.code;
}

/** A /v1 caller with one API key. */
function v1(gw: TestGateway, secret: string) {
  const call = (method: string, path: string, body?: unknown) => gw.call(method, path, body, { authorization: `Bearer ${secret}` });
  return {
    fetchPage: () => call('POST', '/v1/fetch', { url: `${site.origin('site.test')}/article` }),
    readRun: () => call('GET', '/v1/runs/run_missing'),
  };
}

async function errorCode(res: Response) {
  return PublicErrorResponse.parse(await res.json()).error;
}

describe.each(modes)('admin API over the typed client (%s)', (mode, env) => {
  let gw: TestGateway;
  let admin: AdminClient;
  beforeAll(async () => {
    gw = await startTestGateway({ ...ENV, ...env() });
    admin = createAdminClient({ baseUrl: gw.url, token: ADMIN });
  });
  afterAll(async () => {
    await gw?.close();
  });
  const name = (s: string) => `${s}-${mode}`;

  it('teams.create is safe to repeat (also at once) and grants TRAWL_TEAM_CREDITS once, as a ledger entry', async () => {
    const made = await Promise.all(Array.from({ length: 5 }, () => admin.teams.create.mutate({ name: name('acme') })));
    expect(new Set(made.map((t) => t.id)).size).toBe(1);
    expect(made[0]).toMatchObject({ name: name('acme'), disabled_at: null });
    expect(await admin.teams.create.mutate({ name: name('acme') })).toEqual(made[0]);
    const credits = await admin.credits.balance.query({ team_id: made[0].id });
    expect(credits.balance).toBe(CREDITS);
    expect(credits.entries).toEqual([expect.objectContaining({ team_id: made[0].id, units: -CREDITS, reason: 'team_grant' })]);
  });

  it('teams.get by id or name; teams.list pages every team, disabled ones included', async () => {
    const create = (n: string) => admin.teams.create.mutate({ name: name(n) });
    const teams = [await create('list-a'), await create('list-b'), await create('list-c')];
    await admin.teams.disable.mutate({ team_id: teams[1].id });
    expect(await admin.teams.get.query({ team_id: teams[0].id })).toEqual(teams[0]);
    expect((await admin.teams.get.query({ name: name('list-b') })).disabled_at).not.toBeNull();

    const seen = [];
    let cursor: string | undefined;
    do {
      const page = await admin.teams.list.query({ limit: 2, cursor });
      expect(page.teams.length).toBeLessThanOrEqual(2);
      seen.push(...page.teams);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(new Set(seen.map((t) => t.id)).size).toBe(seen.length);
    expect(seen.map((t) => t.name)).toEqual(expect.arrayContaining(['default', ...['list-a', 'list-b', 'list-c'].map(name)]));
    expect(seen.find((t) => t.id === teams[1].id)?.disabled_at).not.toBeNull();
    expect((await admin.teams.list.query()).teams.length).toBe(seen.length);
  });

  it('a disabled team’s keys get 403 permission_denied on /v1 (fetch and a read); enabled again, they work', async () => {
    const team = await admin.teams.create.mutate({ name: name('disable-me') });
    const { secret } = await admin.keys.create.mutate({ team_id: team.id, label: 'ci' });
    const caller = v1(gw, secret);
    expect((await caller.readRun()).status).toBe(404);

    const disabled = await admin.teams.disable.mutate({ team_id: team.id });
    expect(disabled.disabled_at).not.toBeNull();
    for (const res of [await caller.fetchPage(), await caller.readRun()]) {
      expect(res.status).toBe(403);
      expect(await errorCode(res)).toMatchObject({ code: 'permission_denied', details: { reason: 'team_disabled' } });
    }
    // A key made while the team is disabled is refused the same way.
    const late = await admin.keys.create.mutate({ team_id: team.id, label: 'late', scopes: ['runs'] });
    expect((await v1(gw, late.secret).readRun()).status).toBe(403);

    expect((await admin.teams.disable.mutate({ team_id: team.id, disabled: false })).disabled_at).toBeNull();
    const fetched = await caller.fetchPage();
    expect(fetched.status).toBe(200);
    expect((await caller.readRun()).status).toBe(404);
    // The bootstrap team was never touched.
    expect((await gw.call('GET', '/v1/runs/run_missing')).status).toBe(404);
  });

  it('keys: the secret shown once, listed never; revoke; rotate gives a new secret and the old one gets 401', async () => {
    const team = await admin.teams.create.mutate({ name: name('keys') });
    const made = await admin.keys.create.mutate({ team_id: team.id, label: 'ci', scopes: ['runs', 'runs'] });
    expect(made.key).toMatchObject({ team_id: team.id, label: 'ci', scopes: ['runs'], revoked_at: null });
    const other = await admin.keys.create.mutate({ team_id: team.id, label: 'all' });
    expect(other.key.scopes).toEqual(['fetch', 'crawl', 'trends', 'runs']);

    const listed = await admin.keys.list.query({ team_id: team.id });
    expect(listed.keys.map((k) => k.id).sort()).toEqual([made.key.id, other.key.id].sort());
    expect(JSON.stringify(listed)).not.toContain(made.secret);
    for (const k of listed.keys) expect(Object.keys(k).sort()).toEqual(['created_at', 'id', 'label', 'revoked_at', 'scopes', 'team_id']);

    const rotated = await admin.keys.rotate.mutate({ team_id: team.id, key_id: made.key.id });
    expect(rotated).toMatchObject({ replaced_key_id: made.key.id, key: { team_id: team.id, label: 'ci', scopes: ['runs'], revoked_at: null } });
    const oldRes = await v1(gw, made.secret).readRun();
    expect(oldRes.status).toBe(401);
    expect((await errorCode(oldRes)).code).toBe('authentication_required');
    expect((await v1(gw, rotated.secret).readRun()).status).toBe(404);
    expect(await codeOf(() => admin.keys.rotate.mutate({ team_id: team.id, key_id: made.key.id }))).toBe('CONFLICT');

    const revoked = await admin.keys.revoke.mutate({ team_id: team.id, key_id: rotated.key.id });
    expect(revoked.revoked).toBe(true);
    expect(revoked.key.revoked_at).not.toBeNull();
    expect((await admin.keys.revoke.mutate({ team_id: team.id, key_id: rotated.key.id })).revoked).toBe(false);
    expect((await v1(gw, rotated.secret).readRun()).status).toBe(401);
    const after = await admin.keys.list.query({ team_id: team.id });
    expect(after.keys.filter((k) => k.revoked_at === null).map((k) => k.id)).toEqual([other.key.id]);
  });

  it('credits.grant adds a ledger entry; credits.balance pages the ledger newest first', async () => {
    const team = await admin.teams.create.mutate({ name: name('credits') });
    for (const units of [1, 2, 3]) await admin.credits.grant.mutate({ team_id: team.id, units });
    expect(await admin.credits.grant.mutate({ team_id: team.id, units: 4 })).toEqual({ team_id: team.id, balance: CREDITS + 10 });
    const first = await admin.credits.balance.query({ team_id: team.id, limit: 3 });
    expect(first.balance).toBe(CREDITS + 10);
    expect(first.entries.map((e) => [e.units, e.reason])).toEqual([
      [-4, 'admin_grant'],
      [-3, 'admin_grant'],
      [-2, 'admin_grant'],
    ]);
    const rest = await admin.credits.balance.query({ team_id: team.id, limit: 3, cursor: first.next_cursor! });
    expect(rest.entries.map((e) => [e.units, e.reason])).toEqual([
      [-1, 'admin_grant'],
      [-CREDITS, 'team_grant'],
    ]);
    expect(rest.next_cursor).toBeNull();
  });

  it('limits.set and limits.get: an override, then back to the default', async () => {
    const team = await admin.teams.create.mutate({ name: name('limits') });
    const set = await admin.limits.set.mutate({ team_id: team.id, route_class: 'fetch', per_minute: 3000 });
    expect(set.limits.fetch).toEqual({ per_minute: 3000, source: 'override' });
    expect((await admin.limits.get.query({ team_id: team.id })).limits.fetch.source).toBe('override');
    await admin.limits.set.mutate({ team_id: team.id, route_class: 'fetch', per_minute: null });
    expect((await admin.limits.get.query({ team_id: team.id })).limits.fetch).toEqual({ per_minute: 0, source: 'default' });
  });

  it('bad inputs are BAD_REQUEST; unknown teams and keys NOT_FOUND', async () => {
    const team = await admin.teams.create.mutate({ name: name('errors') });
    const t = team.id;
    const bad: [string, () => Promise<unknown>][] = [
      ['empty name', () => admin.teams.create.mutate({ name: '' })],
      ['unknown field', () => admin.teams.create.mutate({ name: 'x', extra: 1 } as never)],
      ['limit 0', () => admin.teams.list.query({ limit: 0 })],
      ['neither id nor name', () => admin.teams.get.query({} as never)],
      ['disabled not boolean', () => admin.teams.disable.mutate({ team_id: t, disabled: 'yes' } as never)],
      ['unknown scope', () => admin.keys.create.mutate({ team_id: t, label: 'x', scopes: ['admin'] } as never)],
      ['no scopes', () => admin.keys.create.mutate({ team_id: t, label: 'x', scopes: [] })],
      ['no key id', () => admin.keys.rotate.mutate({ team_id: t } as never)],
      ['zero units', () => admin.credits.grant.mutate({ team_id: t, units: 0 })],
      ['fractional units', () => admin.credits.grant.mutate({ team_id: t, units: 1.5 })],
      ['bad ledger cursor', () => admin.credits.balance.query({ team_id: t, cursor: 'abc' })],
      ['unknown class', () => admin.limits.set.mutate({ team_id: t, route_class: 'writes', per_minute: 1 } as never)],
    ];
    for (const [what, call] of bad) expect(await codeOf(call), what).toBe('BAD_REQUEST');

    const nobody = 'team_nobody';
    const missing: [string, () => Promise<unknown>][] = [
      ['teams.get id', () => admin.teams.get.query({ team_id: nobody })],
      ['teams.get name', () => admin.teams.get.query({ name: 'nobody-at-all' })],
      ['teams.disable', () => admin.teams.disable.mutate({ team_id: nobody })],
      ['keys.create', () => admin.keys.create.mutate({ team_id: nobody, label: 'x' })],
      ['keys.list', () => admin.keys.list.query({ team_id: nobody })],
      ['keys.revoke team', () => admin.keys.revoke.mutate({ team_id: nobody, key_id: 'key_x' })],
      ['keys.revoke key', () => admin.keys.revoke.mutate({ team_id: t, key_id: 'key_x' })],
      ['keys.rotate key', () => admin.keys.rotate.mutate({ team_id: t, key_id: 'key_x' })],
      ['credits.grant', () => admin.credits.grant.mutate({ team_id: nobody, units: 1 })],
      ['credits.balance', () => admin.credits.balance.query({ team_id: nobody })],
      ['limits.set', () => admin.limits.set.mutate({ team_id: nobody, route_class: 'fetch', per_minute: 1 })],
      ['limits.get', () => admin.limits.get.query({ team_id: nobody })],
    ];
    for (const [what, call] of missing) expect(await codeOf(call), what).toBe('NOT_FOUND');
    // Another team's key is not found through this team.
    const otherTeam = await admin.teams.create.mutate({ name: name('errors-other') });
    const { key } = await admin.keys.create.mutate({ team_id: otherTeam.id, label: 'x' });
    expect(await codeOf(() => admin.keys.revoke.mutate({ team_id: t, key_id: key.id }))).toBe('NOT_FOUND');
    expect(await codeOf(() => admin.keys.rotate.mutate({ team_id: t, key_id: key.id }))).toBe('NOT_FOUND');
  });

  it('cluster views across teams: trends jobs listed and read, an idle frontier and no workers; unknown ids NOT_FOUND, bad cursors and filters BAD_REQUEST', async () => {
    const team = await admin.teams.create.mutate({ name: name('views') });
    const { secret } = await admin.keys.create.mutate({ team_id: team.id, label: 'trends', scopes: ['trends'] });
    const created = await gw.call('POST', '/v1/search-trends/related-queries', PIZZA_GRAIN, { authorization: `Bearer ${secret}` });
    expect(created.status).toBe(202);
    const job = ((await created.json()) as { job: { id: string } }).job;
    const listed = await admin.trends.list.query({ team_id: team.id });
    expect(listed.jobs.map((j) => [j.id, j.team_id])).toEqual([[job.id, team.id]]);
    expect(listed.next_cursor).toBeNull();
    expect(await admin.trends.get.query({ job_id: job.id })).toMatchObject({ id: job.id, team_id: team.id });
    expect((await admin.crawls.list.query({ team_id: team.id })).crawls).toEqual([]);
    // TRAWL_WORKERS=0: nothing crawls, nothing is queued.
    expect((await admin.workers.list.query()).workers).toEqual([]);
    expect((await admin.frontier.stats.query({})).hosts).toEqual([]);
    expect(Array.isArray((await admin.retention.upcoming.query({})).items)).toBe(true);

    expect(await codeOf(() => admin.crawls.get.query({ crawl_id: 'crawl_nobody' }))).toBe('NOT_FOUND');
    expect(await codeOf(() => admin.crawls.cancel.mutate({ crawl_id: 'crawl_nobody' }))).toBe('NOT_FOUND');
    expect(await codeOf(() => admin.crawls.pause.mutate({ crawl_id: 'crawl_nobody' }))).toBe('NOT_FOUND');
    expect(await codeOf(() => admin.trends.get.query({ job_id: 'job_nobody' }))).toBe('NOT_FOUND');
    expect(await codeOf(() => admin.crawls.list.query({ cursor: 'not-a-cursor' }))).toBe('BAD_REQUEST');
    expect(await codeOf(() => admin.trends.list.query({ cursor: 'not-a-cursor' }))).toBe('BAD_REQUEST');
    expect(await codeOf(() => admin.crawls.list.query({ status: 'cancelled' } as never))).toBe('BAD_REQUEST');
    expect(await codeOf(() => admin.frontier.stats.query({ limit: 0 }))).toBe('BAD_REQUEST');
    expect(await codeOf(() => admin.retention.upcoming.query({ limit: 1000 }))).toBe('BAD_REQUEST');
  });

  it('no token, a wrong token or a /v1 API key as bearer: UNAUTHORIZED, and nothing changes', async () => {
    for (const token of ['wrong-token-0123456789abcdef', TEST_KEY]) {
      const intruder = createAdminClient({ baseUrl: gw.url, token });
      expect(await codeOf(() => intruder.teams.list.query())).toBe('UNAUTHORIZED');
      expect(await codeOf(() => intruder.teams.create.mutate({ name: name('intruder') }))).toBe('UNAUTHORIZED');
      expect(await codeOf(() => intruder.keys.create.mutate({ team_id: 'team_x', label: 'x' }))).toBe('UNAUTHORIZED');
      expect(await codeOf(() => intruder.quotas.get.query({ team_id: 'team_x' }))).toBe('UNAUTHORIZED');
      expect(await codeOf(() => intruder.crawls.list.query({}))).toBe('UNAUTHORIZED');
      expect(await codeOf(() => intruder.crawls.cancel.mutate({ crawl_id: 'crawl_x' }))).toBe('UNAUTHORIZED');
      expect(await codeOf(() => intruder.workers.list.query())).toBe('UNAUTHORIZED');
      expect(await codeOf(() => intruder.frontier.stats.query({}))).toBe('UNAUTHORIZED');
      expect(await codeOf(() => intruder.trends.list.query({}))).toBe('UNAUTHORIZED');
      expect(await codeOf(() => intruder.retention.upcoming.query({}))).toBe('UNAUTHORIZED');
    }
    const bare = await fetch(`${gw.url}/admin/teams.create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: name('intruder') }),
    });
    expect(bare.status).toBe(401);
    expect(((await bare.json()) as { error: { data: { code: string } } }).error.data.code).toBe('UNAUTHORIZED');
    expect(await codeOf(() => admin.teams.get.query({ name: name('intruder') }))).toBe('NOT_FOUND');
  });
});

describe('cluster: disabling a team takes effect on every gateway at its next request', () => {
  const pair = useGatewayPair(() => ({ ...ENV, REDIS_URL: redis.url, REDIS_PREFIX: randomPrefix() }));

  it('refuses the team’s key on the other gateway at once, and serves it again once enabled there', async () => {
    const { a, b } = pair;
    const viaA = createAdminClient({ baseUrl: a.url, token: ADMIN });
    const viaB = createAdminClient({ baseUrl: `${b.url}/`, token: ADMIN });
    const team = await viaA.teams.create.mutate({ name: 'two-gateways' });
    const { secret } = await viaA.keys.create.mutate({ team_id: team.id, label: 'ci' });
    expect((await v1(b, secret).readRun()).status).toBe(404);
    await viaA.teams.disable.mutate({ team_id: team.id });
    expect((await v1(b, secret).readRun()).status).toBe(403);
    await viaB.teams.disable.mutate({ team_id: team.id, disabled: false });
    expect((await v1(a, secret).readRun()).status).toBe(404);
  });
});

describe('without TRAWL_ADMIN_TOKEN', () => {
  it('there is no /admin at all: 404 route_not_found, whatever the token', async () => {
    const gw = await startTestGateway({ TRAWL_WORKERS: '0', LOG_LEVEL: 'warn' });
    try {
      expect(gw.app.routeList.filter((r) => r.url.startsWith('/admin'))).toEqual([]);
      for (const [method, path] of [
        ['GET', '/admin/teams.list'],
        ['POST', '/admin/teams.create'],
      ]) {
        const res = await gw.call(method, path, method === 'POST' ? { name: 'x' } : undefined, { authorization: `Bearer ${ADMIN}` });
        expect(res.status).toBe(404);
        expect((await errorCode(res)).code).toBe('route_not_found');
      }
      const client = createAdminClient({ baseUrl: gw.url, token: ADMIN });
      await expect(client.teams.list.query()).rejects.toThrow();
    } finally {
      await gw.close();
    }
  });
});
