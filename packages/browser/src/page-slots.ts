/**
 * A counting semaphore whose waiters give up after a short bound. The browser pool uses it so that a full pool
 * answers "no capacity" within milliseconds instead of queueing callers behind renders that may take 30 s.
 */
export class PageSlots {
  private free: number;
  private readonly waiters: { grant: () => void }[] = [];

  constructor(readonly size: number) {
    this.free = size;
  }

  get inUse(): number {
    return this.size - this.free;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  /** Resolves true with a slot (call release() once), or false when none freed up within waitMs. */
  acquire(waitMs: number): Promise<boolean> {
    if (this.free > 0) {
      this.free--;
      return Promise.resolve(true);
    }
    if (waitMs <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter = {
        grant: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
        resolve(false);
      }, waitMs);
      this.waiters.push(waiter);
    });
  }

  release(): void {
    // FIFO hand-over: the slot goes straight to the oldest waiter, so `free` never flickers up and a
    // newcomer cannot overtake someone who has been waiting.
    const next = this.waiters.shift();
    if (next) next.grant();
    else this.free = Math.min(this.size, this.free + 1);
  }
}
