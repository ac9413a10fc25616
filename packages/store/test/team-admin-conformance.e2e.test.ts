import { describe, expect, it } from 'vitest';
import { moveTeamKeysUnderTag, RedisStore } from '../src/index.ts';
import { useRedisBackend } from '@trawl/test-support/backends.ts';
import { T0, teamAdminConformance } from './team-admin-suite.ts';
import { redisStores } from './store-backends.ts';

const redis = useRedisBackend();

teamAdminConformance(redisStores(redis));

describe('team admin: Redis specifics', () => {
  it('redis: a team record written before teams could be disabled reads as enabled', async () => {
    const prefix = redis.prefix();
    const store = new RedisStore(redis.conn, prefix);
    await redis.conn.set(`${prefix}{teams}:team:team_old`, JSON.stringify({ id: 'team_old', name: 'old', created_at: new Date(T0).toISOString() }));
    expect(await store.getTeam('team_old')).toEqual({ id: 'team_old', name: 'old', created_at: new Date(T0).toISOString(), disabled_at: null });
    expect((await store.setTeamDisabled('team_old', true))?.disabled_at).not.toBeNull();
  });

  it('redis: a name left without its team record by an older version gets a record again', async () => {
    const prefix = redis.prefix();
    const store = new RedisStore(redis.conn, prefix, () => T0);
    await redis.conn.set(`${prefix}{teams}:team-name:half`, 'team_half');
    const team = await store.createTeam('half');
    expect(team).toEqual({ id: 'team_half', name: 'half', created_at: new Date(T0).toISOString(), disabled_at: null });
    expect(await store.getTeam('team_half')).toEqual(team);
    expect((await store.listTeams({ limit: 10 })).teams).toEqual([team]);
  });

  it('redis: teams and keys stored before the {teams} hash tag are moved under it once, and all still work', async () => {
    const prefix = redis.prefix();
    const store = new RedisStore(redis.conn, prefix, () => T0);
    const team = await store.createTeam('upgraded');
    const { key, secret } = await store.createApiKey(team.id, { label: 'ci', scopes: ['fetch'] });
    // Back to the layout of the version before: the same records under their untagged names.
    const tagged = await redis.conn.keys(`${prefix}{teams}:*`);
    expect(tagged.length).toBeGreaterThanOrEqual(6);
    for (const k of tagged) await redis.conn.rename(k, k.replace('{teams}:', ''));
    expect(await store.findApiKey(secret)).toBeNull();

    expect(await moveTeamKeysUnderTag(redis.conn, prefix)).toBe(tagged.length);
    expect(await store.findApiKey(secret)).toEqual(key);
    expect(await store.findTeamByName('upgraded')).toEqual(team);
    expect((await store.listTeams({ limit: 10 })).teams).toEqual([team]);
    expect(await store.listApiKeys(team.id)).toEqual([key]);
    expect(await redis.conn.keys(`${prefix}team*`)).toEqual([]);
    // Once per prefix: a record left in the old layout afterwards is not looked for again.
    await redis.conn.set(`${prefix}team:late`, '{}');
    expect(await moveTeamKeysUnderTag(redis.conn, prefix)).toBe(0);
  });
});
