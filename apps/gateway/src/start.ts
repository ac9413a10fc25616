import type { FastifyInstance } from 'fastify';
import type { TrawlConfig } from '@trawl/config';
import { createLightEngine } from '@trawl/engines';
import { HostResolverRules, SsrfGuard } from '@trawl/net';
import { connectRedis, type RedisConnection } from '@trawl/redis';
import { MemoryStore, RedisStore, type Store } from '@trawl/store';
import { buildApp, type AppOptions } from './app.ts';
import { bootstrapDefaultTeam, type Bootstrap } from './bootstrap.ts';
import type { GatewayContext } from './context.ts';

export interface RunningGateway {
  app: FastifyInstance;
  url: string;
  ctx: GatewayContext;
  bootstrap: Bootstrap | null;
  close(): Promise<void>;
}

/** Builds everything a gateway needs from a parsed configuration: embedded without REDIS_URL, cluster with it. */
export async function createGateway(config: TrawlConfig, opts: AppOptions & { now?: () => number } = {}) {
  const now = opts.now ?? Date.now;
  const rules = HostResolverRules.parse(config.TRAWL_HOST_RESOLVER_RULES);
  const guard = new SsrfGuard({ allowPrivate: config.TRAWL_ALLOW_PRIVATE, rules });
  const light = createLightEngine({ guard, proxyUrl: config.TRAWL_PROXY_URL });
  let redis: RedisConnection | null = null;
  let store: Store;
  if (config.REDIS_URL) {
    redis = await connectRedis(config.REDIS_URL, 'trawl-gateway');
    store = new RedisStore(redis, config.REDIS_PREFIX, now);
  } else {
    store = new MemoryStore(now);
  }
  const ctx: GatewayContext = {
    config,
    store,
    light,
    now,
    runs: { store, billingMode: config.TRAWL_BILLING_MODE, artifactRetentionS: config.TRAWL_ARTIFACT_RETENTION_S, now },
  };
  const bootstrap = await bootstrapDefaultTeam(store, config);
  const app = await buildApp(ctx, opts);
  const close = async () => {
    await app.close();
    await light.close();
    await store.close();
    if (redis) await redis.quit();
  };
  return { app, ctx, bootstrap, close };
}

export async function startGateway(config: TrawlConfig, opts: AppOptions & { now?: () => number } = {}): Promise<RunningGateway> {
  const g = await createGateway(config, opts);
  const address = await g.app.listen({ port: config.PORT, host: config.HOST });
  return { ...g, url: address };
}
