import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SsrfGuard } from '@trawl/net';
import { MAX_HTML_BYTES, MAX_REDIRECTS, MAX_SCREENSHOT_HEIGHT } from './browser-defaults.ts';
import { netErrorCode, type FailureNote } from './diagnostics.ts';
import type { DriverBrowser, DriverSession, PageScript } from './driver.ts';
import { startEgressGate, type EgressGate } from './egress-gate.ts';
import { EgressPolicy } from './egress-policy.ts';
import { sanitizeHar } from './har.ts';
import { NavigationGuard, type MainRefusal } from './navigation-guard.ts';
import { NetworkActivity } from './network-activity.ts';
import { activityInit, shadowCaptureInit, WAIT_FOR_SELECTOR_SCRIPT } from './page-scripts.ts';
import { snapshotPage } from './page-snapshot.ts';
import { driverErrorKind, netErrorName } from './playwright-adapter.ts';
import { settlePage, type SettleResult } from './settle.ts';
import type { ControlsReport, FailureStage, RenderArtifact, RenderBlockReason, RenderRequest } from './types.ts';

export interface AttemptCounters {
  requests: number;
  consoleMessages: number;
  blocked: number;
  virtualScroll: { scrolls: number; rows: number } | null;
}

export type AttemptResult =
  | {
      ok: true;
      finalUrl: string;
      statusCode: number;
      html: string;
      responseContentType: string | null;
      artifacts: RenderArtifact[];
      controls: ControlsReport;
      /** Something went wrong that did not cost the page (a selector that never came, a load that never ended). */
      softFailure: FailureNote | null;
      counters: AttemptCounters;
      settle: Pick<SettleResult, 'ms' | 'reason'>;
    }
  | { ok: false; blockReason: RenderBlockReason; retryable: boolean; failure: FailureNote; crashed: boolean; counters: AttemptCounters };

export interface AttemptEnv {
  guard: SsrfGuard;
  userAgent: string;
  /** TRAWL_BROWSER_SETTLE_MAX_MS: the longest a parsed page is waited for (settle.ts). */
  settleMaxMs: number;
}

/** A selector that does not parse as CSS must not be waited for (it would only ever time out). */
const SELECTOR_IS_VALID: PageScript = Object.freeze({
  source: '(selector) => { try { document.createDocumentFragment().querySelector(selector); return true; } catch (e) { return false; } }',
});

class DeadlineError extends Error {}

/**
 * One render in a fresh browser context (no cookie, cache or storage shared with any other render): navigate,
 * let scripts run, apply the controls, take artifacts, serialize. Ends by req.deadline: when it passes the
 * context is closed under whatever is running, which makes every pending browser call fail at once.
 */
export async function renderAttempt(browser: DriverBrowser, req: RenderRequest, env: AttemptEnv): Promise<AttemptResult> {
  const started = Date.now();
  const controls = req.controls ?? {};
  const nonce = randomUUID().replaceAll('-', '');
  const shadowKey = controls.flatten_shadow_dom ? `__trawl_shadow_${nonce}` : null;
  const activityKey = `__trawl_activity_${nonce}`;
  const policy = new EgressPolicy(env.guard);
  const net = new NetworkActivity();
  const live = { console: 0, crashed: false, deadlineHit: false };
  let session: DriverSession | null = null;
  const nav = new NavigationGuard(policy, MAX_REDIRECTS, req.allowNavigation, () => session?.url() ?? null);
  const counters = (): AttemptCounters => ({
    requests: net.requests,
    consoleMessages: live.console,
    blocked: policy.refused,
    virtualScroll: null,
  });

  let gate: EgressGate | null = null;
  let harDir: string | null = null;
  let stage: FailureStage = 'context';
  const timer = setTimeout(() => {
    live.deadlineHit = true;
    void session?.close();
  }, Math.max(0, req.deadline - started));
  const fail = (blockReason: RenderBlockReason, retryable: boolean, failure: FailureNote, crashed = false): AttemptResult => ({
    ok: false,
    blockReason,
    retryable,
    failure,
    crashed,
    counters: counters(),
  });

  try {
    gate = await startEgressGate(policy);
    if (req.record) harDir = await mkdtemp(join(tmpdir(), 'trawl-har-'));
    const opened = await browser.newSession({
      proxyServer: gate.server,
      userAgent: env.userAgent,
      harPath: harDir === null ? null : join(harDir, 'render.har'),
      initScripts: [activityInit(activityKey), ...(shadowKey === null ? [] : [shadowCaptureInit(shadowKey)])],
      allowRequest: (url) => nav.allowRequest(url),
      allowDocument: (hop) => nav.decide(hop),
      onRequestStarted: (note) => net.started(note),
      onRequestEnded: (token) => net.ended(token),
      onConsoleMessage: () => void live.console++,
      onCrash: () => void (live.crashed = true),
    });
    session = opened;
    if (live.deadlineHit) throw new DeadlineError();

    // Navigation and waiting leave `reserve` for the snapshot and artifacts.
    const reserve = Math.min(3000, Math.max(300, (req.deadline - started) * 0.2));
    const waitEnd = req.deadline - reserve;
    const left = (end: number) => end - Date.now();

    stage = 'navigate';
    const response = await opened.goto(req.url, left(waitEnd));
    if (nav.mainRefusal !== null) return refusalResult(nav.mainRefusal, fail);
    if (response === null) return fail('network_error', true, { category: 'navigation', stage, errorCode: 'no_response' });

    const report: ControlsReport = {};
    const soft: FailureNote[] = [];
    let settleSince = Date.now();
    let settleSelector: string | null = null;
    if (controls.wait_for_selector !== undefined) {
      stage = 'wait_for_selector';
      const valid = await opened.mainFrame().evaluate<boolean>(SELECTOR_IS_VALID, controls.wait_for_selector);
      if (!valid) {
        report.wait_for_selector = 'invalid_selector';
        soft.push({ category: 'render', stage, errorCode: 'invalid_selector' });
      } else {
        const found = await waitForSelector(opened, activityKey, controls.wait_for_selector, left(waitEnd));
        report.wait_for_selector = found ? 'found' : 'timeout';
        if (!found) soft.push({ category: 'timeout', stage, errorCode: 'wait_for_selector_timeout' });
        else {
          // Then the content under it settles too (a chunked article is not cut at its first chunk).
          settleSelector = controls.wait_for_selector;
          settleSince = Date.now();
        }
      }
    }
    stage = 'load';
    const settled = await settlePage(opened, net, {
      key: activityKey,
      selector: settleSelector,
      since: settleSince,
      maxMs: env.settleMaxMs,
      hardEnd: waitEnd,
    });
    if (settled.loadIncomplete) soft.push({ category: 'timeout', stage, errorCode: 'load_timeout' });

    const artifacts: RenderArtifact[] = [];
    if (req.screenshot) {
      stage = 'artifacts';
      try {
        const png = await opened.screenshot(left(req.deadline - reserve / 2), MAX_SCREENSHOT_HEIGHT);
        artifacts.push({ key: 'screenshot', contentType: 'image/png', body: png });
      } catch (err) {
        if (live.deadlineHit || live.crashed || !browser.connected) throw err;
        soft.push({ category: 'render', stage, errorCode: 'screenshot_failed' });
      }
    }

    stage = controls.virtual_scroll ? 'virtual_scroll' : 'serialize';
    const vs = controls.virtual_scroll;
    const takeSnapshot = () =>
      snapshotPage(opened, {
        shadowKey,
        processIframes: controls.process_iframes === true,
        virtualScroll: vs ? { selector: vs.container_selector, count: vs.scroll_count } : null,
        nonce,
        scrollDeadline: req.deadline - reserve / 2,
      });
    let snapshot: Awaited<ReturnType<typeof takeSnapshot>>;
    try {
      snapshot = await takeSnapshot();
    } catch (err) {
      // A script navigation replaced the document under the snapshot: take it once more, of the new document.
      if (live.deadlineHit || live.crashed || driverErrorKind(err) !== 'other') throw err;
      await opened.waitForLoad(left(req.deadline - reserve / 2));
      snapshot = await takeSnapshot();
    }
    stage = 'serialize';
    if (controls.process_iframes) report.iframes_inlined = snapshot.iframesInlined;
    if (snapshot.virtualScroll) {
      const { found, scrolls, rows } = snapshot.virtualScroll;
      report.virtual_scroll = { scrolls, rows, container_found: found };
      if (!found) soft.push({ category: 'render', stage: 'virtual_scroll', errorCode: 'container_not_found' });
    }
    if (Buffer.byteLength(snapshot.html) > MAX_HTML_BYTES) {
      return fail('body_size_limit', false, { category: 'render', stage: 'serialize', errorCode: 'body_size_limit' });
    }
    const finalUrl = opened.url();
    if (finalUrl.startsWith('chrome-error:')) return fail('network_error', true, { category: 'navigation', stage: 'navigate', errorCode: 'navigation_failed' });

    stage = 'artifacts';
    await opened.close();
    if (harDir !== null) {
      try {
        const har = await readFile(join(harDir, 'render.har'), 'utf8');
        artifacts.push({ key: 'har', contentType: 'application/json', body: sanitizeHar(har) });
      } catch {
        soft.push({ category: 'render', stage: 'artifacts', errorCode: 'har_failed' });
      }
    }
    const order: FailureStage[] = ['wait_for_selector', 'load', 'virtual_scroll', 'artifacts'];
    soft.sort((a, b) => order.indexOf(a.stage) - order.indexOf(b.stage));
    return {
      ok: true,
      finalUrl,
      statusCode: response.status,
      html: snapshot.html,
      responseContentType: mediaType(response.contentType),
      artifacts,
      controls: report,
      softFailure: soft[0] ?? null,
      counters: { ...counters(), virtualScroll: report.virtual_scroll ? { scrolls: report.virtual_scroll.scrolls, rows: report.virtual_scroll.rows } : null },
      settle: { ms: settled.ms, reason: settled.reason },
    };
  } catch (err) {
    if (live.deadlineHit || err instanceof DeadlineError) {
      return fail('timeout', true, { category: 'timeout', stage, errorCode: 'deadline_exceeded' });
    }
    if (live.crashed || !browser.connected) {
      return fail('render_failed', true, { category: 'crash', stage, errorCode: browser.connected ? 'page_crashed' : 'browser_crashed' }, true);
    }
    if (stage === 'navigate' && nav.mainRefusal !== null) return refusalResult(nav.mainRefusal, fail);
    const kind = driverErrorKind(err);
    if (kind === 'closed') return fail('render_failed', true, { category: 'crash', stage, errorCode: 'browser_crashed' }, true);
    if (kind === 'timeout') return fail('timeout', true, { category: 'timeout', stage, errorCode: stage === 'navigate' ? 'navigation_timeout' : 'deadline_exceeded' });
    if (stage === 'navigate' && kind === 'net') {
      const code = netErrorCode(netErrorName(err));
      if (code === 'redirect_limit') return fail('redirect_limit', false, { category: 'navigation', stage, errorCode: code });
      if (code === 'blocked_target') return fail('blocked_target', false, { category: 'blocked', stage, errorCode: code });
      return fail('network_error', true, { category: 'navigation', stage, errorCode: code });
    }
    if (stage === 'context') return fail('render_failed', true, { category: 'crash', stage, errorCode: 'context_failed' });
    return fail('render_failed', true, { category: 'render', stage, errorCode: 'render_failed' });
  } finally {
    clearTimeout(timer);
    await session?.close();
    await gate?.close();
    if (harDir !== null) await rm(harDir, { recursive: true, force: true });
  }
}

function refusalResult(refusal: MainRefusal, fail: (r: RenderBlockReason, retryable: boolean, f: FailureNote) => AttemptResult): AttemptResult {
  switch (refusal) {
    case 'blocked_target':
      return fail('blocked_target', false, { category: 'blocked', stage: 'navigate', errorCode: 'blocked_target' });
    case 'dns_failed':
      return fail('network_error', true, { category: 'navigation', stage: 'navigate', errorCode: 'dns_failed' });
    case 'redirect_limit':
      return fail('redirect_limit', false, { category: 'navigation', stage: 'navigate', errorCode: 'redirect_limit' });
    case 'out_of_scope_redirect':
      return fail('out_of_scope_redirect', false, { category: 'navigation', stage: 'navigate', errorCode: 'out_of_scope_redirect' });
  }
}

/**
 * True once the selector matches, false when it did not within timeoutMs. Two waits race: ours in the page, told
 * by a MutationObserver the moment the element is added, and Playwright's, which also looks inside open shadow
 * roots but polls at growing intervals (up to half a second late).
 */
function waitForSelector(session: DriverSession, key: string, selector: string, timeoutMs: number): Promise<boolean> {
  const own = session.mainFrame().evaluate<boolean>(WAIT_FOR_SELECTOR_SCRIPT, { key, selector, timeoutMs }).catch(() => false);
  const theirs = session.waitForSelector(selector, timeoutMs);
  return new Promise((resolve, reject) => {
    let misses = 0;
    const miss = () => void (++misses === 2 && resolve(false));
    void own.then((found) => (found ? resolve(true) : miss()));
    theirs.then((found) => (found ? resolve(true) : miss()), reject);
  });
}

/** Lower-case media type without parameters, or null when absent or malformed. */
function mediaType(contentType: string | null): string | null {
  const t = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(t) ? t : null;
}
