import { randomBytes } from 'node:crypto';
import { isStoreUnavailable, whileStoreUnavailable } from '@trawl/redis';
import type { TrendsGrain, TrendsResult } from '@trawl/contract';
import { grainKey } from '../grain-key.ts';
import type { TrendsJobStore, TrendsLease } from '../jobs/types.ts';
import type { UpstreamRateLimiter } from '../rate-limit/rate-limiter.ts';
import { retryDelayMs, shouldRetry, slowsEveryone, type BackoffSettings } from '../retry-policy.ts';
import { jobErrorOf, UpstreamError } from '../upstream/upstream-error.ts';

export interface TrendsRunnerSettings {
  /** Jobs this runner works on at once (each still waits for the shared rate limiter per request). */
  concurrency: number;
  /** Job lease; renewed every third of it while the job runs, so it only matters when a runner dies. */
  leaseMs: number;
  /** Attempts per job, the first included. */
  maxAttempts: number;
  backoff: BackoffSettings;
  /** How long a team's result of a grain is reused; 0 turns reuse off. */
  cacheTtlMs: number;
  /**
   * How often an idle runner looks for work nobody announced: the job of a runner that died (its lease lapsed), or a
   * retry whose runner died before it was due. New jobs and jobs handed back are announced (TrendsJobStore.watch),
   * and a runner looks again when a retry it set is due.
   */
  pollMs: number;
  /**
   * How long a result fetched from Google waits for an unreachable store before it is given up (the job's lease
   * then lapses and the job runs again). Default 30 s.
   */
  storeOutageMs?: number;
}

export interface TrendsRunnerDeps {
  jobs: TrendsJobStore;
  client: { relatedQueries(grain: TrendsGrain, signal?: AbortSignal): Promise<TrendsResult> };
  limiter: UpstreamRateLimiter;
  settings: TrendsRunnerSettings;
  runnerId?: string;
  now?: () => number;
  /** Faults of our own (not upstream answers); never carries upstream bodies. */
  onError: (err: unknown) => void;
}

type StopReason = 'stopping' | 'lease_lost';

/**
 * Works search-trends jobs from the shared job store: claims one under a lease, renews the lease while it runs,
 * completes it from a fresh stored result of the same grain or from Google, and otherwise retries it later
 * (exponential backoff with jitter) or fails it with a public error. Any number of runners, in any processes,
 * share one store and one rate limiter.
 */
export class TrendsRunner {
  readonly id: string;
  private readonly now: () => number;
  private readonly onError: (err: unknown) => void;
  private readonly inFlight = new Map<string, { ctl: AbortController; done: Promise<void> }>();
  private timer: NodeJS.Timeout | null = null;
  /** The claim loop, while it runs (one at a time). */
  private filling: Promise<void> | null = null;
  private stopped = true;
  private unwatch: Promise<() => Promise<void>> | null = null;
  /** Looks due when a retry this runner set comes due. */
  private readonly retryTimers = new Set<NodeJS.Timeout>();

  constructor(private readonly d: TrendsRunnerDeps) {
    this.id = d.runnerId ?? `trends_${randomBytes(6).toString('base64url')}`;
    this.now = d.now ?? Date.now;
    this.onError = d.onError;
  }

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.nudge(), this.d.settings.pollMs);
    this.unwatch = this.d.jobs.watch(() => this.nudge()).catch((err: unknown) => {
      // Without announcements the safety poll still finds every job, only later.
      this.onError(err);
      return async () => undefined;
    });
    this.nudge();
  }

  /** Looks for work once `ms` from now (a retry set here is due then). */
  private nudgeIn(ms: number): void {
    const t = setTimeout(() => {
      this.retryTimers.delete(t);
      this.nudge();
    }, Math.max(0, ms));
    t.unref();
    this.retryTimers.add(t);
  }

  /** Looks for work now (a job was just created in this process, or one just ended). */
  nudge(): void {
    if (this.stopped || this.filling) return;
    this.filling = this.fill()
      .catch(this.onError)
      .finally(() => {
        this.filling = null;
      });
  }

  /** Stops claiming; jobs in flight are abandoned and handed back to the queue at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    for (const t of this.retryTimers) clearTimeout(t);
    this.retryTimers.clear();
    await (await this.unwatch)?.();
    await this.filling;
    for (const { ctl } of this.inFlight.values()) ctl.abort('stopping' satisfies StopReason);
    await Promise.all([...this.inFlight.values()].map((j) => j.done));
  }

  private async fill(): Promise<void> {
    const s = this.d.settings;
    while (!this.stopped && this.inFlight.size < s.concurrency) {
      const lease = await this.d.jobs.claim(this.id, this.now(), { leaseMs: s.leaseMs, maxAttempts: s.maxAttempts });
      if (!lease) return;
      if (this.stopped) {
        // Stopped while claiming: the job goes straight back for another runner.
        await this.d.jobs.retry(lease, this.now(), this.now());
        return;
      }
      const ctl = new AbortController();
      const done = this.run(lease, ctl).catch(this.onError);
      this.inFlight.set(lease.job.id, { ctl, done });
      void done.finally(() => {
        this.inFlight.delete(lease.job.id);
        this.nudge();
      });
    }
  }

  private async run(lease: TrendsLease, ctl: AbortController): Promise<void> {
    const { jobs, settings: s } = this.d;
    const heartbeat = setInterval(() => {
      jobs.renew(lease, this.now(), s.leaseMs).then(
        (held) => held || ctl.abort('lease_lost' satisfies StopReason),
        this.onError,
      );
    }, Math.max(50, Math.floor(s.leaseMs / 3)));
    try {
      await this.attempt(lease, ctl.signal);
    } catch (err) {
      await this.settleFailure(lease, ctl.signal, err);
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async attempt(lease: TrendsLease, signal: AbortSignal): Promise<void> {
    const { jobs, settings: s } = this.d;
    const { team_id: team, request } = lease.job;
    const key = grainKey(request);
    const stored = s.cacheTtlMs > 0 ? await jobs.cachedResult(team, key, this.now()) : null;
    if (stored) {
      await this.durable(() => jobs.complete(lease, stored, true, this.now()), signal);
      return;
    }
    const result = await this.d.client.relatedQueries(request, signal);
    // The cache only saves a later request: an outage must not cost the result itself.
    if (s.cacheTtlMs > 0) {
      await jobs.cacheResult(team, key, result, this.now(), s.cacheTtlMs).catch((err: unknown) => {
        if (!isStoreUnavailable(err)) throw err;
      });
    }
    await this.durable(() => jobs.complete(lease, result, false, this.now()), signal);
  }

  /**
   * A result costs a request to Google: its write rides out a short store outage. Settling is keyed by the
   * lease (owner and attempt), so a repeat of a write that did land (its reply lost) records nothing twice.
   * Stopping the runner (or losing the lease) ends the wait at the next attempt.
   */
  private durable<T>(op: () => Promise<T>, signal: AbortSignal): Promise<T> {
    return whileStoreUnavailable(op, { maxMs: this.d.settings.storeOutageMs ?? 30_000, delayMs: 100, maxDelayMs: 1_000, signal });
  }

  private async settleFailure(lease: TrendsLease, signal: AbortSignal, err: unknown): Promise<void> {
    const { jobs, limiter, settings: s } = this.d;
    if (isStoreUnavailable(err)) {
      // Nothing can be written now: the lease lapses and the job is claimed again once the store is back.
      this.onError(err);
      return;
    }
    if (signal.aborted) {
      // Lease lost: the job is someone else's now. Stopping: hand it back for another runner to take at once.
      if ((signal.reason as StopReason) === 'stopping') await jobs.retry(lease, this.now(), this.now());
      return;
    }
    if (!(err instanceof UpstreamError)) this.onError(err);
    const upstream = err instanceof UpstreamError ? err : null;
    const delay = retryDelayMs(lease.attempt, s.backoff, upstream?.retryAfterMs ?? null);
    // Google asked for fewer requests: every runner waits, not only this job.
    if (slowsEveryone(err)) await limiter.hold(upstream?.retryAfterMs ?? delay);
    if (shouldRetry(err, lease.attempt, s.maxAttempts)) {
      if (await jobs.retry(lease, this.now() + delay, this.now())) this.nudgeIn(delay);
    } else await jobs.fail(lease, jobErrorOf(err), this.now());
  }
}
