import type { DomElement } from '../dom.ts';
import { isInside } from './duplicate-blocks.ts';
import type { PageModel } from './page-model.ts';
import { dropSubtree } from './sections.ts';

// An author's bio box ("Jane writes about tides and has lived by the sea for twenty years...") beside an article is
// about the writer, not the story. The page's structured data says so itself when it describes the author as a
// schema.org Person: a block inside the article's container that starts with that description is the bio, and it
// goes with the small wrapper around it (the author's name, a photo, a link to the profile).

// The description's first words that must open the block (fewer words would match ordinary sentences).
const MATCH_WORDS = 10;
const MIN_MATCH_WORDS = 6;
// The wrapper around the bio holds at most this many words besides it (a name, a job title, "View profile").
const MAX_WRAPPER_EXTRA = 30;
// A bio that is a large share of the chosen content is not a box beside an article (a profile page).
const MAX_SHARE = 0.3;

const BLOCKS = new Set(['p', 'div', 'section', 'aside', 'li', 'span', 'blockquote', 'article', 'footer', 'header', 'dd', 'td']);
const tokensOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];

/** Drops (dropped = 1, inside 2, figures taken from the ancestors) the author bios inside nodes[core]. */
export function dropAuthorBios(model: PageModel, core: number, descriptions: readonly string[]): number {
  const wanted = descriptions.map((d) => tokensOf(d.slice(0, 400)).slice(0, MATCH_WORDS)).filter((t) => t.length >= MIN_MATCH_WORDS);
  if (wanted.length === 0) return 0;
  const { nodes, parent, words, texts, dropped } = model;
  const n = nodes.length;
  // The subtree of core is the run of indices after it whose parents are inside it.
  const inside = new Uint8Array(n);
  inside[core] = 1;
  let end = core + 1;
  for (; end < n && inside[parent[end]]; end++) inside[end] = 1;
  // Words of the text inside core, in document order, with the element holding each.
  const tokens: string[] = [];
  const holder: number[] = [];
  for (let t = 0; t < texts.data.length; t++) {
    const p = texts.parent[t];
    if (p < core || p >= end || dropped[p]) continue;
    for (const token of tokensOf(texts.data[t])) {
      tokens.push(token);
      holder.push(p);
    }
  }
  let count = 0;
  for (const bio of wanted) {
    for (let k = 0; k + bio.length <= tokens.length; k++) {
      if (tokens[k] !== bio[0] || dropped[holder[k]]) continue;
      let m = 1;
      while (m < bio.length && tokens[k + m] === bio[m]) m++;
      if (m < bio.length) continue;
      const box = bioBox(model, holder[k], holder[k + bio.length - 1], core);
      if (box < 0 || words[box] > MAX_SHARE * words[core]) continue;
      dropSubtree(model, box);
      count++;
      break;
    }
  }
  return count;
}

/** The element to drop for a bio that starts in nodes[from]: its block, widened over a small wrapper. */
function bioBox(model: PageModel, from: number, to: number, core: number): number {
  const { nodes, parent, words } = model;
  let block = from;
  // The block holding both ends of the matched words.
  while (block > core && !((to === block || isInside(parent, to, block)) && BLOCKS.has((nodes[block] as DomElement).name))) block = parent[block];
  if (block <= core) return -1;
  let box = block;
  while (parent[box] > core && words[parent[box]] <= words[block] + MAX_WRAPPER_EXTRA) box = parent[box];
  return box;
}
