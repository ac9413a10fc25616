import { describe, expect, it } from 'vitest';
import { RedisStore } from '../src/index.ts';
import { useRedisBackend } from '@trawl/test-support/backends.ts';
import { T0, teamAdminConformance } from './team-admin-suite.ts';
import { redisStores } from './store-backends.ts';

const redis = useRedisBackend();

teamAdminConformance(redisStores(redis));

describe('team admin: Redis specifics', () => {
  it('redis: a team record written before teams could be disabled reads as enabled', async () => {
    const prefix = redis.prefix();
    const store = new RedisStore(redis.conn, prefix);
    await redis.conn.set(`${prefix}team:team_old`, JSON.stringify({ id: 'team_old', name: 'old', created_at: new Date(T0).toISOString() }));
    expect(await store.getTeam('team_old')).toEqual({ id: 'team_old', name: 'old', created_at: new Date(T0).toISOString(), disabled_at: null });
    expect((await store.setTeamDisabled('team_old', true))?.disabled_at).not.toBeNull();
  });

  it('redis: a name left without its team record by an older version gets a record again', async () => {
    const prefix = redis.prefix();
    const store = new RedisStore(redis.conn, prefix, () => T0);
    await redis.conn.set(`${prefix}team-name:half`, 'team_half');
    const team = await store.createTeam('half');
    expect(team).toEqual({ id: 'team_half', name: 'half', created_at: new Date(T0).toISOString(), disabled_at: null });
    expect(await store.getTeam('team_half')).toEqual(team);
    expect((await store.listTeams({ limit: 10 })).teams).toEqual([team]);
  });
});
