import { isElement, type DomElement, type DomNode } from '../dom.ts';
import { collapse } from '../text.ts';
import type { PageModel } from './page-model.ts';
import { namesRelated } from './section-headings.ts';
import { dropSubtree } from './sections.ts';

// "Also read: [Another story]", "RELATED: [...]", "READ MORE: [...]" between an article's paragraphs: a link to
// another page introduced by a label that names related content (section-headings.ts's related words, in the
// page's language). The label is the block's text outside its links; the link makes up most of the block.
const TEASER_BLOCKS = new Set(['p', 'div', 'blockquote', 'h2', 'h3', 'h4', 'h5', 'h6', 'li']);
const MAX_TEASER_WORDS = 40;
const MIN_LINK_SHARE = 0.5;
// A label is a few words; reading more of a block tells nothing more.
const MAX_LABEL_CHARS = 60;
// Punctuation and list marks around a label ("» Read more:", "RELATED |", "*Also read* -").
export const LABEL_EDGES = /^[\s*_>»›|:·•–—-]+|[\s*_>»›|:·•–—-]+$/g;

/** Drops the inline teasers inside nodes[core]; returns how many. */
export function dropInlineTeasers(model: PageModel, core: number): number {
  const { nodes, parent, words, linkWords, dropped } = model;
  let count = 0;
  const inside = new Uint8Array(nodes.length);
  inside[core] = 1;
  for (let i = core + 1; i < nodes.length && inside[parent[i]]; i++) {
    inside[i] = 1;
    if (dropped[i]) continue;
    const el = nodes[i] as DomElement;
    if (!TEASER_BLOCKS.has(el.name) || words[i] < 2 || words[i] > MAX_TEASER_WORDS || linkWords[i] < MIN_LINK_SHARE * words[i]) continue;
    const label = labelOf(el);
    if (label === null || !namesRelated(label)) continue;
    dropSubtree(model, i);
    count++;
  }
  return count;
}

/** The element's text outside its links, edges trimmed; null when it holds no link or the text runs long. */
function labelOf(el: DomElement): string | null {
  let text = '';
  let links = 0;
  const stack: DomNode[] = [...el.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'text') {
      text += node.data.slice(0, MAX_LABEL_CHARS * 4); // a label is short: a long text node ends the search below
      if (text.length > MAX_LABEL_CHARS * 4) return null;
    } else if (isElement(node)) {
      if (node.name === 'a') links++;
      else for (let c = node.children.length - 1; c >= 0; c--) stack.push(node.children[c]);
    }
  }
  const label = collapse(text).replace(LABEL_EDGES, '');
  return links > 0 && label !== '' && label.length <= MAX_LABEL_CHARS ? label : null;
}
