import type * as NodeRedis from 'redis';

/** The longest pause between two reconnection attempts. */
export const RECONNECT_MAX_DELAY_MS = 2_000;

/**
 * Reconnection never gives up: a Trawl process outlives any Redis outage and carries on when Redis is back.
 * Exponential from 50 ms to RECONNECT_MAX_DELAY_MS, with jitter so a cluster's processes do not reconnect in step.
 */
export function reconnectDelay(retries: number): number {
  const base = Math.min(50 * 2 ** Math.min(retries, 10), RECONNECT_MAX_DELAY_MS);
  return Math.round(base / 2 + Math.random() * (base / 2));
}

/**
 * node-redis, loaded by the first connection rather than with the process: embedded mode never connects, and
 * node-redis with its modules is about 650 files, a quarter of what a gateway would otherwise load at start.
 */
let nodeRedis: typeof NodeRedis | null = null;

/** node-redis once a connection has loaded it; null before (then no error can be one of its own). */
export function loadedNodeRedis(): typeof NodeRedis | null {
  return nodeRedis;
}

/** The one place that imports node-redis (with unavailable.ts's error checks). Everything else talks to `RedisConnection`. */
function makeClient(redis: typeof NodeRedis, url: string, name: string) {
  return redis.createClient({
    url,
    name,
    // While disconnected, commands fail at once (ClientOfflineError) instead of piling up in an unbounded
    // in-memory queue: callers retry with backoff (workers) or answer 503 (gateway).
    disableOfflineQueue: true,
    socket: { reconnectStrategy: reconnectDelay },
  });
}
export type RedisConnection = ReturnType<typeof makeClient>;

/** Redis could not be reached when the process started: a clear one-line reason, never the URL's credentials. */
export class RedisUnreachableError extends Error {
  constructor(where: string, timeoutMs: number) {
    super(`Redis at ${where} did not answer within ${timeoutMs / 1000} s: is it running, and is REDIS_URL right?`);
    this.name = 'RedisUnreachableError';
  }
}

/** host:port of a Redis URL, without user or password. */
function redisAddress(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '6379'}`;
  } catch {
    return '(unparseable REDIS_URL)';
  }
}

/**
 * Connects, giving up after `startupTimeoutMs` with RedisUnreachableError: once running, a process rides out any
 * outage (reconnection never stops), but a process starting against a Redis that is not there should say so at
 * once rather than wait forever.
 */
export async function connectRedis(url: string, name = 'trawl', startupTimeoutMs = 5_000): Promise<RedisConnection> {
  nodeRedis ??= await import('redis');
  const client = makeClient(nodeRedis, url, name);
  client.on('error', () => {
    // Reconnection is automatic; individual commands reject while disconnected.
  });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), startupTimeoutMs);
  });
  const connected = client.connect().then(() => 'connected' as const);
  const first = await Promise.race([connected, timedOut]);
  clearTimeout(timer);
  if (first === 'timeout') {
    connected.catch(() => undefined);
    client.destroy();
    throw new RedisUnreachableError(redisAddress(url), startupTimeoutMs);
  }
  return client;
}

/**
 * Closes a connection, gracefully when Redis answers (QUIT), and at most `timeoutMs` later by dropping the socket:
 * while Redis is down, QUIT waits for a reconnection that may never come, and a process asked to stop must stop.
 */
export async function closeConnection(client: RedisConnection, timeoutMs = 1_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const quit = client.quit().then(
    () => true,
    () => false,
  );
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const clean = await Promise.race([quit, timedOut]);
  clearTimeout(timer);
  if (!clean && client.isOpen) client.destroy();
}

export async function sendCommand<T = unknown>(client: RedisConnection, args: (string | Buffer)[]): Promise<T> {
  return (await client.sendCommand(args)) as T;
}

/** GET that returns the raw bytes (node-redis decodes replies as strings by default). */
export async function getBuffer(client: RedisConnection, key: string): Promise<Buffer | null> {
  // A connection exists, so node-redis is loaded.
  const raw = client.withTypeMapping({ [nodeRedis!.RESP_TYPES.BLOB_STRING]: Buffer });
  return (await raw.get(key)) as Buffer | null;
}
