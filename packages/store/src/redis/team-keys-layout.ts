import type { RedisServerConnection } from '@trawl/redis';
import { StoreKeys } from './keys.ts';

/** The key families of teams, names and API keys before they shared a hash tag, and where each record goes now. */
const FAMILIES: readonly [head: string, move: (k: StoreKeys, rest: string) => string][] = [
  ['team:', (k, rest) => k.team(rest)],
  ['team-name:', (k, rest) => k.teamByName(rest)],
  ['apikey:', (k, rest) => k.apiKeyByHash(rest)],
  ['apikey-id:', (k, rest) => k.apiKeyHashById(rest)],
  ['team-keys:', (k, rest) => k.teamKeys(rest)],
];

/**
 * Moves the team, team-name and API-key records a standalone Redis holds from before they shared the `{teams}` hash
 * tag (without it a Redis Cluster could not create a team or rotate a key atomically), so an upgrade keeps every
 * team and key. Once per prefix: a marker key records it, so later starts cost one GET, not a scan of the keyspace.
 * RENAMENX per record: safe to run from several processes at once, and a record already written under the new
 * name is never overwritten. Returns how many records moved.
 */
export async function moveTeamKeysUnderTag(redis: RedisServerConnection, prefix: string): Promise<number> {
  const k = new StoreKeys(prefix);
  if ((await redis.get(k.teamsLayout())) !== null) return 0;
  let moved = 0;
  const move = async (from: string, to: string) => {
    try {
      moved += Number(await redis.renameNX(from, to));
    } catch (err) {
      // Another process moved it first.
      if (!/no such key/i.test(String((err as Error).message))) throw err;
    }
  };
  await move(`${prefix}teams`, k.teams());
  for (const [head, to] of FAMILIES) {
    for await (const keys of redis.scanIterator({ MATCH: `${prefix}${head}*`, COUNT: 1000 })) {
      for (const key of keys) await move(key, to(k, key.slice(prefix.length + head.length)));
    }
  }
  await redis.set(k.teamsLayout(), '2');
  return moved;
}
