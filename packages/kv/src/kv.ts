/**
 * An ordered key-value store with synchronous, atomic transactions and per-key expiry: what the embedded backends
 * of the store, the frontier, trends jobs and webhooks build their rules on, the way the Redis backends build them
 * on Lua scripts. Two implementations: on LMDB in a data directory (lmdb-kv.ts) and in memory (memory-kv.ts).
 * One process owns a data directory at a time (see dir-lock.ts), and a transaction runs to its end before the next
 * starts, so a read-modify-write inside `transact` is atomic like a Lua script.
 */

/** Keys are strings (sorted by their UTF-8 bytes) of at most MAX_KEY_BYTES: hash anything longer (URLs). */
export const MAX_KEY_BYTES = 1000;

export interface RangeOptions {
  /** Every key starting with this (alone, or narrowed by start/end). */
  prefix?: string;
  /** First key included. */
  start?: string;
  /** First key excluded. */
  end?: string;
  reverse?: boolean;
  limit?: number;
}

export interface PutOptions {
  /** Epoch ms after which the key reads as absent (and a sweep deletes it); omitted: no expiry. */
  expiresAt?: number;
}

/** Reads and writes inside one transaction: reads see the transaction's own writes; expired keys read as absent. */
export interface KvTx {
  get<T = unknown>(key: string): T | undefined;
  has(key: string): boolean;
  /** Values are anything msgpack encodes: objects, arrays, strings, numbers, booleans, null, Buffers. */
  put(key: string, value: unknown, opts?: PutOptions): void;
  del(key: string): boolean;
  /** The key's expiry (epoch ms), or null when it has none or does not exist. */
  expiresAt(key: string): number | null;
  /** Sets (or with null removes) an existing key's expiry; false when the key does not exist. */
  expire(key: string, at: number | null): boolean;
  /**
   * Schedules every key under `prefix` (those there now and any written later) for deletion by sweeps once `at`
   * has passed; null cancels. Replaces an earlier schedule of the same prefix. Unlike `expire`, it rewrites no
   * value, so forgetting a crawl of 2,000 items costs one write, not 2,000 rewrites of 40 KB values. Reads of those
   * keys are unaffected until a sweep deletes them: a reader that must not see them checks a key of its own that
   * carries the same expiry through `put` (the crawl store's meta).
   */
  expirePrefix(prefix: string, at: number | null): void;
  /** Live entries in key order (or reverse). The iterator must be used up inside the transaction. */
  range<T = unknown>(opts: RangeOptions): Iterable<{ key: string; value: T }>;
}

/**
 * `usedBytes`: the pages that hold live data (keys, values, the B-tree and its free-page list), which falls when
 * keys are deleted; `fileBytes`: the data file, which keeps its high-water mark (freed pages are reused, never
 * returned to the file system). In memory (memory-kv.ts): `usedBytes` is the bytes of keys and encoded values
 * held, and `fileBytes` 0, there being no file.
 */
export interface KvSpace {
  usedBytes: number;
  fileBytes: number;
}

export interface Kv {
  /** Runs `fn` atomically: all its writes or none (an exception rolls back). Must not await. */
  transact<T>(fn: (tx: KvTx) => T): T;
  /** Deletes up to `max` keys whose expiry (their own, or their prefix's) has passed; how many it deleted. */
  sweepExpired(max: number): number;
  /** How much of the disk (or memory) the store takes (see KvSpace). */
  space(): KvSpace;
  /** The data directory (`:memory:` for the in-memory Kv). */
  readonly dir: string;
  /**
   * Transactions run so far (`transact` calls; sweeps apart): a count of the store's work that does not depend on
   * the machine, which tests hold per delivered page (test/embedded/store-work-per-page.test.ts).
   */
  readonly transactions: number;
  /** Flushes to disk and releases the directory (in memory: drops the data); later calls throw. */
  close(): Promise<void>;
}
