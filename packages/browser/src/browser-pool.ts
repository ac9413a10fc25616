import {
  chromiumArgs,
  DEFAULT_ACQUIRE_TIMEOUT_MS,
  DEFAULT_CHROMIUM_PATH,
  DEFAULT_RECYCLE_PAGES,
  DEFAULT_SETTLE_MAX_MS,
  defaultBrowserPages,
} from './browser-defaults.ts';
import { beforeDeadline, PAST_DEADLINE } from './deadline.ts';
import { browserDiagnostics, type FailureNote } from './diagnostics.ts';
import type { DriverBrowser } from './driver.ts';
import { startEgressGate, type EgressGate } from './egress-gate.ts';
import { PageSlots } from './page-slots.ts';
import { launchChromium } from './playwright-adapter.ts';
import { renderAttempt, type AttemptCounters, type AttemptResult } from './render-attempt.ts';
import type { BrowserPool, BrowserPoolOptions, BrowserPoolStats, RenderOutcome, RenderRequest } from './types.ts';

const LAUNCH_TIMEOUT_MS = 30_000;

interface BrowserEntry {
  driver: DriverBrowser;
  /** Renders started on this browser (for recycling). */
  renders: number;
  active: number;
  /** Takes no new renders; closed once its last render ends. */
  retired: boolean;
  /** We are closing it (a disconnect is then not a crash). */
  closing: boolean;
}

/**
 * A bounded pool of Chromium pages. At most maxPages renders run at once; a render that cannot get a page within
 * acquireTimeoutMs (or that is predicted not to get one in time, unless it set its own wait) is answered
 * browser_capacity_full.
 * One Chromium serves the renders (each in its own context); it is launched on first use, retired after
 * recyclePagesPerBrowser renders (a fresh process bounds leaks) and replaced after a crash. A render whose
 * browser dies under it is retried once on a fresh browser.
 */
export function createBrowserPool(opts: BrowserPoolOptions): BrowserPool {
  const maxPages = opts.maxPages ?? defaultBrowserPages();
  const acquireTimeoutMs = opts.acquireTimeoutMs ?? DEFAULT_ACQUIRE_TIMEOUT_MS;
  const recycleAfter = opts.recyclePagesPerBrowser ?? DEFAULT_RECYCLE_PAGES;
  const executablePath = opts.executablePath ?? DEFAULT_CHROMIUM_PATH;
  const settleMaxMs = opts.settleMaxMs ?? DEFAULT_SETTLE_MAX_MS;
  const args = chromiumArgs(opts.rules ?? opts.guard.rules);
  if (!Number.isInteger(maxPages) || maxPages < 1) throw new RangeError('maxPages must be a positive integer');

  const slots = new PageSlots(maxPages);
  const browsers = new Set<BrowserEntry>();
  const running = new Set<Promise<unknown>>();
  let current: BrowserEntry | null = null;
  let launching: Promise<BrowserEntry> | null = null;
  let denyGate: Promise<EgressGate> | null = null;
  let closed = false;
  const counts = { launches: 0, crashes: 0, renders: 0, rejectedForCapacity: 0 };

  async function launch(): Promise<BrowserEntry> {
    denyGate ??= startEgressGate(null);
    const driver = await launchChromium({
      executablePath,
      args,
      proxyServer: (await denyGate).server,
      timeoutMs: LAUNCH_TIMEOUT_MS,
    });
    counts.launches++;
    const entry: BrowserEntry = { driver, renders: 0, active: 0, retired: false, closing: false };
    browsers.add(entry);
    driver.onDisconnected(() => {
      browsers.delete(entry);
      if (current === entry) current = null;
      if (!entry.closing) counts.crashes++;
    });
    if (closed) await closeEntry(entry);
    return entry;
  }

  /** The browser a new render goes to: the current one unless retired or dead, else a (shared) fresh launch. */
  async function browserForRender(): Promise<BrowserEntry> {
    if (current && !current.retired && current.driver.connected) return current;
    if (current) retire(current);
    launching ??= launch().then(
      (entry) => {
        launching = null;
        current = entry;
        return entry;
      },
      (err: unknown) => {
        launching = null;
        throw err;
      },
    );
    return launching;
  }

  function retire(entry: BrowserEntry): void {
    entry.retired = true;
    if (current === entry) current = null;
    if (entry.active === 0) void closeEntry(entry);
  }

  async function closeEntry(entry: BrowserEntry): Promise<void> {
    entry.closing = true;
    browsers.delete(entry);
    await entry.driver.close();
  }

  async function renderWithSlot(req: RenderRequest): Promise<RenderOutcome> {
    let attempts = 0;
    let crashNote: FailureNote | null = null;
    let last: AttemptResult | null = null;
    while (attempts < 2 && !closed && Date.now() < req.deadline) {
      attempts++;
      let entry: BrowserEntry | typeof PAST_DEADLINE;
      try {
        entry = await beforeDeadline(browserForRender(), req.deadline);
      } catch {
        return failure('render_failed', true, attempts, { category: 'crash', stage: 'launch', errorCode: 'browser_launch_failed' }, last?.counters);
      }
      if (entry === PAST_DEADLINE) {
        return failure('timeout', true, attempts, { category: 'timeout', stage: 'launch', errorCode: 'deadline_exceeded' }, last?.counters);
      }
      entry.active++;
      entry.renders++;
      counts.renders++;
      if (entry.renders >= recycleAfter) retire(entry);
      try {
        last = await renderAttempt(entry.driver, req, {
          guard: opts.guard,
          userAgent: opts.userAgent ?? entry.driver.userAgent.replace('HeadlessChrome', 'Chrome'),
          settleMaxMs,
        });
      } finally {
        entry.active--;
        if (entry.retired && entry.active === 0 && !entry.closing) void closeEntry(entry);
      }
      if (last.ok || !last.crashed) break;
      // The browser (or the page's renderer) died under us: the next attempt goes to a fresh Chromium.
      crashNote = last.failure;
      retire(entry);
    }
    if (last === null) {
      return failure(closed ? 'render_failed' : 'timeout', !closed, attempts, closed
        ? { category: 'crash', stage: 'acquire', errorCode: 'pool_closed' }
        : { category: 'timeout', stage: 'acquire', errorCode: 'deadline_exceeded' });
    }
    if (!last.ok) return failure(last.blockReason, last.retryable, attempts, last.failure, last.counters);
    return {
      ok: true,
      url: req.url,
      finalUrl: last.finalUrl,
      statusCode: last.statusCode,
      html: last.html,
      contentType: 'text/html',
      responseContentType: last.responseContentType,
      artifacts: last.artifacts,
      controls: last.controls,
      requests: { seen: last.counters.requests, blocked: last.counters.blocked },
      diagnostics: browserDiagnostics({
        requests: last.counters.requests,
        consoleMessages: last.counters.consoleMessages,
        // A crash that the retry got over is still reported: the page came late, and operators want to know.
        failure: crashNote ?? last.softFailure,
        attempts,
        leaseAcquired: true,
        virtualScroll: last.counters.virtualScroll,
        settle: last.settle,
      }),
    };
  }

  function failure(
    blockReason: Extract<RenderOutcome, { ok: false }>['blockReason'],
    retryable: boolean,
    attempts: number,
    note: FailureNote,
    counters?: AttemptCounters,
  ): RenderOutcome {
    return {
      ok: false,
      blockReason,
      retryable,
      requests: { seen: counters?.requests ?? 0, blocked: counters?.blocked ?? 0 },
      diagnostics: browserDiagnostics({
        requests: counters?.requests ?? 0,
        consoleMessages: counters?.consoleMessages ?? 0,
        failure: note,
        attempts,
        leaseAcquired: blockReason !== 'browser_capacity_full',
      }),
    };
  }

  async function render(req: RenderRequest): Promise<RenderOutcome> {
    if (closed) return failure('render_failed', false, 0, { category: 'crash', stage: 'acquire', errorCode: 'pool_closed' });
    if (!isHttpUrl(req.url)) return failure('blocked_target', false, 0, { category: 'blocked', stage: 'navigate', errorCode: 'blocked_target' });
    const waitMs = Math.min(req.acquireTimeoutMs ?? acquireTimeoutMs, req.deadline - Date.now());
    // A caller that sets its own wait (a crawl page) queues for the whole of it: a prediction made from render
    // times on a busy machine would refuse it at once, and a crawl would burn its attempts in milliseconds.
    const lease = await slots.acquire(waitMs, req.acquireTimeoutMs !== undefined);
    if (!lease) {
      if (Date.now() >= req.deadline) {
        return failure('timeout', true, 0, { category: 'timeout', stage: 'acquire', errorCode: 'deadline_exceeded' });
      }
      counts.rejectedForCapacity++;
      return failure('browser_capacity_full', true, 0, { category: 'capacity', stage: 'acquire', errorCode: 'browser_capacity_full' });
    }
    const timed = req.budgetMs === undefined ? req : { ...req, deadline: Math.min(req.deadline, Date.now() + req.budgetMs) };
    const job = renderWithSlot(timed).finally(() => lease.release());
    running.add(job);
    try {
      return await job;
    } finally {
      running.delete(job);
    }
  }

  return {
    render,
    stats: (): BrowserPoolStats => ({
      maxPages,
      active: slots.inUse,
      waiting: slots.waiting,
      browsers: browsers.size,
      ...counts,
    }),
    async close() {
      if (closed) return;
      closed = true;
      const pendingLaunch = launching;
      await Promise.all([...browsers].map((e) => closeEntry(e)));
      await pendingLaunch?.catch(() => undefined);
      await Promise.allSettled([...running]);
      current = null;
      if (denyGate) await (await denyGate).close();
    },
  };
}

function isHttpUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.username === '' && u.password === '';
  } catch {
    return false;
  }
}
