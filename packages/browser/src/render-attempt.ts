import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SsrfGuard } from '@trawl/net';
import { MAX_HTML_BYTES, MAX_REDIRECTS } from './browser-defaults.ts';
import type { FailureNote } from './diagnostics.ts';
import type { DriverBrowser, DriverSession } from './driver.ts';
import { startEgressGate, type EgressGate } from './egress-gate.ts';
import { EgressPolicy } from './egress-policy.ts';
import { NavigationGuard } from './navigation-guard.ts';
import { NetworkActivity } from './network-activity.ts';
import { activityInit, shadowCaptureInit } from './page-scripts.ts';
import { harArtifact, isArtifact, pageSnapshot, screenshotArtifact } from './render-artifacts.ts';
import { LOAD_TIMEOUT, waitForContent } from './render-controls.ts';
import { classifyRenderError, refusalFailure, type RenderFailure } from './render-failure.ts';
import type { SettleResult } from './settle.ts';
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

class DeadlineError extends Error {}

/**
 * One render in a fresh browser context (no cookie, cache or storage shared with any other render): open the
 * session, navigate, wait for the content (render-controls.ts), take artifacts and the snapshot
 * (render-artifacts.ts), classify what failed (render-failure.ts). Ends by req.deadline: when it passes the
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
  const lost = () => live.deadlineHit || live.crashed || !browser.connected;

  let gate: EgressGate | null = null;
  let harDir: string | null = null;
  let stage: FailureStage = 'context';
  const timer = setTimeout(() => {
    live.deadlineHit = true;
    void session?.close();
  }, Math.max(0, req.deadline - started));
  const fail = (f: RenderFailure): AttemptResult => ({ ok: false, ...f, counters: counters() });
  const failWith = (blockReason: RenderBlockReason, retryable: boolean, failure: FailureNote): AttemptResult =>
    fail({ blockReason, retryable, failure, crashed: false });

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

    stage = 'navigate';
    const response = await opened.goto(req.url, waitEnd - Date.now());
    if (nav.mainRefusal !== null) return fail(refusalFailure(nav.mainRefusal));
    if (response === null) return failWith('network_error', true, { category: 'navigation', stage, errorCode: 'no_response' });

    const { report, soft, settled } = await waitForContent(opened, net, {
      controls,
      activityKey,
      settleMaxMs: env.settleMaxMs,
      waitEnd,
      onStage: (s) => void (stage = s),
    });
    // Nothing to read yet and no more time: a timeout, not an empty page delivered as if it were the page.
    if (settled.nothingShown) return failWith('timeout', true, LOAD_TIMEOUT);

    const artifacts: RenderArtifact[] = [];
    if (req.screenshot) {
      stage = 'artifacts';
      const shot = await screenshotArtifact(opened, req.deadline - reserve / 2, lost);
      if (isArtifact(shot)) artifacts.push(shot);
      else soft.push(shot);
    }

    stage = controls.virtual_scroll ? 'virtual_scroll' : 'serialize';
    const snapshot = await pageSnapshot(opened, { controls, shadowKey, nonce, end: req.deadline - reserve / 2 }, () => live.deadlineHit || live.crashed);
    stage = 'serialize';
    // The settle may have had no answer from the page before its bound (a busy machine): the document read says.
    if (snapshot.readyState !== 'complete' && !soft.includes(LOAD_TIMEOUT)) soft.push(LOAD_TIMEOUT);
    if (controls.process_iframes) report.iframes_inlined = snapshot.iframesInlined;
    if (snapshot.virtualScroll) {
      const { found, scrolls, rows } = snapshot.virtualScroll;
      report.virtual_scroll = { scrolls, rows, container_found: found };
      if (!found) soft.push({ category: 'render', stage: 'virtual_scroll', errorCode: 'container_not_found' });
    }
    if (Buffer.byteLength(snapshot.html) > MAX_HTML_BYTES) {
      return failWith('body_size_limit', false, { category: 'render', stage: 'serialize', errorCode: 'body_size_limit' });
    }
    const finalUrl = opened.url();
    if (finalUrl.startsWith('chrome-error:')) return failWith('network_error', true, { category: 'navigation', stage: 'navigate', errorCode: 'navigation_failed' });

    stage = 'artifacts';
    await opened.close();
    if (harDir !== null) {
      const har = await harArtifact(harDir);
      if (isArtifact(har)) artifacts.push(har);
      else soft.push(har);
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
    return fail(
      classifyRenderError(
        err,
        { stage, deadlineHit: live.deadlineHit, crashed: live.crashed, browserConnected: browser.connected, mainRefusal: nav.mainRefusal },
        err instanceof DeadlineError,
      ),
    );
  } finally {
    clearTimeout(timer);
    await session?.close();
    await gate?.close();
    if (harDir !== null) await rm(harDir, { recursive: true, force: true });
  }
}

/** Lower-case media type without parameters, or null when absent or malformed. */
function mediaType(contentType: string | null): string | null {
  const t = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(t) ? t : null;
}
