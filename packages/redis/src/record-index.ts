import type { RedisConnection } from './client.ts';
import { loadScripts } from './script.ts';

const scripts = loadScripts(new URL('./lua/', import.meta.url), ['record-index-prune-2.lua']);

/** Entries dropped per prune: pruning runs on every write and read of the index, so a backlog drains quickly. */
const PRUNE_BATCH = 200;

/** The keys of one index; all three share one Redis Cluster hash tag (the prune script touches them together). */
export interface RecordIndexKeys {
  all: string;
  /** Per-team zsets are `teamBase + team id`. */
  teamBase: string;
  expiring: string;
}

/**
 * Cluster-mode twin of `@trawl/kv` KvRecordIndex: a newest-first index of records (crawls, trends jobs) by index
 * key ("<15-digit created ms>:<id>", lexicographic order), all and per team, whose entries leave once their
 * record's forget time has come, so the index is bounded like the records. A Lua script that settles a record may
 * add to `expiring` itself, with the member "<index key>\n<team id>".
 */
export class RedisRecordIndex {
  constructor(
    private readonly redis: RedisConnection,
    private readonly keys: RecordIndexKeys,
  ) {}

  static expiringMember(key: string, team: string): string {
    return `${key}\n${team}`;
  }

  /** Adds a record; entries due to go are dropped on the way, so the index stays bounded even if nobody lists it. */
  async add(key: string, team: string, now: number): Promise<void> {
    await this.redis
      .multi()
      .zAdd(this.keys.all, { score: 0, value: key })
      .zAdd(this.keys.teamBase + team, { score: 0, value: key })
      .exec();
    await this.prune(now);
  }

  async expireAt(key: string, team: string, atMs: number): Promise<void> {
    await this.redis.zAdd(this.keys.expiring, { score: atMs, value: RedisRecordIndex.expiringMember(key, team) });
  }

  /** Index keys newest first, strictly before `after`, of one team or all. */
  async page(q: { team_id?: string; after?: string; limit: number }, now: number): Promise<string[]> {
    await this.prune(now);
    const key = q.team_id === undefined ? this.keys.all : this.keys.teamBase + q.team_id;
    return this.redis.zRange(key, q.after === undefined ? '+' : `(${q.after}`, '-', {
      BY: 'LEX',
      REV: true,
      LIMIT: { offset: 0, count: q.limit },
    });
  }

  /** Records with a forget time still ahead, soonest first. */
  async expiring(limit: number, now: number): Promise<{ key: string; team: string; at: number }[]> {
    await this.prune(now);
    const rows = await this.redis.zRangeWithScores(this.keys.expiring, `(${now}`, '+inf', {
      BY: 'SCORE',
      LIMIT: { offset: 0, count: limit },
    });
    return rows.map((r) => {
      const nl = r.value.indexOf('\n');
      return { key: r.value.slice(0, nl), team: r.value.slice(nl + 1), at: r.score };
    });
  }

  async prune(now: number): Promise<number> {
    return Number(await scripts['record-index-prune'].run(this.redis, [this.keys.all, this.keys.expiring], [now, PRUNE_BATCH, this.keys.teamBase]));
  }
}
