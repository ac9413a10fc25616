/** What the simulator can be told to do instead of (or before) answering like Google, for the next N calls. */

export const ENDPOINTS = ['cookie', 'explore', 'relatedsearches'] as const;
export type SimEndpoint = (typeof ENDPOINTS)[number];

export type SimFault =
  /** Any status with Google-like HTML: 429 (with or without Retry-After), 5xx, 400, 401 (a stale token)... */
  | { kind: 'status'; status: number; retryAfter?: string }
  /** 302 to google.com/sorry: Google's "unusual traffic" block. */
  | { kind: 'sorry' }
  /** Answers normally, after a delay. */
  | { kind: 'slow'; delayMs: number }
  /** relatedsearches only: `lists` = two empty ranked lists; `none` = no ranked list at all (Google since 2024). */
  | { kind: 'empty'; shape: 'lists' | 'none' };

export type Times = number | 'always';

interface Queued {
  fault: SimFault;
  left: number;
}

/** Why `value` is not a fault the simulator understands, or null. Keeps the admin endpoint honest. */
export function faultProblem(endpoint: unknown, fault: unknown, times: unknown): string | null {
  if (!ENDPOINTS.includes(endpoint as SimEndpoint)) return `endpoint must be one of ${ENDPOINTS.join(', ')}`;
  if (times !== 'always' && !(Number.isInteger(times) && (times as number) > 0)) return 'times must be a positive integer or "always"';
  const f = fault as Partial<Record<string, unknown>> | null;
  switch (f?.kind) {
    case 'status':
      return Number.isInteger(f.status) && (f.status as number) >= 300 && (f.status as number) <= 599 ? null : 'status must be 300-599';
    case 'sorry':
      return null;
    case 'slow':
      return Number.isInteger(f.delayMs) && (f.delayMs as number) >= 0 ? null : 'delayMs must be a non-negative integer';
    case 'empty':
      if (endpoint !== 'relatedsearches') return 'empty answers exist only for relatedsearches';
      return f.shape === 'lists' || f.shape === 'none' ? null : 'shape must be lists or none';
    default:
      return 'fault.kind must be status, sorry, slow or empty';
  }
}

/** Per-endpoint queues: each call to an endpoint consumes the fault at the head of its queue. */
export class FaultQueues {
  private readonly queues = new Map<SimEndpoint, Queued[]>(ENDPOINTS.map((e) => [e, []]));

  add(endpoint: SimEndpoint, fault: SimFault, times: Times = 1): void {
    this.queues.get(endpoint)!.push({ fault, left: times === 'always' ? Number.POSITIVE_INFINITY : times });
  }

  next(endpoint: SimEndpoint): SimFault | null {
    const q = this.queues.get(endpoint)!;
    const head = q[0];
    if (!head) return null;
    head.left -= 1;
    if (head.left <= 0) q.shift();
    return head.fault;
  }

  clear(): void {
    for (const q of this.queues.values()) q.length = 0;
  }
}
