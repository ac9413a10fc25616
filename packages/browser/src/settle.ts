import { beforeDeadline, PAST_DEADLINE } from './deadline.ts';
import type { DriverFrame, DriverSession } from './driver.ts';
import type { NetworkActivity } from './network-activity.ts';
import { LOOK_SCRIPT, SCAN_SCRIPT, type ActivityProbe } from './page-scripts.ts';
import { driverErrorKind } from './playwright-adapter.ts';
import { nextLookMs, SETTLE_POLICY, settleStep, type SettlePolicy, type SettleReason } from './settle-policy.ts';

export interface SettleOptions {
  /** The activity tracker's global (activityInit). */
  key: string;
  /** wait_for_selector, already found: readiness is judged on the element it names. */
  selector: string | null;
  /** Epoch ms the settle began (after navigation, or when the selector appeared). */
  since: number;
  /** TRAWL_BROWSER_SETTLE_MAX_MS, counted from when the document is parsed (or from `since`, if later). */
  maxMs: number;
  /** Epoch ms that no wait may pass, whatever maxMs says (the request deadline less the snapshot's reserve). */
  hardEnd: number;
  /** process_iframes: the child frames must also have loaded and gone quiet. */
  frames?: boolean;
  policy?: SettlePolicy;
}

export interface SettleResult {
  reason: SettleReason;
  /** From the start of settling (see SettleOptions.maxMs) until the page was read. */
  ms: number;
  /** The document never finished loading. */
  loadIncomplete: boolean;
  /**
   * The document was still being parsed at the bound and showed a reader nothing yet: reading it now would deliver
   * an empty page that is not empty (a huge document Chromium had not parsed to its text).
   */
  nothingShown: boolean;
  /** Screens the lazy-content scan scrolled (0: no scan). */
  scanned: number;
}

const SCAN_MAX_STEPS = 40;
const SCAN_MAX_ROUNDS = 5;
const SCAN_BUDGET_MS = 3000;

/**
 * Waits until the page may be read (settle-policy.ts), the settle bound passes or hardEnd comes. Once the page
 * first looks done, a page that reacts to scrolling (IntersectionObservers, scroll listeners) and is taller than
 * the window is scrolled through once, so content loaded below the fold arrives, and settling goes on.
 */
export async function settlePage(session: DriverSession, net: NetworkActivity, opts: SettleOptions): Promise<SettleResult> {
  const policy = opts.policy ?? SETTLE_POLICY;
  let parsedAt: number | null = null;
  let scanEnd = -Infinity;
  let scanned = 0;
  let scans = 0;
  let scanY = 0;
  let last: ActivityProbe | null = null;
  let waitMs = 0;
  const startOf = () => Math.max(opts.since, parsedAt ?? opts.since);
  const boundAt = () => Math.min(opts.hardEnd, parsedAt === null ? opts.hardEnd : startOf() + opts.maxMs);
  const done = (reason: SettleReason): SettleResult => ({
    reason,
    ms: Math.max(0, Math.round(Date.now() - startOf())),
    loadIncomplete: last === null ? false : last.readyState !== 'complete',
    nothingShown: last !== null && last.readyState === 'loading' && !last.shown,
    scanned,
  });
  let answered = false;
  const atBound = async (): Promise<SettleResult> => {
    // No look answered in time (a busy machine, a slow first evaluate): one more, briefly, so a stalled document
    // is still told from a finished one. The grace comes out of the snapshot's reserve.
    if (!answered) {
      const probe = await beforeDeadline(look(session, opts, 0).catch(() => null), Date.now() + FINAL_LOOK_GRACE_MS);
      if (probe !== PAST_DEADLINE && probe !== NAVIGATING) last = probe;
    }
    return done('bound');
  };
  for (;;) {
    if (Date.now() >= boundAt()) return atBound();
    const probe = await beforeDeadline(look(session, opts, Math.max(0, Math.min(waitMs, boundAt() - Date.now() - LOOK_MARGIN_MS))), boundAt());
    waitMs = 0;
    if (probe === PAST_DEADLINE) return atBound();
    if (probe !== NAVIGATING) {
      last = probe;
      answered = probe !== null;
      if (parsedAt === null && (probe === null || probe.readyState !== 'loading')) parsedAt = Date.now();
      const frames = opts.frames && probe !== null ? await childProbes(session, opts, policy.youngRequestMs) : undefined;
      const input = { probe, net: net.state(policy.youngRequestMs), sinceScan: Date.now() - scanEnd, untilBoundMs: boundAt() - Date.now(), frames };
      const step = settleStep(input, policy);
      waitMs = nextLookMs(input, policy);
      if (step === 'read') {
        // Scroll through a page that loads content on scrolling; again while scrolling made it longer.
        const unscanned = probe !== null && (scans === 0 ? probe.scrollable : probe.maxScroll > scanY + 1);
        if (probe?.lazy && unscanned && scans < SCAN_MAX_ROUNDS) {
          const budgetMs = Math.max(0, Math.min(SCAN_BUDGET_MS, boundAt() - Date.now()));
          const arg = { key: opts.key, maxSteps: SCAN_MAX_STEPS, budgetMs, from: scanY };
          const scan = session.mainFrame().evaluate<{ steps: number; y: number } | null>(SCAN_SCRIPT, arg).catch((err: unknown) => {
            // A navigation replaced the document under the scan: settle the new one.
            if (driverErrorKind(err) !== 'other') throw err;
            return null;
          });
          const r = await beforeDeadline(scan, boundAt());
          if (r === PAST_DEADLINE) return done('bound');
          scans++;
          if (r !== null && typeof r === 'object') {
            scanned += r.steps;
            scanY = r.y;
          }
          scanEnd = Date.now();
          waitMs = policy.quietMs;
          continue;
        }
        return done(opts.selector === null ? 'stable' : 'selector');
      }
      // No tracker in this document: the wait happens here.
      if (probe === null) await sleep(Math.max(0, Math.min(waitMs, boundAt() - Date.now())));
    }
    // A navigation replaced the document: ask the new one after a moment.
    else await sleep(Math.max(0, Math.min(policy.tickMs, boundAt() - Date.now())));
  }
}

const NAVIGATING = Symbol('navigating');

/** Frames below the top document whose trackers are asked (as the snapshot inlines them: nested, bounded). */
const MAX_CHILD_FRAMES = 20;

/** The trackers of the child frames, asked at once (no in-page wait); a frame that cannot answer counts as null. */
async function childProbes(session: DriverSession, opts: SettleOptions, youngMs: number): Promise<(ActivityProbe | null)[]> {
  const frames: DriverFrame[] = [];
  const walk = (f: DriverFrame) => {
    for (const c of f.children()) {
      if (frames.length >= MAX_CHILD_FRAMES) return;
      frames.push(c);
      walk(c);
    }
  };
  walk(session.mainFrame());
  return Promise.all(
    frames.map((f) =>
      f.evaluate<ActivityProbe | null>(LOOK_SCRIPT, { key: opts.key, selector: null, youngMs, waitMs: 0 }).catch(() => null),
    ),
  );
}

/** How long the last look at the bound may take when no earlier look answered (render-attempt reserves ≥ 300 ms). */
const FINAL_LOOK_GRACE_MS = 200;

/** A look's in-page wait ends this long before the bound, so its answer still counts. */
const LOOK_MARGIN_MS = 5;

async function look(session: DriverSession, opts: SettleOptions, waitMs: number): Promise<ActivityProbe | null | typeof NAVIGATING> {
  try {
    const youngMs = (opts.policy ?? SETTLE_POLICY).youngRequestMs;
    return await session.mainFrame().evaluate<ActivityProbe | null>(LOOK_SCRIPT, { key: opts.key, selector: opts.selector, youngMs, waitMs });
  } catch (err) {
    // A navigation replaced the document: ask the new one on the next tick.
    if (driverErrorKind(err) !== 'other') throw err;
    return NAVIGATING;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
