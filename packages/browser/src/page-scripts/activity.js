// @ts-check
/// <reference lib="dom" />
// Init script (runs in every frame before any page script): watches what the page still has in hand, so the
// render can read it when its content is there and holding still (settle.ts decides; settle-policy.ts says how).
// It keeps: the time of the last DOM change; the visible-text size and the last time it grew; the page's pending
// timers, idle callbacks and animation frames, each tied to its callback so that a callback that has already run
// without adding text (a clock tick, a carousel step, an animation loop) no longer counts as work to wait for;
// and whether the page reacts to scrolling (IntersectionObserver targets, scroll listeners), which decides the
// lazy-content scan. Whether the content is there at all is content-ready.js's judgement (`readiness`), asked when
// the render looks. Wrappers are Proxies of the originals, so they keep their names and native toString.
// Everything is reachable only through a non-enumerable global whose name holds a per-render nonce.
/**
 * A callback's record: how often it ran, and whether text grew right after its last run.
 * @typedef {{ fires: number, grew: boolean }} Rec
 */
/**
 * A fetch or XHR the page started (`fresh`: its endpoint had not answered before).
 * @typedef {{ endpoint: string, start: number, lastData: number, fresh: boolean }} Request
 */
(/**
 * @param {string} key
 * @param {import('./content-ready.js').Readiness} readiness
 */ function trawlActivity(key, readiness) {
  'use strict';
  if (Object.prototype.hasOwnProperty.call(window, key)) return;
  const now = () => performance.now();
  const GROW_MIN_CHARS = 8;
  const GROW_RATIO = 0.005;
  const ATTRIBUTION_MS = 60;
  const MEASURE_EVERY_MS = 16;
  const READY_EVERY_MS = 60;

  const original = {
    /** @type {Window['setTimeout']} The DOM's (ids are numbers), not Node's, whose types the checker also sees. */
    setTimeout: window.setTimeout,
    clearTimeout: window.clearTimeout,
    setInterval: window.setInterval,
    clearInterval: window.clearInterval,
    raf: window.requestAnimationFrame,
    caf: window.cancelAnimationFrame,
    ric: window.requestIdleCallback,
    cic: window.cancelIdleCallback,
  };
  /**
   * @param {object} obj
   * @param {PropertyKey} name
   * @param {unknown} value
   */
  const define = (obj, name, value) => Object.defineProperty(obj, name, { value, writable: true, configurable: true, enumerable: false });
  const start = now();
  const s = {
    lastMutation: start,
    lastGrowth: start,
    lastBlockingFire: -Infinity,
    inTick: false,
    base: 0,
    measuredAt: -Infinity,
    /** @type {boolean | null} */
    ready: null,
    thin: true,
    shown: false,
    readyAt: -Infinity,
    /** @type {string | null} */
    readyFor: null,
    dirty: true,
    framesSinceGrowth: 0,
    lazy: 0,
    /**
     * The callback record whose task is running (until the microtasks after it), else null.
     * @type {Rec | null}
     */
    running: null,
  };
  /**
   * Pending timers and idle callbacks: id -> {due, rec}. Animation frames: id -> rec.
   * @type {Map<number, { due: number, rec: Rec }>}
   */
  const timers = new Map();
  /** @type {Map<number, { due: number, rec: Rec }>} */
  const idles = new Map();
  /** @type {Map<number, Rec>} */
  const frames = new Map();
  /**
   * Per callback: how often it ran and whether text grew right after its last run.
   * @type {WeakMap<Function, Rec>}
   */
  const recs = new WeakMap();
  /** @type {{ rec: Rec, t: number }[]} */
  let recent = [];
  /** @param {Function} fn */
  const recOf = (fn) => {
    let r = recs.get(fn);
    if (!r) recs.set(fn, (r = { fires: 0, grew: false }));
    return r;
  };
  /** @param {Rec} rec */
  const blocking = (rec) => rec.fires === 0 || rec.grew;
  /**
   * Runs a timer, idle or frame callback, noting when it ran. A callback that has already run without adding text
   * is a tick (a clock, a carousel, an animation loop): the DOM changes it makes at once do not count as changes
   * worth waiting out (they are delivered to the MutationObserver before the microtask queued after it).
   * @param {Rec} rec
   * @param {Function} cb
   * @param {unknown} self
   * @param {ArrayLike<unknown>} args
   */
  const run = (rec, cb, self, args) => {
    const t = now();
    const tick = !blocking(rec);
    if (!tick) s.lastBlockingFire = t;
    rec.fires++;
    rec.grew = false;
    recent.push({ rec, t });
    if (recent.length > 64) recent = recent.filter((x) => t - x.t <= ATTRIBUTION_MS);
    s.inTick = tick;
    s.running = rec;
    try {
      return cb.apply(self, args);
    } finally {
      queueMicrotask(() => {
        s.inTick = false;
        s.running = null;
      });
    }
  };

  /**
   * Shadow roots the page attached (open and closed): their text counts, and their changes are watched.
   * @type {ShadowRoot[]}
   */
  const shadowRoots = [];
  const MAX_SHADOW_ROOTS = 2000;

  /** @param {number} t */
  function measure(t) {
    s.measuredAt = t;
    const n = readiness.textSize(shadowRoots);
    if (n >= s.base + Math.max(GROW_MIN_CHARS, s.base * GROW_RATIO)) {
      s.base = n;
      s.lastGrowth = t;
      s.lastMutation = t;
      s.framesSinceGrowth = 0;
      for (const x of recent) if (t - x.t <= ATTRIBUTION_MS) x.rec.grew = true;
      // The callback whose task made the change is owed it whatever the clock says (a renderer starved of CPU
      // mid-callback once made a chunk timer look like a clock tick, and the last chunk went unwaited).
      if (s.running !== null) s.running.grew = true;
    }
  }
  const observer = new MutationObserver(() => {
    const t = now();
    if (!s.inTick) s.lastMutation = t;
    s.dirty = true;
    // Measured at once while a callback that just ran may be owed the growth (else its next run goes unwaited).
    const owed = s.running !== null || (recent.length > 0 && t - recent[recent.length - 1].t <= ATTRIBUTION_MS);
    if (owed || t - s.measuredAt >= MEASURE_EVERY_MS) measure(t);
    if (waiter !== null) recheckSoon();
  });
  const OBSERVED = { childList: true, subtree: true, characterData: true };
  observer.observe(document, OBSERVED);
  // Content a page draws inside shadow roots (web components) is content too: a MutationObserver on the document
  // does not see into them, so each root the page attaches is observed as it is created.
  if (typeof Element.prototype.attachShadow === 'function') {
    define(
      Element.prototype,
      'attachShadow',
      new Proxy(Element.prototype.attachShadow, {
        apply(target, self, args) {
          const root = Reflect.apply(target, self, args);
          if (shadowRoots.length < MAX_SHADOW_ROOTS) {
            shadowRoots.push(root);
            observer.observe(root, OBSERVED);
          }
          return root;
        },
      }),
    );
  }

  // look(): the render's one question per wait. It waits in the page (no round trip per tick) until the time the
  // render asked for has passed or, if the content was not there, until it is (checked after DOM changes, at most
  // every READY_EVERY_MS) or the document has loaded.
  /** @type {(() => void) | null} */
  let waiter = null;
  /** @type {number | null} */
  let recheck = null;
  function recheckSoon() {
    if (recheck !== null) return;
    recheck = original.setTimeout.call(window, () => {
      recheck = null;
      if (waiter === null) return;
      refreshReady(now(), s.readyFor);
      if (s.ready && document.readyState === 'complete') waiter();
    }, READY_EVERY_MS);
  }

  /**
   * @param {Function} fn0
   * @param {boolean} repeat
   */
  const wrapTimer = (fn0, repeat) =>
    new Proxy(fn0, {
      apply(target, self, args) {
        const cb = args[0];
        if (typeof cb !== 'function') return Reflect.apply(target, self, args);
        const delay = Math.max(0, Number(args[1]) || 0);
        const rec = recOf(cb);
        /** @type {number} */
        let id;
        args[0] = function () {
          if (repeat) {
            const e = timers.get(id);
            if (e) e.due = now() + delay;
          } else timers.delete(id);
          return run(rec, cb, this, arguments);
        };
        id = Reflect.apply(target, self, args);
        timers.set(id, { due: now() + delay, rec });
        return id;
      },
    });
  /**
   * @param {Function} fn0
   * @param {Map<number, unknown>} map
   */
  const wrapClear = (fn0, map) =>
    new Proxy(fn0, {
      apply(target, self, args) {
        map.delete(args[0]);
        return Reflect.apply(target, self, args);
      },
    });
  define(window, 'setTimeout', wrapTimer(original.setTimeout, false));
  define(window, 'setInterval', wrapTimer(original.setInterval, true));
  define(window, 'clearTimeout', wrapClear(original.clearTimeout, timers));
  define(window, 'clearInterval', wrapClear(original.clearInterval, timers));
  if (typeof original.raf === 'function') {
    define(
      window,
      'requestAnimationFrame',
      new Proxy(original.raf, {
        apply(target, self, args) {
          const cb = args[0];
          if (typeof cb !== 'function') return Reflect.apply(target, self, args);
          const rec = recOf(cb);
          /** @type {number} */
          let id;
          /** @param {DOMHighResTimeStamp} ts */
          args[0] = function (ts) {
            frames.delete(id);
            s.framesSinceGrowth++;
            return run(rec, cb, this, [ts]);
          };
          id = Reflect.apply(target, self, args);
          frames.set(id, rec);
          return id;
        },
      }),
    );
    define(window, 'cancelAnimationFrame', wrapClear(original.caf, frames));
  }
  if (typeof original.ric === 'function') {
    define(
      window,
      'requestIdleCallback',
      new Proxy(original.ric, {
        apply(target, self, args) {
          const cb = args[0];
          if (typeof cb !== 'function') return Reflect.apply(target, self, args);
          const rec = recOf(cb);
          const timeout = args[1] && Number(args[1].timeout) > 0 ? Number(args[1].timeout) : 50;
          /** @type {number} */
          let id;
          /** @param {IdleDeadline} deadline */
          args[0] = function (deadline) {
            idles.delete(id);
            return run(rec, cb, this, [deadline]);
          };
          id = Reflect.apply(target, self, args);
          idles.set(id, { due: now() + timeout, rec });
          return id;
        },
      }),
    );
    define(window, 'cancelIdleCallback', wrapClear(original.cic, idles));
  }
  if (typeof IntersectionObserver === 'function') {
    const observe = IntersectionObserver.prototype.observe;
    define(
      IntersectionObserver.prototype,
      'observe',
      new Proxy(observe, {
        apply(target, self, args) {
          s.lazy++;
          return Reflect.apply(target, self, args);
        },
      }),
    );
  }
  // Work a scheduler posts through a MessageChannel (React's scheduler does, as do setImmediate polyfills): like a
  // timer due now, a message posted to a port of this page and not yet handled is work to wait for, until its
  // handler has once run without adding text. Counted, not timed, so a renderer starved of CPU between two slices
  // does not look quiet. A message whose port went elsewhere (a worker) stops counting after holdMs.
  /** @type {WeakMap<MessagePort, MessagePort>} */
  const partners = new WeakMap();
  /** @type {WeakMap<MessagePort, Rec>} */
  const portRecs = new WeakMap();
  /** @type {WeakMap<Function, Function>} */
  const handlers = new WeakMap();
  /** @type {{ t: number, to: MessagePort }[]} */
  let posted = [];
  const MAX_POSTED = 1000;
  const MESSAGE_HOLD_MS = 1000;
  if (typeof MessageChannel === 'function' && typeof MessagePort === 'function') {
    define(
      window,
      'MessageChannel',
      new Proxy(MessageChannel, {
        construct(target, args, newTarget) {
          const ch = Reflect.construct(target, args, newTarget);
          partners.set(ch.port1, ch.port2);
          partners.set(ch.port2, ch.port1);
          return ch;
        },
      }),
    );
    define(
      MessagePort.prototype,
      'postMessage',
      new Proxy(MessagePort.prototype.postMessage, {
        apply(target, self, args) {
          const to = partners.get(self);
          if (to && posted.length < MAX_POSTED) posted.push({ t: now(), to });
          return Reflect.apply(target, self, args);
        },
      }),
    );
    const onmessage = Object.getOwnPropertyDescriptor(MessagePort.prototype, 'onmessage');
    const getOnmessage = onmessage && onmessage.get;
    const setOnmessage = onmessage && onmessage.set;
    if (onmessage && setOnmessage && getOnmessage) {
      Object.defineProperty(MessagePort.prototype, 'onmessage', {
        configurable: true,
        enumerable: onmessage.enumerable,
        get() {
          const h = getOnmessage.call(this);
          return (h && handlers.get(h)) || h;
        },
        /** @param {unknown} fn */
        set(fn) {
          setOnmessage.call(this, typeof fn === 'function' ? portHandler(this, fn) : fn);
        },
      });
    }
  }
  /**
   * The handler a port runs: takes the message off the pending list, and runs as a tick once it adds nothing.
   * @param {MessagePort} port
   * @param {Function} fn
   */
  function portHandler(port, fn) {
    const rec = recOf(fn);
    portRecs.set(port, rec);
    /**
     * @this {MessagePort}
     * @param {MessageEvent} ev
     */
    const wrapped = function (ev) {
      const i = posted.findIndex((p) => p.to === this);
      if (i >= 0) posted.splice(i, 1);
      return run(rec, fn, this, [ev]);
    };
    handlers.set(wrapped, fn);
    return wrapped;
  }
  /**
   * Whether a message posted to a port of this page waits to be handled by a handler still worth running.
   * @param {number} t
   */
  function messagesPending(t) {
    if (posted.length === 0) return false;
    posted = posted.filter((p) => t - p.t < MESSAGE_HOLD_MS);
    return posted.some((p) => {
      const rec = portRecs.get(p.to);
      return rec === undefined || blocking(rec);
    });
  }
  const listen = EventTarget.prototype.addEventListener;
  // fetch() and XHR as the page starts them: the browser's network events reach the render a moment later (long
  // enough, on a loaded machine, to read a page whose data request had just gone out).
  /** @type {Map<number, Request>} */
  const requests = new Map();
  /** @type {Set<string>} */
  const answered = new Set();
  let requestSeq = 0;
  let lastRequestStart = -Infinity;
  // The same key as endpointKey in network-activity.ts: cache-busting values (timestamps, random ids) do not make
  // a poll new; another page of results (?from=3) does.
  const VOLATILE = /^(\d{8,}|[0-9a-f-]{16,})$/i;
  /**
   * @param {string | undefined} method
   * @param {string | URL} url
   */
  const endpointOf = (method, url) => {
    try {
      const u = new URL(url, location.href);
      const q = Array.from(u.searchParams, ([k, v]) => `${k}=${VOLATILE.test(v) ? '*' : v}`).join('&');
      return `${String(method || 'GET').toUpperCase()} ${u.origin}${u.pathname}?${q}`;
    } catch (e) {
      return String(url);
    }
  };
  // When an answer to a new endpoint last reached the page (a fetch resolved, its body was read, an XHR ended): the
  // page applies that data next, however long its text has held still (a slow scan, a loaded machine).
  let lastNewAnswer = -Infinity;
  /** @param {string} endpoint */
  const track = (endpoint) => {
    const id = ++requestSeq;
    lastRequestStart = now();
    const entry = { endpoint, start: lastRequestStart, lastData: -Infinity, fresh: false };
    requests.set(id, entry);
    const done = () => {
      if (!requests.delete(id)) return;
      entry.fresh = !answered.has(endpoint);
      if (entry.fresh) lastNewAnswer = now();
      answered.add(endpoint);
    };
    done.entry = entry;
    return done;
  };
  // A fetch's body is read after its promise resolved (response.json()): until the read ends, the request is not
  // over for the page. Responses map to their request's entry.
  /** @type {WeakMap<Response, Request>} */
  const bodies = new WeakMap();
  let pendingBodies = 0;
  // Start times of pending reads of new endpoints' bodies: young ones count as young requests (a body that never
  // ends, like a stream read whole, stops counting after youngMs, as a long poll does).
  /** @type {Set<{ start: number }>} */
  const freshReads = new Set();
  /** @type {readonly ('json' | 'text' | 'arrayBuffer' | 'blob' | 'formData' | 'bytes')[]} */
  const BODY_READERS = ['json', 'text', 'arrayBuffer', 'blob', 'formData', 'bytes'];
  if (typeof Response === 'function') {
    for (const name of BODY_READERS) {
      if (typeof Response.prototype[name] !== 'function') continue;
      define(
        Response.prototype,
        name,
        new Proxy(Response.prototype[name], {
          apply(target, self, args) {
            const p = Reflect.apply(target, self, args);
            const entry = bodies.get(self);
            if (entry === undefined) return p;
            const read = entry.fresh ? { start: now() } : null;
            pendingBodies++;
            if (read) freshReads.add(read);
            const settled = () => {
              pendingBodies--;
              if (read) {
                freshReads.delete(read);
                lastNewAnswer = now();
              }
            };
            p.then(settled, settled);
            return p;
          },
        }),
      );
    }
  }
  // A response body the page reads as a stream (a live blog, a chat answer) is content still arriving: the request
  // that carried it has "answered" (its headers came) but its chunks keep coming. A read the page is waiting on,
  // with the last chunk younger than youngMs, counts as a young request; a stream silent for longer is a feed
  // that may never end (like an event stream) and holds nothing.
  let pendingReads = 0;
  let lastChunk = -Infinity;
  if (typeof ReadableStreamDefaultReader === 'function') {
    define(
      ReadableStreamDefaultReader.prototype,
      'read',
      new Proxy(ReadableStreamDefaultReader.prototype.read, {
        apply(target, self, args) {
          const p = Reflect.apply(target, self, args);
          pendingReads++;
          /** @param {ReadableStreamReadResult<unknown> | null} r */
          const settled = (r) => {
            pendingReads--;
            if (r && !r.done) lastChunk = now();
          };
          p.then(settled, () => settled(null));
          return p;
        },
      }),
    );
  }
  if (typeof window.fetch === 'function') {
    define(
      window,
      'fetch',
      new Proxy(window.fetch, {
        apply(target, self, args) {
          let endpoint = '';
          try {
            const req = args[0];
            const method = (args[1] && args[1].method) || (req && typeof req === 'object' && req.method) || 'GET';
            endpoint = endpointOf(method, req && typeof req === 'object' && 'url' in req ? req.url : req);
          } catch (e) {
            endpoint = '';
          }
          const done = track(endpoint);
          const p = Reflect.apply(target, self, args);
          p.then((/** @type {Response} */ res) => {
            done();
            if (res !== null && typeof res === 'object') bodies.set(res, done.entry);
          }, done);
          return p;
        },
      }),
    );
  }
  if (typeof XMLHttpRequest === 'function') {
    /** @type {WeakMap<XMLHttpRequest, string>} */
    const endpoints = new WeakMap();
    define(
      XMLHttpRequest.prototype,
      'open',
      new Proxy(XMLHttpRequest.prototype.open, {
        apply(target, self, args) {
          endpoints.set(self, endpointOf(args[0], args[1]));
          return Reflect.apply(target, self, args);
        },
      }),
    );
    define(
      XMLHttpRequest.prototype,
      'send',
      new Proxy(XMLHttpRequest.prototype.send, {
        apply(target, self, args) {
          const done = track(endpoints.get(self) || '');
          listen.call(self, 'loadend', done);
          // A response streamed to the page in parts (onprogress): each part is fresh data.
          listen.call(self, 'progress', () => {
            done.entry.lastData = now();
          });
          return Reflect.apply(target, self, args);
        },
      }),
    );
  }
  define(
    EventTarget.prototype,
    'addEventListener',
    new Proxy(listen, {
      apply(target, self, args) {
        if ((args[0] === 'scroll' || args[0] === 'wheel') && (self === window || self === document)) s.lazy++;
        if (args[0] === 'message' && typeof args[1] === 'function' && partners.has(self)) args[1] = listenerFor(self, args[1]);
        return Reflect.apply(target, self, args);
      },
    }),
  );
  // A port's message listener is wrapped (see portHandler); removing it removes the wrapper.
  /** @type {WeakMap<Function, Function>} */
  const listeners = new WeakMap();
  /**
   * @param {MessagePort} port
   * @param {Function} fn
   */
  function listenerFor(port, fn) {
    let w = listeners.get(fn);
    if (!w) listeners.set(fn, (w = portHandler(port, fn)));
    return w;
  }
  define(
    EventTarget.prototype,
    'removeEventListener',
    new Proxy(EventTarget.prototype.removeEventListener, {
      apply(target, self, args) {
        if (args[0] === 'message' && typeof args[1] === 'function' && listeners.has(args[1])) args[1] = listeners.get(args[1]);
        return Reflect.apply(target, self, args);
      },
    }),
  );


  /**
   * @param {number} t
   * @param {string | null} sel
   */
  function refreshReady(t, sel) {
    const j = readiness.judge(sel, shadowRoots);
    s.ready = document.readyState === 'loading' ? false : j.ready;
    s.thin = j.thin;
    s.shown = j.shown;
    s.readyAt = t;
    s.readyFor = sel;
    s.dirty = false;
  }
  /**
   * @param {string | null} selector
   * @param {number} youngMs
   * @param {number} waitMs
   */
  function look(selector, youngMs, waitMs) {
    if (!(waitMs > 0)) return probe(selector, youngMs);
    return new Promise((resolve) => {
      const done = () => {
        if (waiter !== done) return;
        waiter = null;
        original.clearTimeout.call(window, timer);
        resolve(probe(selector, youngMs));
      };
      const timer = original.setTimeout.call(window, done, waitMs);
      waiter = done;
      if (s.ready === false || document.readyState !== 'complete') recheckSoon();
    });
  }
  listen.call(window, 'load', () => {
    if (waiter !== null) recheckSoon();
  });
  /**
   * ms until a <meta http-equiv="refresh"> sends the page elsewhere (the reader will see that page, not this one);
   * null when there is none, or it only reloads this page (a live score board).
   * @param {number} t
   */
  function refreshDueIn(t) {
    const meta = document.querySelector('meta[http-equiv="refresh" i]');
    if (!meta) return null;
    const m = /^\s*(\d+(?:\.\d*)?)\s*(?:[;,]\s*(?:url\s*=\s*)?['"]?([^'"]*))?/i.exec(meta.getAttribute('content') || '');
    if (!m || !m[2] || !m[2].trim()) return null;
    let target;
    try {
      target = new URL(m[2].trim(), location.href);
    } catch (e) {
      return null;
    }
    if (target.href.split('#')[0] === location.href.split('#')[0]) return null;
    // The refresh counts from when the document finished loading.
    const nav = performance.getEntriesByType('navigation')[0];
    const loaded = isNavigation(nav) && nav.loadEventEnd > 0 ? nav.loadEventEnd : t;
    return Math.max(0, loaded + Number(m[1]) * 1000 - t);
  }
  /**
   * The document's navigation entry (every entry getEntriesByType('navigation') gives is one).
   * @param {PerformanceEntry | undefined} entry
   * @returns {entry is PerformanceNavigationTiming}
   */
  function isNavigation(entry) {
    return entry !== undefined && entry.entryType === 'navigation';
  }
  /**
   * @param {string | null} selector
   * @param {number} youngMs
   */
  function probe(selector, youngMs) {
    const t = now();
    if (s.dirty && t - s.measuredAt >= MEASURE_EVERY_MS) measure(t);
    const sel = selector || null;
    if (s.ready === null || sel !== s.readyFor || (s.dirty && t - s.readyAt >= READY_EVERY_MS)) refreshReady(t, sel);
    let timerDueIn = Infinity;
    for (const map of [timers, idles]) for (const e of map.values()) if (blocking(e.rec)) timerDueIn = Math.min(timerDueIn, e.due - t);
    if (messagesPending(t)) timerDueIn = Math.min(timerDueIn, 0);
    let fetching = false;
    let fetchingNew = false;
    for (const r of requests.values()) {
      fetching = true;
      if ((t - r.start < youngMs && !answered.has(r.endpoint)) || t - r.lastData < youngMs) fetchingNew = true;
    }
    if (pendingReads > 0 && t - lastChunk < youngMs) {
      fetching = true;
      fetchingNew = true;
    }
    if (pendingBodies > 0) fetching = true;
    for (const read of freshReads) if (t - read.start < youngMs) fetchingNew = true;
    const doc = document.documentElement;
    return {
      readyState: document.readyState,
      ready: s.ready,
      thin: s.thin,
      shown: s.shown,
      navigationDueIn: refreshDueIn(t),
      sinceMutation: t - s.lastMutation,
      sinceGrowth: t - s.lastGrowth,
      sinceBlockingFire: t - s.lastBlockingFire,
      sinceRequest: t - lastRequestStart,
      sinceNewAnswer: t - lastNewAnswer,
      fetching,
      fetchingNew,
      timerDueIn: timerDueIn === Infinity ? null : Math.max(0, timerDueIn),
      framesPending: frames.size,
      framesSinceGrowth: s.framesSinceGrowth,
      lazy: s.lazy > 0,
      scrollable: !!doc && doc.scrollHeight > window.innerHeight * 1.2,
      maxScroll: doc ? Math.max(0, doc.scrollHeight - window.innerHeight) : 0,
    };
  }

  // One rendering update after the scroll: scroll events are dispatched and intersections computed in it (before
  // any task queued from its animation-frame callbacks runs), so the next step cannot hide this position from them.
  const frame = () =>
    new Promise((resolve) => original.raf.call(window, () => original.setTimeout.call(window, resolve, 0)));
  /**
   * Scrolls down a screen at a time from `arg.from` (one rendering update each, so IntersectionObservers and
   * scroll handlers see every position), then back to the top. Resolves with the screens scrolled and the lowest
   * offset reached.
   * @param {{ from?: number, budgetMs: number, maxSteps: number }} arg
   */
  async function scan(arg) {
    const end = now() + arg.budgetMs;
    let steps = 0;
    let y = Math.max(0, arg.from || 0);
    window.scrollTo(0, y);
    // Handlers see the starting position too: on a page that grew by less than a screen since the last scan, it is
    // the new bottom, and without a rendering update there a scroll listener never saw it (its next part unasked).
    await frame();
    while (steps < arg.maxSteps && now() < end) {
      const doc = document.documentElement;
      if (!doc || y + window.innerHeight >= doc.scrollHeight) break;
      y += Math.max(200, Math.floor(window.innerHeight * 0.85));
      window.scrollTo(0, y);
      steps++;
      await frame();
    }
    // Where the window really got to (a step past the end is clamped): growth beyond it asks for another scan.
    const reached = window.scrollY;
    window.scrollTo(0, 0);
    await frame();
    return { steps, y: reached };
  }

  /**
   * Resolves true as soon as `selector` matches in this document (light DOM), false after timeoutMs.
   * @param {string} selector
   * @param {number} timeoutMs
   */
  function waitFor(selector, timeoutMs) {
    const match = () => {
      try {
        return document.querySelector(selector) !== null;
      } catch (e) {
        return false;
      }
    };
    if (match()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const mo = new MutationObserver(() => {
        if (!match()) return;
        mo.disconnect();
        original.clearTimeout.call(window, timer);
        resolve(true);
      });
      mo.observe(document, { childList: true, subtree: true, attributes: true });
      const timer = original.setTimeout.call(window, () => {
        mo.disconnect();
        resolve(match());
      }, timeoutMs);
    });
  }

  Object.defineProperty(window, key, { value: { look, scan, waitFor }, writable: false, configurable: false, enumerable: false });
})
