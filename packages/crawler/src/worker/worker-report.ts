import { hostname } from 'node:os';
import { MAX_REPORTED_SHARD_HOSTS, type WorkerReport } from '@trawl/frontier';
import type { HostScheduler } from './host-scheduler.ts';

/** The window pages per second are measured over. */
const RATE_WINDOW_MS = 60_000;

/**
 * What this worker publishes with each heartbeat (the operator's `workers.list`): where it runs, the shards it
 * holds, pages in flight, and pages per second over the last minute, from samples of the pages it has finished.
 */
export class WorkerReporter {
  private readonly startedAt: string;
  /** (time, pages finished so far) at each report, oldest first, spanning at most one window. */
  private samples: { at: number; handled: number }[] = [];

  constructor(
    private readonly scheduler: Pick<HostScheduler, 'ownedHosts' | 'inFlightCount' | 'handledCount'>,
    startedAt: number,
  ) {
    this.startedAt = new Date(startedAt).toISOString();
  }

  report(now: number): WorkerReport {
    const handled = this.scheduler.handledCount();
    this.samples.push({ at: now, handled });
    // Keep the newest sample at or before the window's start, so the rate covers the whole window.
    while (this.samples.length > 2 && this.samples[1].at <= now - RATE_WINDOW_MS) this.samples.shift();
    const first = this.samples[0];
    const seconds = (now - first.at) / 1000;
    const hosts = this.scheduler.ownedHosts();
    return {
      host: hostname(),
      pid: process.pid,
      started_at: this.startedAt,
      shards: hosts.length,
      shard_hosts: hosts.slice(0, MAX_REPORTED_SHARD_HOSTS),
      pages_in_flight: this.scheduler.inFlightCount(),
      pages_per_second: seconds > 0 ? Math.round(((handled - first.handled) / seconds) * 100) / 100 : 0,
    };
  }
}
