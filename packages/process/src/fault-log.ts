import { isStoreUnavailable } from '@trawl/redis';
import type { Logger } from './logger.ts';

/**
 * Faults of our own, one log line each with its `kind` and the error (name, code, scrubbed message, frames).
 */
export type FaultKind = 'unhandled_rejection' | 'uncaught_exception' | 'background_error' | 'store_unavailable' | 'store_recovered';

const MESSAGES = {
  unhandled_rejection: 'unhandled rejection',
  uncaught_exception: 'uncaught exception',
  background_error: 'background error',
  store_unavailable: 'store unavailable',
  store_recovered: 'store recovered',
} satisfies Record<FaultKind, string>;

export interface FaultLog {
  /** Logs a fault; while the store is unreachable only its first failure and the recovery are logged. */
  (err: unknown): void;
  recovered(): void;
}

/**
 * The error sink of background work (crawl workers, trends runners). During a Redis outage every heartbeat, poll
 * and refill fails, several times a second: the first such failure is logged, the rest are counted, and the count
 * is logged with the first success reported through `recovered()` (at warn, so it pairs with the outage line
 * whatever LOG_LEVEL lets through).
 */
export function createFaultLog(log: Logger): FaultLog {
  let outageSince = 0;
  let suppressed = 0;
  const recovered = () => {
    if (outageSince === 0) return;
    log.warn({ kind: 'store_recovered', outage_ms: Date.now() - outageSince, suppressed }, MESSAGES.store_recovered);
    outageSince = 0;
    suppressed = 0;
  };
  const fault = (err: unknown) => {
    if (isStoreUnavailable(err)) {
      if (outageSince !== 0) {
        suppressed++;
        return;
      }
      outageSince = Date.now();
      log.error({ kind: 'store_unavailable', err }, MESSAGES.store_unavailable);
      return;
    }
    log.error({ kind: 'background_error', err }, MESSAGES.background_error);
  };
  return Object.assign(fault, { recovered });
}

let installed = false;

/**
 * Process-wide last resorts. An unhandled rejection is a bug of ours (a promise nobody awaited), not a reason to
 * drop every page and request in flight: it is logged and the process carries on. An uncaught exception leaves
 * the process in an unknown state (a half-run synchronous block, listeners that never ran): it is logged and the
 * process exits 1, for its supervisor (systemd, Kubernetes, `npm run cluster`) to start it again.
 */
export function installFaultHandlers(log: Logger): void {
  if (installed) return;
  installed = true;
  process.on('unhandledRejection', (reason) => {
    log.error({ kind: 'unhandled_rejection', err: reason }, MESSAGES.unhandled_rejection);
  });
  process.on('uncaughtException', (err) => {
    log.fatal({ kind: 'uncaught_exception', err }, MESSAGES.uncaught_exception);
    process.exit(1);
  });
}
