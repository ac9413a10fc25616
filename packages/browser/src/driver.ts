/**
 * What the engine needs from a browser, in our own terms. playwright-adapter.ts implements it and is the only
 * module that imports playwright-core; everything else (pool, render, controls) is written against this.
 */

export interface DriverLaunchOptions {
  executablePath: string;
  args: string[];
  /** Browser-wide proxy: a deny-all egress gate, so nothing outside a render's own context gets out. */
  proxyServer: string;
  timeoutMs: number;
}

export interface DriverBrowser {
  readonly connected: boolean;
  /** Chromium's default User-Agent. */
  readonly userAgent: string;
  onDisconnected(listener: () => void): void;
  newSession(opts: SessionOptions): Promise<DriverSession>;
  close(): Promise<void>;
}

export interface DocumentHop {
  url: string;
  /** The top document (not an iframe). */
  mainFrame: boolean;
  /** The same for every hop of one redirect chain. */
  chainId: string;
  /** A redirect hop (not the first request of its chain). */
  redirect: boolean;
}

export type HopDecision = 'continue' | 'refuse' | 'cancel';

export interface SessionOptions {
  /** Per-context proxy: this render's egress gate. */
  proxyServer: string;
  userAgent: string;
  /** Record a HAR here (written when the session closes). */
  harPath: string | null;
  /** Run before any page script in every frame. */
  initScripts: string[];
  /** Asked for every request Playwright can intercept; false aborts it. */
  allowRequest(url: string): Promise<boolean>;
  /**
   * Asked for every document request in the page's own process, redirect hops included. `refuse` fails the
   * navigation (an error page commits); `cancel` drops it and the frame keeps the document it had.
   */
  allowDocument(hop: DocumentHop): Promise<HopDecision>;
  onRequestStarted(note: RequestNote): void;
  /** The request finished or failed (`token` as in its RequestNote). */
  onRequestEnded(token: object): void;
  onConsoleMessage(): void;
  /** The renderer or the whole browser went away. */
  onCrash(): void;
}

/** A request the page started, as settling needs it (network-activity.ts). */
export interface RequestNote {
  /** The driver's request object, used only as an identity. */
  token: object;
  /** Resource type: document, script, stylesheet, xhr, fetch, image, font, media, eventsource, ping, ... */
  kind: string;
  /** Method, origin, path and query, cache-busters masked: tells a poll from a new request. Never reported. */
  endpoint: string;
}

export interface MainResponse {
  status: number;
  /** Content-Type header as sent, or null. */
  contentType: string | null;
}

export interface DriverSession {
  /** Navigates and resolves once the response is committed (not after load); null when there was no response. */
  goto(url: string, timeoutMs: number): Promise<MainResponse | null>;
  /** True when the load event fired within timeoutMs. */
  waitForLoad(timeoutMs: number): Promise<boolean>;
  /** True when a CSS selector matched within timeoutMs; false on timeout. */
  waitForSelector(selector: string, timeoutMs: number): Promise<boolean>;
  url(): string;
  mainFrame(): DriverFrame;
  /** Full-page PNG, cut at maxHeight CSS pixels. */
  screenshot(timeoutMs: number, maxHeight: number): Promise<Buffer>;
  /** Closes the context (a HAR is complete once this resolves). */
  close(): Promise<void>;
}

/** A handle to a DOM node, only meaningful as an argument to evaluate() in its own frame. */
export type DriverHandle = { readonly __brand: 'DriverHandle' };

export interface DriverFrame {
  url(): string;
  children(): DriverFrame[];
  /** The <iframe>/<frame> element in the parent frame; null for the main frame or a detached frame. */
  elementInParent(): Promise<DriverHandle | null>;
  /** Runs a page script (see page-scripts.ts) with one JSON-like argument that may hold DriverHandles. */
  evaluate<T>(script: PageScript, arg: unknown): Promise<T>;
}

/** The source of a function expression to run in the page, kept as text (never a transpiled Node function). */
export interface PageScript {
  readonly source: string;
}

/** Errors of the driver, reduced to what the engine acts on. Never carries browser text. */
export type DriverErrorKind = 'timeout' | 'closed' | 'net' | 'other';
