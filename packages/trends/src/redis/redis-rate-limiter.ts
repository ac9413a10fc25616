import { loadScripts, type RedisConnection } from '@trawl/redis';
import { intervalMs, type RateLimitSettings, type UpstreamRateLimiter } from '../rate-limit/rate-limiter.ts';

const scripts = loadScripts(new URL('./lua/', import.meta.url), ['trends-rate-take-1.lua', 'trends-rate-hold-1.lua']);

/** Cluster mode: one bucket in Redis for every gateway and worker process of the deployment. */
export class RedisRateLimiter implements UpstreamRateLimiter {
  private readonly key: string;

  constructor(
    private readonly redis: RedisConnection,
    prefix: string,
    private readonly settings: RateLimitSettings,
  ) {
    this.key = `${prefix}trends:rate`;
  }

  async take(): Promise<number> {
    return Number(await scripts['trends-rate-take'].run(this.redis, [this.key], [intervalMs(this.settings)]));
  }

  async hold(ms: number): Promise<void> {
    await scripts['trends-rate-hold'].run(this.redis, [this.key], [Math.max(0, Math.round(ms))]);
  }
}
