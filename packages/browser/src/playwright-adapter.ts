import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import type {
  DriverBrowser,
  DriverErrorKind,
  DriverFrame,
  DriverHandle,
  DriverLaunchOptions,
  DriverSession,
  MainResponse,
  PageScript,
  SessionOptions,
} from './driver.ts';
import { endpointKey } from './network-activity.ts';

/**
 * The only module that imports playwright-core (1.65, driving Debian's Chromium; never a downloaded browser).
 *
 * Playwright facts this file relies on, checked against 1.65:
 * - context.route() is not asked about redirect hops (Playwright continues them itself), so document hops are
 *   also intercepted on a CDP session of our own (Fetch domain, Document requests only); interception by two
 *   sessions chains, and failing a hop there fails the navigation.
 * - routeWebSocket() replaces WebSocket in every frame before page scripts run; a route that never connects to
 *   the server means the page's socket never leaves the browser (workers are left to the egress gate).
 * - Functions passed to evaluate() are sent as their source text; page scripts are therefore kept as text files
 *   and turned into functions here, so no transpiler helper (tsx's __name) ever reaches the page.
 */

type Playwright = typeof import('playwright-core');
let loaded: Playwright | null = null;

/**
 * playwright-core is loaded with the first launch: importing it costs ~1 s of CPU, which a process that never
 * renders (a worker of light crawls, a gateway serving reads) need not pay.
 */
async function playwright(): Promise<Playwright> {
  loaded ??= await import('playwright-core');
  return loaded;
}

/** A Playwright timeout (no Playwright error can exist before it is loaded). */
const isTimeout = (err: unknown): boolean => loaded !== null && err instanceof loaded.errors.TimeoutError;

export async function launchChromium(opts: DriverLaunchOptions): Promise<DriverBrowser> {
  const { chromium } = await playwright();
  const browser = await chromium.launch({
    executablePath: opts.executablePath,
    headless: true,
    args: opts.args,
    chromiumSandbox: false,
    proxy: { server: opts.proxyServer },
    timeout: opts.timeoutMs,
    // The service decides when browsers end; a Ctrl-C of the host process must not race our own shutdown.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  let userAgent = '';
  try {
    const cdp = await browser.newBrowserCDPSession();
    userAgent = (await cdp.send('Browser.getVersion')).userAgent;
    await cdp.detach();
  } catch {
    // Keep Chromium's default User-Agent.
  }
  return new PlaywrightBrowser(browser, userAgent);
}

class PlaywrightBrowser implements DriverBrowser {
  constructor(
    private readonly browser: Browser,
    readonly userAgent: string,
  ) {}

  get connected(): boolean {
    return this.browser.isConnected();
  }

  onDisconnected(listener: () => void): void {
    this.browser.on('disconnected', () => listener());
  }

  async newSession(opts: SessionOptions): Promise<DriverSession> {
    const context = await this.browser.newContext({
      proxy: { server: opts.proxyServer },
      serviceWorkers: 'block',
      acceptDownloads: false,
      userAgent: opts.userAgent || undefined,
      viewport: { width: 1280, height: 800 },
      recordHar: opts.harPath === null ? undefined : { path: opts.harPath, content: 'omit', mode: 'full' },
    });
    try {
      return await PlaywrightSession.open(context, opts);
    } catch (err) {
      await context.close().catch(() => {});
      throw err;
    }
  }

  async close(): Promise<void> {
    await this.browser.close().catch(() => {});
  }
}

class PlaywrightSession implements DriverSession {
  private constructor(
    private readonly context: BrowserContext,
    private readonly page: Page,
  ) {}

  static async open(context: BrowserContext, opts: SessionOptions): Promise<PlaywrightSession> {
    for (const content of opts.initScripts) await context.addInitScript({ content });
    context.on('request', (r) => opts.onRequestStarted({ token: r, kind: r.resourceType(), endpoint: endpointKey(r.method(), r.url()) }));
    context.on('requestfinished', (r) => opts.onRequestEnded(r));
    context.on('requestfailed', (r) => opts.onRequestEnded(r));
    context.on('console', () => opts.onConsoleMessage());
    await context.route(
      () => true,
      async (route) => {
        const allowed = await opts.allowRequest(route.request().url());
        await (allowed ? route.continue() : route.abort('blockedbyclient')).catch(() => {});
      },
    );
    await context.routeWebSocket(
      () => true,
      (ws) => void ws.close({ code: 1008, reason: 'blocked' }).catch(() => {}),
    );
    const page = await context.newPage();
    page.on('crash', () => opts.onCrash());
    // Popups are not part of the render; closing them also keeps the page count of the pool honest.
    context.on('page', (p) => {
      if (p !== page) void p.close().catch(() => {});
    });
    await interceptDocuments(context, page, opts);
    return new PlaywrightSession(context, page);
  }

  async goto(url: string, timeoutMs: number): Promise<MainResponse | null> {
    const response = await this.page.goto(url, { waitUntil: 'commit', timeout: Math.max(1, timeoutMs) });
    if (response === null) return null;
    return { status: response.status(), contentType: (await response.allHeaders())['content-type'] ?? null };
  }

  async waitForLoad(timeoutMs: number): Promise<boolean> {
    // The document's own readyState, not Playwright's load-state bookkeeping: after a script starts a navigation
    // that we then cancel, Playwright keeps waiting for the load of a document that never comes.
    const end = Date.now() + timeoutMs;
    for (;;) {
      try {
        if ((await this.page.evaluate('document.readyState')) === 'complete') return true;
      } catch (err) {
        // A navigation replaced the execution context: ask the new document on the next turn.
        if (this.page.isClosed() || driverErrorKind(err) !== 'other') throw err;
      }
      if (Date.now() >= end) return false;
      await new Promise((r) => setTimeout(r, Math.min(25, Math.max(0, end - Date.now()))));
    }
  }

  async waitForSelector(selector: string, timeoutMs: number): Promise<boolean> {
    if (timeoutMs <= 0) return false;
    try {
      // `css=` so the caller's text is only ever a CSS selector, never one of Playwright's other engines.
      await this.page.waitForSelector(`css=${selector}`, { state: 'attached', timeout: timeoutMs });
      return true;
    } catch (err) {
      if (isTimeout(err)) return false;
      throw err;
    }
  }

  url(): string {
    return this.page.url();
  }

  mainFrame(): DriverFrame {
    return new PlaywrightFrame(this.page.mainFrame());
  }

  async screenshot(timeoutMs: number, maxHeight: number): Promise<Buffer> {
    const size = await this.page.evaluate(
      '({ w: document.documentElement.scrollWidth, h: Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0) })',
    ) as { w: number; h: number };
    const viewport = this.page.viewportSize() ?? { width: 1280, height: 800 };
    const clip = size.h > maxHeight ? { x: 0, y: 0, width: Math.max(viewport.width, Math.min(size.w, 4096)), height: maxHeight } : undefined;
    return this.page.screenshot({ type: 'png', fullPage: true, clip, timeout: Math.max(1, timeoutMs), animations: 'disabled' });
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => {});
  }
}

class PlaywrightFrame implements DriverFrame {
  constructor(private readonly frame: Frame) {}

  url(): string {
    return this.frame.url();
  }

  children(): DriverFrame[] {
    return this.frame.childFrames().map((f) => new PlaywrightFrame(f));
  }

  async elementInParent(): Promise<DriverHandle | null> {
    if (this.frame.parentFrame() === null || this.frame.isDetached()) return null;
    return (await this.frame.frameElement()) as unknown as DriverHandle;
  }

  evaluate<T>(script: PageScript, arg: unknown): Promise<T> {
    return this.frame.evaluate(functionOf(script), arg) as Promise<T>;
  }
}

const compiled = new WeakMap<PageScript, (arg: unknown) => unknown>();

/** A real function whose toString() is exactly the script's text (what Playwright sends to the page). */
function functionOf(script: PageScript): (arg: unknown) => unknown {
  let fn = compiled.get(script);
  if (!fn) {
    fn = new Function(`return (${script.source});`)() as (arg: unknown) => unknown;
    compiled.set(script, fn);
  }
  return fn;
}

/** Pauses every document request of the page's process, redirect hops included, for opts.allowDocument. */
async function interceptDocuments(context: BrowserContext, page: Page, opts: SessionOptions): Promise<void> {
  const cdp = await context.newCDPSession(page);
  const mainFrameId = (await cdp.send('Page.getFrameTree')).frameTree.frame.id;
  cdp.on('Fetch.requestPaused', (event) => {
    const hop = {
      url: event.request.url,
      mainFrame: event.frameId === mainFrameId,
      chainId: event.networkId ?? event.requestId,
      redirect: event.redirectedRequestId !== undefined,
    };
    opts.allowDocument(hop).then(
      (decision) =>
        decision === 'continue'
          ? cdp.send('Fetch.continueRequest', { requestId: event.requestId })
          : cdp.send('Fetch.failRequest', {
              requestId: event.requestId,
              // Aborted: Chromium drops the navigation without committing an error page over the current document.
              errorReason: decision === 'cancel' ? 'Aborted' : 'BlockedByClient',
            }),
      () => cdp.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' }),
    ).catch(() => {
      // The context closed while the hop was paused.
    });
  });
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*', resourceType: 'Document', requestStage: 'Request' }] });
}


/** What kind of failure a driver call threw; only our own vocabulary leaves this module. */
export function driverErrorKind(err: unknown): DriverErrorKind {
  if (isTimeout(err)) return 'timeout';
  const message = err instanceof Error ? err.message : '';
  if (/net::ERR_[A-Z0-9_]+/.test(message)) return 'net';
  if (/has been closed|Target closed|Target crashed|Browser closed|Navigation failed because page crashed|browser has disconnected/i.test(message)) {
    return 'closed';
  }
  return 'other';
}

/** Chromium's net error name (ERR_NAME_NOT_RESOLVED...) inside a driver error, or null. A fixed vocabulary. */
export function netErrorName(err: unknown): string | null {
  const message = err instanceof Error ? err.message : '';
  return message.match(/net::(ERR_[A-Z0-9_]+)/)?.[1] ?? null;
}
