// @ts-check
/// <reference lib="dom" />
// Init script (runs in every frame before any page script): remembers closed shadow roots as they are created,
// so the snapshot can serialize them. An open root is reachable as element.shadowRoot; a closed one only through
// the object attachShadow() returned, which this wrapper keeps in a WeakMap (no leak, no page-visible property
// on the host). The map is reachable only through a non-enumerable global whose name holds a per-render nonce.
// Roots created by the HTML parser from <template shadowrootmode="closed"> never pass through attachShadow and
// stay out of reach (documented limitation).
(/** @param {string} key */ function trawlShadowCapture(key) {
  'use strict';
  if (Object.prototype.hasOwnProperty.call(window, key)) return;
  /** @type {WeakMap<Element, ShadowRoot>} */
  const roots = new WeakMap();
  const original = Element.prototype.attachShadow;
  if (typeof original !== 'function') return;
  const wrapped = {
    /**
     * @this {Element}
     * @param {ShadowRootInit} init
     */
    attachShadow(init) {
      const root = original.call(this, init);
      if (init && init.mode === 'closed') roots.set(this, root);
      return root;
    },
  }.attachShadow;
  Object.defineProperty(Element.prototype, 'attachShadow', { value: wrapped, writable: true, configurable: true, enumerable: false });
  Object.defineProperty(window, key, { value: () => roots, writable: false, configurable: false, enumerable: false });
})
