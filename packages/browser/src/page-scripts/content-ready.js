// @ts-check
/// <reference lib="dom" />
// Whether a page's content is there (page-scripts.ts passes the result of this function to activity.js): not an
// empty app root, not only a spinner, skeleton or "Loading…" placeholder, not empty while scripts may fill it;
// and whether what is there is thin (a heading, a menu, a cookie note: less than an article's first paragraphs),
// in which case the page's pending timers are worth waiting for. Also the size of the page's text, whose growth
// activity.js watches.
/** @typedef {{ ready: boolean, thin: boolean, shown: boolean }} Judgement */
/**
 * What this function returns, as activity.js gets it.
 * @typedef {{ judge: (selector: string | null, shadowRoots: readonly ShadowRoot[]) => Judgement, textSize: (shadowRoots: readonly ShadowRoot[]) => number }} Readiness
 */
/**
 * An element a selector matched: innerText is its rendered text when it is an HTML one (SVG and MathML elements
 * have none, hence the `|| ''` wherever it is read).
 * @typedef {Element & { innerText?: string }} Matched
 */
(/** @returns {Readiness} */ function trawlReadiness() {
  'use strict';
  const SHORT_MAIN_CHARS = 200;
  /** Less reader's text than this (after furniture) is thin: about the shortest article worth reading. */
  const THIN_MAIN_CHARS = 500;
  /** Past this much text a page is not an empty shell; its reader's text (a layout) is not worth computing. */
  const SURELY_CONTENT_CHARS = 20000;
  const APP_ROOTS = ['root', 'app', '__next', '__nuxt', '___gatsby', 'svelte', 'main-app', 'app-root'];
  const FURNITURE =
    'nav,header,footer,aside,dialog,[role="navigation"],[role="banner"],[role="contentinfo"],[role="complementary"],[role="dialog"],[aria-modal="true"],[id*="cookie" i],[class*="cookie" i],[id*="consent" i],[class*="consent" i]';
  const INDICATORS =
    '[aria-busy="true"],[role="progressbar"],[class*="skeleton" i],[class*="spinner" i],[class*="loading" i],[class*="loader" i],[class*="shimmer" i],[class*="placeholder" i]';
  const PLACEHOLDER_TEXT =
    /^(loading|please wait|one moment|just a moment|fetching|chargement|cargando|carregando|caricamento|wird geladen|laden|загрузка|読み込み中|加载中|載入中)[\s.…!]*$/i;
  /**
   * Text in the body and in the shadow roots the page attached (activity.js keeps them).
   * @param {readonly ShadowRoot[]} shadowRoots
   */
  function textSize(shadowRoots) {
    const body = document.body;
    if (!body) return 0;
    let n = body.textContent.length;
    for (const tag of ['script', 'style', 'noscript']) for (const el of body.getElementsByTagName(tag)) n -= el.textContent.length;
    if (shadowRoots) for (const r of shadowRoots) n += r.textContent.length;
    return n;
  }
  /**
   * Text of shadow roots inside `root` (innerText leaves it out), collapsed.
   * @param {Matched} root
   * @param {readonly ShadowRoot[]} shadowRoots
   */
  function shadowText(root, shadowRoots) {
    let t = '';
    for (const r of shadowRoots || []) if (r.host && r.host.isConnected && root.contains(r.host)) t += ' ' + r.textContent;
    return t.replace(/\s+/g, ' ').trim();
  }
  /** @param {Element} el */
  const visible = (el) => {
    if (typeof el.checkVisibility === 'function' && !el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  /**
   * @param {Matched} root
   * @param {string} selector
   * @returns {Matched[]}
   */
  const topmost = (root, selector) =>
    Array.from(root.querySelectorAll(selector)).filter((el) => {
      const outer = el.parentElement && el.parentElement.closest(selector);
      return !outer || !root.contains(outer);
    });
  /**
   * The reader's text of `root` without site furniture (page level only) and without loading indicators.
   * @param {Matched} root
   * @param {boolean} pageLevel
   */
  function mainText(root, pageLevel) {
    let text = root.innerText || '';
    /** @param {Matched} el */
    const cut = (el) => {
      const t = el.innerText || '';
      if (t) text = text.replace(t, ' ');
    };
    if (pageLevel) topmost(root, FURNITURE).forEach(cut);
    topmost(root, INDICATORS).slice(0, 50).forEach(cut);
    return text.replace(/\s+/g, ' ').trim();
  }
  /** @param {Matched} root */
  function indicatorShown(root) {
    let n = 0;
    for (const el of root.querySelectorAll(INDICATORS)) {
      if (++n > 50) break;
      if (visible(el)) return true;
    }
    return false;
  }
  const NOT_READY = { ready: false, thin: true, shown: false };
  /**
   * Whether the main content (or, with a selector, the element it names) is there: not an empty app root, not
   * only a spinner, skeleton or "Loading…" placeholder, not empty while the page has scripts to fill it; whether
   * it is thin; and whether a reader sees any of it yet (`shown`: false for an empty page, even a finished one).
   * @param {string | null} selector
   * @param {readonly ShadowRoot[]} shadowRoots
   * @returns {Judgement}
   */
  function judge(selector, shadowRoots) {
    let root = null;
    if (selector) {
      try {
        root = document.querySelector(selector);
      } catch (e) {
        root = null;
      }
    }
    // A selector that matched inside a shadow root (Playwright's selectors pierce them) is judged by the page.
    if (!root) selector = null;
    root = root || document.body;
    if (!root) return NOT_READY;
    if (!selector) {
      for (const id of APP_ROOTS) {
        const el = document.getElementById(id);
        if (el && !(el.textContent || '').trim() && !el.querySelector('img,svg,canvas,video')) return NOT_READY;
      }
    }
    if (!selector && textSize(shadowRoots) > SURELY_CONTENT_CHARS) return { ready: true, thin: false, shown: true };
    let text = mainText(root, !selector);
    if (text.length < THIN_MAIN_CHARS) text = (text + ' ' + shadowText(root, shadowRoots)).trim();
    if (PLACEHOLDER_TEXT.test(text)) return NOT_READY;
    if (text.length < SHORT_MAIN_CHARS && indicatorShown(root)) return NOT_READY;
    if (text === '') return selector ? NOT_READY : { ready: document.scripts.length === 0, thin: true, shown: false };
    return { ready: true, thin: text.length < THIN_MAIN_CHARS, shown: true };
  }
  return { judge, textSize };
})
