import { isStoreUnavailable } from '@trawl/redis';

/**
 * One JSON line per fault of our own, on stderr: what kind of fault, the error's name and message, nothing else.
 * Error messages are ours or a library's, but some quote their input; anything that looks like a URL, an
 * address with credentials or a bearer token is cut out, so a log line never carries a caller's data.
 */
export type FaultKind = 'unhandled_rejection' | 'uncaught_exception' | 'background_error' | 'store_unavailable' | 'store_recovered';

const URL_LIKE = /\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>]*/gi;
const BEARER = /\bbearer\s+\S+/gi;
const MAX_MESSAGE = 300;

export function scrubMessage(message: string): string {
  return message.replace(URL_LIKE, '<url>').replace(BEARER, 'Bearer <redacted>').slice(0, MAX_MESSAGE);
}

export function faultLine(kind: FaultKind, err: unknown, extra: Record<string, string | number> = {}): string {
  const e = err instanceof Error ? err : null;
  const name = e ? e.name : typeof err;
  const message = scrubMessage(e ? e.message : String(err));
  return `${JSON.stringify({ level: kind === 'store_recovered' ? 'info' : 'error', msg: kind.replaceAll('_', ' '), kind, err: { name, message }, pid: process.pid, ...extra })}\n`;
}

export interface FaultLog {
  /** Logs a fault; while the store is unreachable only its first failure and the recovery are logged. */
  (err: unknown): void;
}

/**
 * The error sink of background work (crawl workers, trends runners). During a Redis outage every heartbeat, poll
 * and refill fails, several times a second: the first such failure is logged, the rest are counted, and the count
 * is logged with the first success reported through `recovered()` (or the next non-outage error).
 */
export function createFaultLog(write: (line: string) => void = (l) => process.stderr.write(l)): FaultLog & { recovered(): void } {
  let outageSince = 0;
  let suppressed = 0;
  const recovered = () => {
    if (outageSince === 0) return;
    write(faultLine('store_recovered', new Error('the store answers again'), { outage_ms: Date.now() - outageSince, suppressed }));
    outageSince = 0;
    suppressed = 0;
  };
  const log = (err: unknown) => {
    if (isStoreUnavailable(err)) {
      if (outageSince !== 0) {
        suppressed++;
        return;
      }
      outageSince = Date.now();
      write(faultLine('store_unavailable', err));
      return;
    }
    write(faultLine('background_error', err));
  };
  return Object.assign(log, { recovered });
}

let installed = false;

/**
 * Process-wide last resorts. An unhandled rejection is a bug of ours (a promise nobody awaited), not a reason to
 * drop every page and request in flight: it is logged and the process carries on. An uncaught exception leaves
 * the process in an unknown state (a half-run synchronous block, listeners that never ran): it is logged and the
 * process exits 1, for its supervisor (systemd, Kubernetes, `npm run cluster`) to start it again.
 */
export function installFaultHandlers(write: (line: string) => void = (l) => process.stderr.write(l)): void {
  if (installed) return;
  installed = true;
  process.on('unhandledRejection', (reason) => {
    write(faultLine('unhandled_rejection', reason));
  });
  process.on('uncaughtException', (err) => {
    write(faultLine('uncaught_exception', err));
    process.exit(1);
  });
}
