import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import type { Store } from '@trawl/store';

/** How long /healthz waits for the store to answer a PING before it calls the store unreachable. */
export const HEALTH_PING_TIMEOUT_MS = 1_000;

export type Health = { ok: true; status: 'ok'; store: Store['kind'] } | { ok: false; status: 'degraded'; store: Store['kind'] };

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
};

/**
 * Readiness, for a load balancer or an orchestrator deciding where to send traffic: the store answers and the
 * browser engine can start (its executable is there and runnable; Chromium itself starts on first use). /healthz
 * stays liveness: a process that answers it but not this one should be kept out of rotation, not restarted.
 */
export async function checkReadiness(store: Store, chromiumPath: string, timeoutMs = HEALTH_PING_TIMEOUT_MS): Promise<Readiness> {
  const [health, browser] = await Promise.all([
    checkHealth(store, timeoutMs),
    access(chromiumPath, constants.X_OK).then(
      () => 'ok' as const,
      () => 'unavailable' as const,
    ),
  ]);
  const ok = health.ok && browser === 'ok';
  return { ok, status: ok ? 'ready' : 'not_ready', store: health.ok ? 'ok' : 'unreachable', browser };
}
