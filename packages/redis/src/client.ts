import { createClient, RESP_TYPES } from 'redis';

/** The one place that imports node-redis. Everything else talks to `RedisConnection`. */
function makeClient(url: string, name: string) {
  return createClient({
    url,
    name,
    // A dead Redis must surface as errors to callers, not as an unbounded in-memory command queue.
    disableOfflineQueue: true,
    socket: { reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2000) },
  });
}
export type RedisConnection = ReturnType<typeof makeClient>;

export async function connectRedis(url: string, name = 'trawl'): Promise<RedisConnection> {
  const client = makeClient(url, name);
  client.on('error', () => {
    // Reconnection is automatic; individual commands reject while disconnected.
  });
  await client.connect();
  return client;
}

export async function sendCommand<T = unknown>(client: RedisConnection, args: (string | Buffer)[]): Promise<T> {
  return (await client.sendCommand(args)) as T;
}

/** GET that returns the raw bytes (node-redis decodes replies as strings by default). */
export async function getBuffer(client: RedisConnection, key: string): Promise<Buffer | null> {
  const raw = client.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
  return (await raw.get(key)) as Buffer | null;
}
