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

/** Where Redis is: one server (REDIS_URL), or a Redis Cluster by some of its nodes (REDIS_CLUSTER_NODES). */
export type RedisTarget = { url: string } | { clusterNodes: readonly string[] };

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

/**
 * node-redis's cluster client: it learns the slot map from any seed node, follows MOVED and ASK, reads the map again
 * when a node is lost (a failover), and routes each command, MULTI and script by its first key. Every node's
 * connection follows the same outage rules as a single server's. Nodes the seeds name are reached with the seeds'
 * credentials.
 */
function makeCluster(redis: typeof NodeRedis, urls: readonly string[], name: string) {
  const first = new URL(urls[0] ?? 'redis://127.0.0.1:6379');
  return redis.createCluster({
    rootNodes: urls.map((url) => ({ url })),
    // While a node is reconnecting, read the slot map again every second (node-redis's default: 5 s), so a promoted
    // replica is found about as soon as the cluster has promoted it.
    topologyRefreshOnReconnectionAttemptStrategy: 1_000,
    defaults: {
      name,
      disableOfflineQueue: true,
      socket: { reconnectStrategy: reconnectDelay, tls: first.protocol === 'rediss:' },
      ...(first.username ? { username: decodeURIComponent(first.username) } : {}),
      ...(first.password ? { password: decodeURIComponent(first.password) } : {}),
    },
  });
}

export type RedisServerConnection = ReturnType<typeof makeClient>;
export type RedisClusterConnection = ReturnType<typeof makeCluster>;
/** One server's client or the cluster client: the commands Trawl sends are the same on both (keys tagged per slot). */
export type RedisConnection = RedisServerConnection | RedisClusterConnection;

export function isClusterConnection(c: RedisConnection): c is RedisClusterConnection {
  return 'masters' in c;
}

/** Redis could not be reached when the process started: a clear one-line reason, never the URL's credentials. */
export class RedisUnreachableError extends Error {
  constructor(where: string, timeoutMs: number, setting: 'REDIS_URL' | 'REDIS_CLUSTER_NODES') {
    super(`${where} did not answer within ${timeoutMs / 1000} s: is it running, and is ${setting} right?`);
    this.name = 'RedisUnreachableError';
  }
}

/** host:port of a Redis URL, without user or password. */
function redisAddress(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '6379'}`;
  } catch {
    return '(unparseable Redis URL)';
  }
}

function describeTarget(target: RedisTarget): string {
  return 'url' in target ? `Redis at ${redisAddress(target.url)}` : `Redis Cluster at ${target.clusterNodes.map(redisAddress).join(', ')}`;
}

/**
 * Connects, giving up after `startupTimeoutMs` with RedisUnreachableError: once running, a process rides out any
 * outage (reconnection never stops), but a process starting against a Redis that is not there should say so at
 * once rather than wait forever. A cluster is connected once its slot map is known.
 */
export async function connectRedis(target: RedisTarget | string, name = 'trawl', startupTimeoutMs = 5_000): Promise<RedisConnection> {
  nodeRedis ??= await import('redis');
  const where = typeof target === 'string' ? { url: target } : target;
  const client: RedisConnection = 'url' in where ? makeClient(nodeRedis, where.url, name) : makeCluster(nodeRedis, where.clusterNodes, name);
  client.on('error', () => {
    // Reconnection is automatic; individual commands reject while disconnected.
  });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), startupTimeoutMs);
  });
  // A cluster whose seeds all refuse rejects at once (a server's client retries instead): the same answer as a timeout.
  const connected = (client.connect() as Promise<unknown>).then(
    () => 'connected' as const,
    (err: unknown) => {
      if ('url' in where) throw err;
      return 'timeout' as const;
    },
  );
  const first = await Promise.race([connected, timedOut]);
  clearTimeout(timer);
  if (first === 'timeout') {
    connected.catch(() => undefined);
    client.destroy();
    throw new RedisUnreachableError(describeTarget(where), startupTimeoutMs, 'url' in where ? 'REDIS_URL' : 'REDIS_CLUSTER_NODES');
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

/** A raw command; on a cluster it goes to the node serving `args[1]`, the first key of every command Trawl sends raw. */
export async function sendCommand<T = unknown>(client: RedisConnection, args: (string | Buffer)[]): Promise<T> {
  if (isClusterConnection(client)) return (await client.sendCommand(args[1], false, args)) as T;
  return (await client.sendCommand(args)) as T;
}

/** GET that returns the raw bytes (node-redis decodes replies as strings by default). */
export async function getBuffer(client: RedisConnection, key: string): Promise<Buffer | null> {
  // A connection exists, so node-redis is loaded.
  const raw = client.withTypeMapping({ [nodeRedis!.RESP_TYPES.BLOB_STRING]: Buffer });
  return (await raw.get(key)) as Buffer | null;
}

/** LRANGE that returns the raw bytes of each element. */
export async function lRangeBuffers(client: RedisConnection, key: string, start: number, stop: number): Promise<Buffer[]> {
  const raw = client.withTypeMapping({ [nodeRedis!.RESP_TYPES.BLOB_STRING]: Buffer });
  return (await raw.lRange(key, start, stop)) as unknown as Buffer[];
}

/** LINDEX that returns the raw bytes. */
export async function lIndexBuffer(client: RedisConnection, key: string, index: number): Promise<Buffer | null> {
  const raw = client.withTypeMapping({ [nodeRedis!.RESP_TYPES.BLOB_STRING]: Buffer });
  return (await raw.lIndex(key, index)) as unknown as Buffer | null;
}
