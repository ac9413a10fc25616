// @ts-check
/// <reference lib="dom" />
// Runs inside one frame: optionally scrolls a virtualized list and collects its rows, then serializes the
// frame's DOM as HTML. Kept as plain text (read by page-scripts.ts) so that no transpiler output reaches the page.
//
// arg: {
//   shadowKey: string | null      name of the closed-root map installed by shadow-capture.js; null = no flattening
//   frames: Element[]             child <iframe>/<frame> elements, replaced by <!--{placeholder}{index}--> comments
//   placeholder: string           per-render nonce prefix of those comments
//   bodyOnly: boolean             only the body's content (an inlined child frame)
//   virtualScroll: { selector, count, budgetMs } | null
// }
// returns { html: string, virtualScroll: { found, scrolls, rows } | null }
/**
 * The argument as the page gets it: page-scripts.ts's SnapshotArg, its frames resolved to elements.
 * @typedef {Omit<import('../page-scripts.ts').SnapshotArg, 'frames'> & { frames: (Element | null)[] }} Arg
 * @typedef {NonNullable<Arg['virtualScroll']>} VirtualScrollConfig
 * @typedef {import('../page-scripts.ts').SnapshotResult} Result
 */
(/** @param {Arg} arg @returns {Promise<Result>} */ async function trawlSnapshot(arg) {
  'use strict';
  const HTML_NS = 'http://www.w3.org/1999/xhtml';
  const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr', 'param', 'keygen']);
  // Never content, or raw text we would have to re-escape: left out of the snapshot.
  const DROP = new Set(['script', 'style', 'noscript', 'template', 'noembed', 'noframes']);
  // Raw-text elements whose text, once escaped, would show entities: written as <pre>.
  const AS_PRE = new Set(['xmp', 'plaintext', 'listing']);
  const URL_ATTRS = new Set(['href', 'src', 'action', 'formaction', 'poster', 'cite', 'data', 'background', 'longdesc', 'xlink:href']);
  // Row identity, in order of preference: an attribute every row of the first window carries. Index-like ones
  // (the first five) also give the order.
  const KEY_ATTRS = ['aria-rowindex', 'aria-posinset', 'data-index', 'data-row-index', 'data-item-index', 'data-key', 'data-row-key', 'data-id', 'id'];
  /** @type {ReadonlySet<string | null | undefined>} */
  const INDEX_ATTRS = new Set(KEY_ATTRS.slice(0, 5));

  /** @type {WeakMap<Element, ShadowRoot> | null} The map of shadow-capture.js, when it ran in this frame. */
  const closedRoots = arg.shadowKey && typeof Reflect.get(window, arg.shadowKey) === 'function' ? Reflect.get(window, arg.shadowKey)() : null;
  const flatten = arg.shadowKey !== null;
  /** @type {Map<Element, number>} */
  const frameIndex = new Map();
  arg.frames.forEach((el, i) => {
    if (el) frameIndex.set(el, i);
  });
  const base = document.baseURI;

  /** @param {string} s */
  function escText(s) {
    return s.replace(/[&<>\u00a0]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&nbsp;'));
  }
  /** @param {string} s */
  function escAttr(s) {
    return s.replace(/[&"<>\u00a0]/g, (c) => (c === '&' ? '&amp;' : c === '"' ? '&quot;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&nbsp;'));
  }
  /** @param {string} value */
  function absolute(value) {
    const v = value.trim();
    if (v === '' || v.startsWith('#')) return value;
    try {
      return new URL(v, base).href;
    } catch {
      return value;
    }
  }
  /** @param {string} value */
  function absoluteSrcset(value) {
    return value
      .split(',')
      .map((part) => {
        const bits = part.trim().split(/\s+/);
        if (bits[0]) bits[0] = absolute(bits[0]);
        return bits.join(' ');
      })
      .join(', ');
  }
  /** @param {Element} el */
  function attrs(el) {
    let out = '';
    for (const a of Array.from(el.attributes)) {
      const name = a.name;
      // Event handlers are never content; odd names (set through setAttribute) could break the markup.
      if (/^on/i.test(name) || !/^[^\s"'<>\/=\u0000-\u001f\u007f]+$/.test(name)) continue;
      const lower = name.toLowerCase();
      const value = URL_ATTRS.has(lower) ? absolute(a.value) : lower === 'srcset' ? absoluteSrcset(a.value) : a.value;
      out += ` ${name}="${escAttr(value)}"`;
    }
    return out;
  }
  /** @param {Element} el */
  function shadowOf(el) {
    if (!flatten) return null;
    return el.shadowRoot || (closedRoots && closedRoots.get(el)) || null;
  }

  // Set once a virtual scroll ran: the rows, and the element holding them (null: the list left the page). A
  // property, not a variable, so the type checker sees that virtualScroll() may have set it.
  const scrolled = {
    /** @type {{ parent: Element | null, html: string[] } | null} */
    rows: null,
  };

  /**
   * Text or CDATA.
   * @param {Node} node
   * @returns {node is CharacterData}
   */
  const isText = (node) => node.nodeType === 3 || node.nodeType === 4;
  /**
   * @param {Node} node
   * @returns {node is Element}
   */
  const isElement = (node) => node.nodeType === 1;
  /**
   * @param {Element} el
   * @returns {el is HTMLSlotElement}
   */
  const isHtmlSlot = (el) => el.namespaceURI === HTML_NS && el.localName === 'slot';

  /**
   * @param {Element} parent
   * @param {string[]} out
   */
  function writeChildren(parent, out) {
    const root = parent.nodeType === 1 ? shadowOf(parent) : null;
    for (const child of Array.from((root || parent).childNodes)) writeNode(child, out);
  }
  /**
   * @param {Node} node
   * @param {string[]} out
   */
  function writeNode(node, out) {
    if (isText(node)) out.push(escText(node.data));
    else if (isElement(node)) writeElement(node, out);
    // Comments, processing instructions and doctypes inside the tree are dropped: our placeholders are the only comments.
  }
  /**
   * @param {HTMLSlotElement} slot
   * @param {string[]} out
   */
  function writeSlot(slot, out) {
    // A slot renders what is assigned to it, else its own fallback content; nested slots resolve the same way.
    const assigned = slot.assignedNodes();
    for (const n of assigned.length > 0 ? assigned : Array.from(slot.childNodes)) writeNode(n, out);
  }
  /**
   * @param {Element} el
   * @param {string[]} out
   */
  function writeElement(el, out) {
    const tag = el.localName;
    const html = el.namespaceURI === HTML_NS;
    if (html && DROP.has(tag)) return;
    if (flatten && isHtmlSlot(el)) return writeSlot(el, out);
    if (html && (tag === 'iframe' || tag === 'frame') && frameIndex.has(el)) {
      out.push(`<!--${arg.placeholder}${frameIndex.get(el)}-->`);
      return;
    }
    const name = html && AS_PRE.has(tag) ? 'pre' : tag;
    out.push(`<${name}${attrs(el)}>`);
    if (html && VOID.has(tag)) return;
    if (scrolled.rows && el === scrolled.rows.parent) out.push(scrolled.rows.html.join(''));
    else writeChildren(el, out);
    out.push(`</${name}>`);
  }
  /** @param {Element} el */
  function serialize(el) {
    /** @type {string[]} */
    const out = [];
    writeElement(el, out);
    return out.join('');
  }

  // ---- virtual scroll -------------------------------------------------------------------------------------
  /** @param {Element} el */
  function isRow(el) {
    if (el.namespaceURI === HTML_NS && DROP.has(el.localName)) return false;
    // Spacers that give the list its height are empty boxes; they are not rows.
    return el.textContent.trim() !== '' || el.querySelector('img,svg,video,picture,canvas,iframe,input') !== null;
  }
  /**
   * The element holding the rows: the shallowest one with at least half as many children as the busiest.
   * @param {Element} container
   */
  function rowParentOf(container) {
    /** @type {Element[][]} */
    const levels = [];
    let frontier = [container];
    for (let depth = 0; depth < 6 && frontier.length > 0 && frontier.length < 2000; depth++) {
      levels.push(frontier);
      frontier = frontier.flatMap((e) => Array.from(e.children));
    }
    let most = 0;
    for (const level of levels) for (const e of level) most = Math.max(most, e.childElementCount);
    const enough = Math.max(2, Math.ceil(most / 2));
    for (const level of levels) for (const e of level) if (e.childElementCount >= enough) return e;
    return container;
  }
  /** @param {number} ms */
  function sleep(ms) {
    return new Promise((r) => setTimeout(r, ms));
  }
  /**
   * Waits until the list stopped changing after a scroll: two frames (a list repaints in the frame that delivers
   * the scroll event), then 50 ms without mutations, at most 1 s. Quiet counts from the second frame, never from
   * the scroll: on a loaded machine frames come late. A list known to repaint on scroll (`expectChange`) is waited
   * for until it does, up to 500 ms, since many repaint on a debounce timer well after the 50 ms; a list read before
   * its repaint loses the rows it was about to show. Those 500 ms count from the second frame too: a debounce timer
   * starts when the scroll event is delivered, and under load that frame itself comes late. Resolves whether the
   * list changed.
   * @param {Node} target
   * @param {number} deadline
   * @param {boolean} expectChange
   * @returns {Promise<boolean>}
   */
  function settle(target, deadline, expectChange) {
    return new Promise((resolve) => {
      let start = performance.now();
      let last = start;
      let changed = false;
      const observer = new MutationObserver(() => {
        last = performance.now();
        changed = true;
      });
      observer.observe(target, { childList: true, subtree: true, attributes: true, characterData: true });
      let started = false;
      const tick = () => {
        const now = performance.now();
        const waitingForRepaint = expectChange && !changed && now - start < 500;
        if ((now - last >= 50 && !waitingForRepaint) || now - start >= 1000 || Date.now() >= deadline) {
          observer.disconnect();
          resolve(changed);
        } else setTimeout(tick, 16);
      };
      const begin = () => {
        if (started) return;
        started = true;
        start = performance.now();
        last = Math.max(last, start);
        tick();
      };
      requestAnimationFrame(() => requestAnimationFrame(begin));
      setTimeout(begin, 1000); // rAF does not run in a hidden page
    });
  }

  /** @param {VirtualScrollConfig} cfg */
  async function virtualScroll(cfg) {
    const deadline = Date.now() + cfg.budgetMs;
    let container = null;
    try {
      container = document.querySelector(cfg.selector);
    } catch {
      container = null;
    }
    if (!container) return { found: false, scrolls: 0, rows: 0 };
    const doc = container === document.documentElement || container === document.body || container === document.scrollingElement;
    const scroller = doc ? document.scrollingElement || document.documentElement : container;
    /** @type {Map<string, { html: string, top: number, left: number, index: number | null, seq: number }>} */
    const rows = new Map();
    /** @type {string | null | undefined} Undefined until the first window shows which attribute, if any, keys the rows. */
    let keyAttr;
    let seq = 0;
    let parent = container;

    const collect = () => {
      parent = rowParentOf(container);
      const items = Array.from(parent.children).filter(isRow);
      if (keyAttr === undefined && items.length > 0) keyAttr = KEY_ATTRS.find((k) => items.every((e) => e.hasAttribute(k))) || null;
      const originTop = doc ? -window.scrollY : scroller.getBoundingClientRect().top - scroller.scrollTop;
      const originLeft = doc ? -window.scrollX : scroller.getBoundingClientRect().left - scroller.scrollLeft;
      for (const el of items) {
        const box = el.getBoundingClientRect();
        const top = Math.round(box.top - originTop);
        const left = Math.round(box.left - originLeft);
        const keyValue = keyAttr ? el.getAttribute(keyAttr) : null;
        // Identity: the key attribute's value, else where the row sits in the list's own coordinates. Never the
        // text, so two rows that read the same stay two rows.
        const key = keyValue !== null ? `k:${keyValue}` : `p:${top}:${left}`;
        const index = keyValue !== null && INDEX_ATTRS.has(keyAttr) && /^-?\d+$/.test(keyValue.trim()) ? Number(keyValue) : null;
        const previous = rows.get(key);
        // The latest rendering of a row wins (it may have finished loading since), the first sighting keeps its place.
        rows.set(key, { html: serialize(el), top, left, index, seq: previous ? previous.seq : seq++ });
      }
    };

    collect();
    let scrolls = 0;
    // Whether this list repaints when scrolled: unknown until the first scroll shows it.
    let repaints = null;
    for (let i = 0; i < cfg.count && Date.now() < deadline; i++) {
      const before = scroller.scrollTop;
      const step = Math.max(1, doc ? window.innerHeight : scroller.clientHeight);
      scroller.scrollTop = before + step;
      const changed = await settle(container, deadline, repaints !== false);
      if (changed) repaints = true;
      else if (repaints === null) repaints = false;
      if (scroller.scrollTop <= before + 0.5) {
        // At the end. A list that loads more on reaching the bottom gets one chance to grow.
        await sleep(Math.min(300, Math.max(0, deadline - Date.now())));
        scroller.scrollTop = before + step;
        await settle(container, deadline, false);
        if (scroller.scrollTop <= before + 0.5) break;
      }
      scrolls++;
      collect();
    }

    const ordered = Array.from(rows.values()).sort((a, b) =>
      a.index !== null && b.index !== null ? a.index - b.index || a.seq - b.seq : a.top - b.top || a.left - b.left || a.seq - b.seq,
    );
    const parentNow = container.isConnected ? rowParentOf(container) : null;
    scrolled.rows = { parent: parentNow, html: ordered.map((r) => r.html) };
    return { found: true, scrolls, rows: ordered.length };
  }

  // ---- main ------------------------------------------------------------------------------------------------
  const vs = arg.virtualScroll ? await virtualScroll(arg.virtualScroll) : null;
  /** @type {string[]} */
  const out = [];
  const root = document.documentElement;
  if (arg.bodyOnly) {
    const body = document.body || root;
    if (body) writeChildren(body, out);
  } else {
    out.push('<!DOCTYPE html>');
    if (root) writeElement(root, out);
  }
  let html = out.join('');
  if (scrolled.rows && scrolled.rows.parent === null && scrolled.rows.html.length > 0) {
    // The list left the page after scrolling: its rows are kept, at the end of the body.
    const rowsHtml = `<div data-trawl-virtual-rows="">${scrolled.rows.html.join('')}</div>`;
    html = html.includes('</body>') ? html.replace(/<\/body>(?![\s\S]*<\/body>)/, () => `${rowsHtml}</body>`) : html + rowsHtml;
  }
  return { html, virtualScroll: vs, readyState: document.readyState };
})
