import { readFileSync } from 'node:fs';
import type { PageScript } from './driver.ts';

/**
 * Scripts that run inside the page. They live in page-scripts/*.js as plain text and are read once: a function
 * written in a .ts file would reach the browser as transpiled source, which may call helpers (tsx's __name) that
 * do not exist there.
 */
function load(name: string): PageScript {
  return Object.freeze({ source: readFileSync(new URL(`./page-scripts/${name}`, import.meta.url), 'utf8').trim() });
}

export const SNAPSHOT_SCRIPT: PageScript = load('snapshot.js');
const SHADOW_CAPTURE: PageScript = load('shadow-capture.js');

/** The init script that keeps closed shadow roots reachable under `key`. */
export function shadowCaptureInit(key: string): string {
  return `(${SHADOW_CAPTURE.source})(${JSON.stringify(key)});`;
}

export interface SnapshotArg {
  shadowKey: string | null;
  frames: unknown[];
  placeholder: string;
  bodyOnly: boolean;
  virtualScroll: { selector: string; count: number; budgetMs: number } | null;
}

export interface SnapshotResult {
  html: string;
  virtualScroll: { found: boolean; scrolls: number; rows: number } | null;
  /** document.readyState when the document was read. */
  readyState: ReadyState;
}

export type ReadyState = 'loading' | 'interactive' | 'complete';

const ACTIVITY: PageScript = load('activity.js');
const CONTENT_READY: PageScript = load('content-ready.js');

/**
 * The init script that watches the page's pending work and content under `key` (page-scripts/activity.js, judging
 * readiness with page-scripts/content-ready.js).
 */
export function activityInit(key: string): string {
  return `(${ACTIVITY.source})(${JSON.stringify(key)}, (${CONTENT_READY.source})());`;
}

/**
 * What activity.js saw, after waiting in the page up to arg.waitMs (less if the content arrives meanwhile); null
 * when the document has no tracker (an error page).
 */
export const LOOK_SCRIPT: PageScript = Object.freeze({
  source: '(arg) => { const a = window[arg.key]; return a ? a.look(arg.selector, arg.youngMs, arg.waitMs) : null; }',
});

/** The lazy-content scan of activity.js; resolves with {steps, y}: screens scrolled, lowest offset reached. */
export const SCAN_SCRIPT: PageScript = Object.freeze({
  source: '(arg) => { const a = window[arg.key]; return a ? a.scan(arg) : null; }',
});

/** Resolves true once a selector matches in the document (activity.js's waitFor), false after timeoutMs. */
export const WAIT_FOR_SELECTOR_SCRIPT: PageScript = Object.freeze({
  source: '(arg) => { const a = window[arg.key]; return a ? a.waitFor(arg.selector, arg.timeoutMs) : false; }',
});

/** activity.js's look(), as settle.ts reads it. Times are ms; null timerDueIn: no timer worth waiting for. */
export interface ActivityProbe {
  readyState: 'loading' | 'interactive' | 'complete';
  ready: boolean;
  /** The content there is thin (less than an article's first paragraphs): the page's own timers are worth a wait. */
  thin: boolean;
  /** A reader sees some of the content already (false: nothing but furniture, a spinner or an empty root). */
  shown: boolean;
  /** ms until a meta refresh takes the page elsewhere; null when none will. */
  navigationDueIn: number | null;
  sinceMutation: number;
  sinceGrowth: number;
  sinceBlockingFire: number;
  /** Since the page last called fetch() or XMLHttpRequest.send(). */
  sinceRequest: number;
  /** Since an answer to a new endpoint reached the page (a fetch resolved or its body was read, an XHR ended). */
  sinceNewAnswer: number;
  /**
   * A fetch/XHR the page started has not answered yet, or its body is still being read (seen before the browser's
   * network events arrive).
   */
  fetching: boolean;
  /** ... one to a new endpoint, younger than youngMs. */
  fetchingNew: boolean;
  timerDueIn: number | null;
  framesPending: number;
  framesSinceGrowth: number;
  lazy: boolean;
  scrollable: boolean;
  /** The largest scroll offset the document allows now. */
  maxScroll: number;
}
