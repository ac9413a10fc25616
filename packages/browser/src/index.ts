/**
 * @trawl/browser: the browser engine. A bounded pool of Debian's Chromium driven by playwright-core.
 *
 *   const pool = createBrowserPool({ guard, rules, executablePath, maxPages });
 *   const outcome = await pool.render({ url, deadline, controls, screenshot, record, allowNavigation });
 *
 * outcome.ok: `html` is the rendered DOM (a full document; hand it to normalizeContent with `finalUrl`),
 * plus artifacts (screenshot PNG, HAR), the controls report and diagnostics.browser_debug / browser_failure in
 * the contract's shapes. Otherwise `blockReason` (browser_capacity_full, blocked_target, timeout, network_error,
 * redirect_limit, out_of_scope_redirect, body_size_limit, render_failed) with `retryable` and the same diagnostics.
 *
 * Every connection a page makes leaves through a per-render egress gate that applies the SSRF guard to the
 * address it connects to; see egress-gate.ts and navigation-guard.ts.
 */
export { createBrowserPool } from './browser-pool.ts';
export {
  chromiumArgs,
  DEFAULT_ACQUIRE_TIMEOUT_MS,
  DEFAULT_CHROMIUM_PATH,
  DEFAULT_RECYCLE_PAGES,
  DEFAULT_SETTLE_MAX_MS,
  defaultBrowserPages,
} from './browser-defaults.ts';
export type {
  BrowserDebug,
  BrowserDiagnostics,
  BrowserFailure,
  BrowserPool,
  BrowserPoolOptions,
  BrowserPoolStats,
  ControlsReport,
  FailureCategory,
  FailureStage,
  RenderArtifact,
  RenderBlockReason,
  RenderOutcome,
  RenderRequest,
  RequestCounts,
} from './types.ts';
