/** A held page slot; release it exactly once. */
export interface SlotLease {
  release(): void;
}

interface Waiter {
  grant: (lease: SlotLease) => void;
}

/** Weight of the newest hold in the running average of hold durations. */
const EWMA_WEIGHT = 0.2;

/**
 * A counting semaphore whose waiters give up after a short bound. The browser pool uses it so that a full pool
 * answers "no capacity" within milliseconds instead of queueing callers behind renders that may take 30 s.
 *
 * It also refuses at once when waiting is pointless: from a running average of how long slots are held and how
 * long the current holders have had theirs, it predicts when the newcomer's turn would come; a turn predicted
 * beyond the bound is refused without waiting the bound out (under a burst, waiting 20 ms for nothing only adds
 * to every rejected caller's latency). Until one hold has finished there is no average and callers wait.
 */
export class PageSlots {
  private readonly holds = new Set<{ since: number }>();
  private readonly waiters: Waiter[] = [];
  private averageHoldMs: number | null = null;

  constructor(
    readonly size: number,
    private readonly now: () => number = Date.now,
  ) {}

  get inUse(): number {
    return this.holds.size;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  /**
   * Resolves with a lease, or null when no slot is free within waitMs: at once when none is predicted to be,
   * unless `queue` (a caller that would rather wait its whole bound, such as a crawl page, than be told early).
   */
  acquire(waitMs: number, queue = false): Promise<SlotLease | null> {
    if (this.holds.size < this.size) return Promise.resolve(this.take());
    if (waitMs <= 0 || (!queue && this.predictedWaitMs() > waitMs)) return Promise.resolve(null);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        grant: (lease) => {
          clearTimeout(timer);
          resolve(lease);
        },
      };
      const timer = setTimeout(() => {
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
        resolve(null);
      }, waitMs);
      this.waiters.push(waiter);
    });
  }

  /** When a newcomer joining the line now would get a slot, from the average hold; 0 when unknown. */
  private predictedWaitMs(): number {
    if (this.averageHoldMs === null) return 0;
    const avg = this.averageHoldMs;
    const t = this.now();
    // Holds running past the average are about to end: they count as freeing now.
    const remaining = [...this.holds].map((h) => Math.max(0, avg - (t - h.since))).sort((a, b) => a - b);
    const ahead = this.waiters.length;
    const rounds = Math.floor(ahead / this.size);
    return remaining[ahead % this.size] + rounds * avg;
  }

  private take(): SlotLease {
    const hold = { since: this.now() };
    this.holds.add(hold);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.holds.delete(hold);
        const held = this.now() - hold.since;
        this.averageHoldMs = this.averageHoldMs === null ? held : this.averageHoldMs + EWMA_WEIGHT * (held - this.averageHoldMs);
        // FIFO hand-over: the slot goes straight to the oldest waiter, so a newcomer cannot overtake it.
        this.waiters.shift()?.grant(this.take());
      },
    };
  }
}
