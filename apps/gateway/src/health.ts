import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import type { Runtime } from '@trawl/process';
import type { RedisClusterHealth, Store } from '@trawl/store';

/** How long /healthz waits for the store to answer a PING before it calls the store unreachable. */
export const HEALTH_PING_TIMEOUT_MS = 1_000;

export type Health = ({ ok: true; status: 'ok' } | { ok: false; status: 'degraded' }) & {
  store: Store['kind'];
  /** On a Redis Cluster: its state, masters and how many answered. */
  redis_cluster?: RedisClusterHealth;
};

/**
 * Liveness with the one dependency that matters: the process answers, and so does its store. A store that does
 * not answer within HEALTH_PING_TIMEOUT_MS (down, restarting, hung) makes the gateway `degraded`: /v1 calls then
 * answer 503 `service_unavailable` until it is back.
 */
export async function checkHealth(store: Store, timeoutMs = HEALTH_PING_TIMEOUT_MS): Promise<Health> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('ping timed out')), timeoutMs);
  });
  try {
    // On a Redis Cluster every master is asked (RedisStore.clusterHealth): that is the ping, and its state is shown.
    const cluster = store.clusterHealth ? await Promise.race([store.clusterHealth(), timeout]) : null;
    if (cluster) return cluster.state === 'ok' ? { ok: true, status: 'ok', store: store.kind, redis_cluster: cluster } : { ok: false, status: 'degraded', store: store.kind, redis_cluster: cluster };
    await Promise.race([store.ping(), timeout]);
    return { ok: true, status: 'ok', store: store.kind };
  } catch {
    return { ok: false, status: 'degraded', store: store.kind };
  } finally {
    clearTimeout(timer);
  }
}

export type Readiness = {
  ok: boolean;
  status: 'ready' | 'not_ready';
  store: 'ok' | 'unreachable';
  browser: 'ok' | 'unavailable';
  /** With TRAWL_DATA_MAX_BYTES only: `full` while creations are refused (reads still answer, so still ready). */
  data_dir?: 'ok' | 'full';
  redis_cluster?: RedisClusterHealth;
};

/**
 * Readiness, for a load balancer or an orchestrator deciding where to send traffic: the store answers and the
 * browser engine can start (its executable is there and runnable; Chromium itself starts on first use). /healthz
 * stays liveness: a process that answers it but not this one should be kept out of rotation, not restarted.
 * A full data directory is reported but keeps the process ready: embedded mode is one process, and taking it out of
 * rotation would stop the reads it still answers.
 */
export async function checkReadiness(
  store: Store,
  chromiumPath: string,
  space: Runtime['space'] = null,
  timeoutMs = HEALTH_PING_TIMEOUT_MS,
): Promise<Readiness> {
  const [health, browser] = await Promise.all([
    checkHealth(store, timeoutMs),
    access(chromiumPath, constants.X_OK).then(
      () => 'ok' as const,
      () => 'unavailable' as const,
    ),
  ]);
  const ok = health.ok && browser === 'ok';
  const ready: Readiness = { ok, status: ok ? 'ready' : 'not_ready', store: health.ok ? 'ok' : 'unreachable', browser };
  if (health.redis_cluster) ready.redis_cluster = health.redis_cluster;
  if (space && space.maxBytes !== null) ready.data_dir = space.full() ? 'full' : 'ok';
  return ready;
}
