// Whether a page's content is there (page-scripts.ts passes the result of this function to activity.js): not an
// empty app root, not only a spinner, skeleton or "Loading…" placeholder, not empty while scripts may fill it.
// Also the size of the page's text, whose growth activity.js watches.
(function trawlReadiness() {
  'use strict';
  const SHORT_MAIN_CHARS = 200;
  /** Past this much text a page is not an empty shell; its reader's text (a layout) is not worth computing. */
  const SURELY_CONTENT_CHARS = 20000;
  const APP_ROOTS = ['root', 'app', '__next', '__nuxt', '___gatsby', 'svelte', 'main-app', 'app-root'];
  const FURNITURE = 'nav,header,footer,aside,dialog,[role="navigation"],[role="banner"],[role="contentinfo"],[role="complementary"]';
  const INDICATORS =
    '[aria-busy="true"],[role="progressbar"],[class*="skeleton" i],[class*="spinner" i],[class*="loading" i],[class*="loader" i],[class*="shimmer" i],[class*="placeholder" i]';
  const PLACEHOLDER_TEXT =
    /^(loading|please wait|one moment|just a moment|fetching|chargement|cargando|carregando|caricamento|wird geladen|laden|загрузка|読み込み中|加载中|載入中)[\s.…!]*$/i;
  function textSize() {
    const body = document.body;
    if (!body) return 0;
    let n = body.textContent.length;
    for (const tag of ['script', 'style', 'noscript']) for (const el of body.getElementsByTagName(tag)) n -= el.textContent.length;
    return n;
  }
  const visible = (el) => {
    if (typeof el.checkVisibility === 'function' && !el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const topmost = (root, selector) =>
    Array.from(root.querySelectorAll(selector)).filter((el) => {
      const outer = el.parentElement && el.parentElement.closest(selector);
      return !outer || !root.contains(outer);
    });
  /** The reader's text of `root` without site furniture (page level only) and without loading indicators. */
  function mainText(root, pageLevel) {
    let text = root.innerText || '';
    const cut = (el) => {
      const t = el.innerText || '';
      if (t) text = text.replace(t, ' ');
    };
    if (pageLevel) topmost(root, FURNITURE).forEach(cut);
    topmost(root, INDICATORS).slice(0, 50).forEach(cut);
    return text.replace(/\s+/g, ' ').trim();
  }
  function indicatorShown(root) {
    let n = 0;
    for (const el of root.querySelectorAll(INDICATORS)) {
      if (++n > 50) break;
      if (visible(el)) return true;
    }
    return false;
  }
  /**
   * Whether the main content (or, with a selector, the element it names) is there: not an empty app root, not
   * only a spinner, skeleton or "Loading…" placeholder, not empty while the page has scripts to fill it.
   */
  function contentReady(selector) {
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
    if (!root) return false;
    if (!selector) {
      for (const id of APP_ROOTS) {
        const el = document.getElementById(id);
        if (el && !(el.textContent || '').trim() && !el.querySelector('img,svg,canvas,video')) return false;
      }
    }
    if (!selector && textSize() > SURELY_CONTENT_CHARS) return true;
    const text = mainText(root, !selector);
    if (PLACEHOLDER_TEXT.test(text)) return false;
    if (text.length < SHORT_MAIN_CHARS && indicatorShown(root)) return false;
    if (text === '') return selector ? false : document.scripts.length === 0;
    return true;
  }
  return { contentReady, textSize };
})
