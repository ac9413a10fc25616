import { loadedNodeRedis } from './client.ts';

const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** Replies of a Redis that is up but cannot serve yet: loading its AOF/RDB after a restart, or failing over. */
const NOT_READY_REPLY = /^(LOADING|MASTERDOWN|TRYAGAIN|CLUSTERDOWN|READONLY)\b/;

/**
 * True when `err` means "the store cannot be reached right now" (the connection is down, reconnecting or was
 * closed, or Redis is still loading), as opposed to a bug or a bad command. Such a failure is worth retrying
 * later, and the gateway answers it with 503 rather than 500. Memory backends never raise one.
 */
export function isStoreUnavailable(err: unknown): boolean {
  // Before any connection node-redis is not loaded, and no error can be one of its own.
  const r = loadedNodeRedis();
  if (
    r &&
    (err instanceof r.ClientOfflineError ||
      err instanceof r.ClientClosedError ||
      err instanceof r.SocketClosedUnexpectedlyError ||
      err instanceof r.ConnectionTimeoutError ||
      err instanceof r.SocketTimeoutError ||
      err instanceof r.DisconnectsClientError ||
      err instanceof r.ReconnectStrategyError)
  ) {
    return true;
  }
  if (r && err instanceof r.ErrorReply) return NOT_READY_REPLY.test(err.message);
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && SOCKET_CODES.has(code);
}

export interface OutageRetry {
  /** Give up (rethrow the last error) once the store has been unreachable this long. */
  maxMs: number;
  /** First pause between attempts; doubles up to `maxDelayMs`. */
  delayMs?: number;
  maxDelayMs?: number;
  signal?: AbortSignal;
}

/**
 * Runs `op`, and while it fails because the store is unreachable, runs it again with backoff until it answers
 * or `maxMs` has passed. Any other failure is thrown at once. Meant for writes a worker must not lose to a short
 * Redis outage (a page's result after the page was fetched); the operation must be safe to repeat.
 */
export async function whileStoreUnavailable<T>(op: () => Promise<T>, opts: OutageRetry): Promise<T> {
  const started = Date.now();
  let delay = opts.delayMs ?? 100;
  for (;;) {
    try {
      return await op();
    } catch (err) {
      if (!isStoreUnavailable(err) || Date.now() - started + delay > opts.maxMs || opts.signal?.aborted) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, opts.maxDelayMs ?? 1_000);
  }
}
