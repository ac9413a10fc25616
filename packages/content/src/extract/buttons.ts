import { isElement, textContent, type DomElement, type DomNode } from '../dom.ts';
import { collapse } from '../text.ts';

// What a page's buttons say before prepare-page.ts drops them as controls: a section's title drawn as its
// open/close button (read as text instead), or a buy button (a sign of one product's page, see page-hints.ts).

const HEADING = /^h[1-6]$/;
// How far into a button a heading is looked for (its first few descendants).
const TOGGLE_SEARCH_NODES = 12;

/**
 * A button that opens and closes a section and carries its title: inside a heading, holding one, or an expander
 * (aria-expanded) that asks a question. Other buttons ("Add to cart", "Copy") are controls, not text.
 */
export function isSectionToggle(el: DomElement): boolean {
  if (isInHeading(el)) return true;
  // Breadth-first over the first few descendants (an element may have any number of children: no spreading).
  const queue: DomNode[] = el.children.slice(0, TOGGLE_SEARCH_NODES);
  for (let seen = 0; seen < queue.length && seen < TOGGLE_SEARCH_NODES; seen++) {
    const node = queue[seen];
    if (!isElement(node)) continue;
    if (HEADING.test(node.name)) return true;
    for (let i = 0; i < node.children.length && queue.length < TOGGLE_SEARCH_NODES; i++) queue.push(node.children[i]);
  }
  return el.attribs['aria-expanded'] !== undefined && textContent(el).trimEnd().endsWith('?');
}

export function isInHeading(el: DomElement): boolean {
  const up = el.parent;
  return up !== null && isElement(up) && HEADING.test(up.name);
}

// A control that puts the item in a cart or buys it, by its id or name or by what it says (the usual shop
// languages). Words, not a site's names.
const PURCHASE_NAME = /add[-_]?to[-_]?(cart|basket|bag|trolley)|addto(cart|basket|bag)|buy[-_]?now/i;
const PURCHASE_TEXT = /^(add to (cart|basket|bag|trolley)|buy( it)? now|in den (warenkorb|einkaufswagen)|ajouter au panier|añadir al carrito|aggiungi al carrello|adicionar ao carrinho|in winkelwagen|dodaj do koszyka|lägg i varukorgen)$/i;
const PURCHASE_TEXT_CHARS = 40;

export function isPurchaseControl(el: DomElement): boolean {
  if (el.name !== 'button' && el.name !== 'input' && el.name !== 'a') return false;
  const { id, name, value } = el.attribs;
  if ((id !== undefined && PURCHASE_NAME.test(id)) || (name !== undefined && PURCHASE_NAME.test(name))) return true;
  const label = el.name === 'input' ? value : textContent(el);
  return label !== undefined && label.length <= PURCHASE_TEXT_CHARS && PURCHASE_TEXT.test(collapse(label).trim());
}
