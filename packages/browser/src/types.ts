import type { BlockReason, BrowserControls, Diagnostics } from '@trawl/contract';
import type { HostResolverRules, SsrfGuard } from '@trawl/net';

export interface BrowserPoolOptions {
  /** The SSRF guard shared with the light engine; every connection the browser makes is judged by it. */
  guard: SsrfGuard;
  /** TRAWL_HOST_RESOLVER_RULES; default: the guard's own rules. Passed to Chromium as --host-resolver-rules. */
  rules?: HostResolverRules;
  /** TRAWL_CHROMIUM_PATH; default /usr/bin/chromium (Debian's Chromium, never a downloaded browser). */
  executablePath?: string;
  /** TRAWL_BROWSER_PAGES: pages rendering at once; default defaultBrowserPages() (sized for this machine). */
  maxPages?: number;
  /** How long a render may wait for a free page before it is refused with browser_capacity_full. Default 50 ms. */
  acquireTimeoutMs?: number;
  /** A browser takes this many renders, then is retired (closed once idle) and replaced. Default 100. */
  recyclePagesPerBrowser?: number;
  /** TRAWL_BROWSER_SETTLE_MAX_MS: how long a parsed page may take to settle; default DEFAULT_SETTLE_MAX_MS. */
  settleMaxMs?: number;
  /** Replaces the User-Agent; default: Chromium's own with "HeadlessChrome" written as "Chrome". */
  userAgent?: string;
}

export interface RenderRequest {
  url: string;
  /** Epoch ms. The render (all attempts, controls, artifacts) answers by then. */
  deadline: number;
  controls?: BrowserControls;
  /** A full-page PNG artifact (key `screenshot`). */
  screenshot?: boolean;
  /** A HAR artifact (key `har`): every request of the render, bodies omitted, cookies and credentials redacted. */
  record?: boolean;
  /** Crawl scope: asked for every later hop of the top document (redirects and script navigations). */
  allowNavigation?: (from: URL, to: URL) => boolean;
  /**
   * Overrides the pool's wait for a free page. Synchronous callers keep the short default (a fast, honest
   * browser_capacity_full); a crawl, which is asynchronous anyway, lets its pages queue for a browser instead.
   */
  acquireTimeoutMs?: number;
  /**
   * When set, the render's own time (navigation, settling, artifacts) starts when it gets a browser page: its
   * deadline is min(deadline, acquired + budgetMs). A crawl page queued for a browser keeps its whole budget.
   */
  budgetMs?: number;
}

export type BrowserDebug = Diagnostics['browser_debug'];
export type BrowserFailure = Diagnostics['browser_failure'];
export interface BrowserDiagnostics {
  browser_debug: BrowserDebug;
  browser_failure: BrowserFailure;
}

/** Categories of diagnostics.browser_failure.category written by this engine. */
export type FailureCategory = 'none' | 'capacity' | 'crash' | 'timeout' | 'navigation' | 'blocked' | 'render';
/** Stages of diagnostics.browser_failure.stage. */
export type FailureStage =
  | 'none'
  | 'acquire'
  | 'launch'
  | 'context'
  | 'navigate'
  | 'load'
  | 'wait_for_selector'
  | 'virtual_scroll'
  | 'serialize'
  | 'artifacts';

export interface RenderArtifact {
  key: 'screenshot' | 'har';
  contentType: string;
  body: Buffer;
}

export interface ControlsReport {
  /** 'invalid_selector' when the selector is not valid CSS (nothing was waited for). */
  wait_for_selector?: 'found' | 'timeout' | 'invalid_selector';
  /** Scrolls that moved the container and distinct rows kept; 0/0 when the container was not found. */
  virtual_scroll?: { scrolls: number; rows: number; container_found: boolean };
  /** Child frames whose documents were inlined. */
  iframes_inlined?: number;
}

/** The block reasons a render can end with: contract names, so a render failure is a page's block reason as is. */
export type RenderBlockReason = Extract<
  BlockReason,
  'browser_capacity_full' | 'blocked_target' | 'timeout' | 'network_error' | 'redirect_limit' | 'out_of_scope_redirect' | 'body_size_limit' | 'render_failed'
>;

/** Requests the page made, and how many of them the SSRF guard refused (subresources included). */
export interface RequestCounts {
  seen: number;
  blocked: number;
}

export type RenderOutcome =
  | {
      ok: true;
      url: string;
      finalUrl: string;
      /** HTTP status of the top document (a 404 page is still rendered and returned). */
      statusCode: number;
      /** The serialized DOM after the controls ran: a full document, URLs made absolute, scripts and styles dropped. */
      html: string;
      contentType: 'text/html';
      /** Media type the server declared for the top document (lower-case, no parameters), or null. */
      responseContentType: string | null;
      artifacts: RenderArtifact[];
      diagnostics: BrowserDiagnostics;
      controls: ControlsReport;
      requests: RequestCounts;
    }
  | {
      ok: false;
      blockReason: RenderBlockReason;
      retryable: boolean;
      diagnostics: BrowserDiagnostics;
      requests: RequestCounts;
    };

export interface BrowserPoolStats {
  maxPages: number;
  /** Renders holding a page now. */
  active: number;
  /** Renders waiting (at most acquireTimeoutMs) for a page. */
  waiting: number;
  /** Chromium processes alive (the current one plus retired ones finishing their renders). */
  browsers: number;
  launches: number;
  crashes: number;
  renders: number;
  rejectedForCapacity: number;
}

export interface BrowserPool {
  render(req: RenderRequest): Promise<RenderOutcome>;
  stats(): BrowserPoolStats;
  /** Refuses new renders, ends running ones and closes every browser. */
  close(): Promise<void>;
}
