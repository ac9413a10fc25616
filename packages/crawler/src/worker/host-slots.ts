import type { Lease } from '@trawl/frontier';

export interface Held {
  crawlId: string;
  lease: Lease;
}

/** This worker's view of one hostname shard it owns: what it has leased, what is in flight, and when to wait. */
export class HostSlot {
  /** Crawls with work registered on this host (refreshed every heartbeat). */
  crawls: string[] = [];
  /** Round-robin position over `crawls`, so one big crawl cannot starve another on the same host. */
  rr = 0;
  buffer: Held[] = [];
  inflight = 0;
  /** Politeness: no request to this host before this time (429/503, Retry-After). */
  slowUntil = 0;
  nextRefillAt = 0;
  emptyStreak = 0;
  refilling: Promise<void> | null = null;

  constructor(readonly host: string) {}

  ready(now: number, hostConcurrency: number): boolean {
    return this.inflight < hostConcurrency && now >= this.slowUntil;
  }
}
