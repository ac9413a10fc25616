import { isElement, type DomElement, type DomNode } from '../dom.ts';
import { collapse } from '../text.ts';
import { BLOCKS, type PageModel } from './page-model.ts';
import { dropSubtree } from './sections.ts';
import { LABEL_EDGES } from './inline-teasers.ts';

// Text the page's interface prints inside the content, recognised by what it says when its classes say nothing
// (hashed CSS-in-JS names): the label of an ad slot ("Advertisement", "Skip Advertisement", "Anzeige"), a reading
// time, a prompt to sign in, a post's or thread's figures, a lone "Continue reading" link, a share or follow bar
// ("Share on Facebook Share on Twitter"). A block goes when that is all it says. Words, in the usual languages;
// never a site's names.

// Text is charged to its block (page-model.ts): an inline element has no words of its own to judge.
const MAX_LABEL_WORDS = 20;
// A label is short: reading more of a block tells nothing more.
const MAX_LABEL_CHARS = 200;
const MAX_LABEL_NODES = 200;

const AD_LABEL = new RegExp(
  `^(${[
    'advertisements?', 'advert', 'ads?', 'sponsored( content| links?)?', 'paid (content|post|partnership)',
    '(skip|close) (this )?(advertisement|ad)',
    '(the )?(story|article|content|text) continues (below|after) (this )?(advertisement|ad)',
    'continue reading (the )?(main story|below)', 'advertisement[ -]+scroll to continue',
    'anzeige', 'werbung', 'publicité', 'publicidad', 'pubblicità', 'publicidade', 'advertentie', 'reklama', 'annons',
    'реклама', '广告', '広告', '광고',
  ].join('|')})$`,
  'iu',
);

// What a story's toolbar says about reading it: "8 min read", "Reading time: 5 minutes", "Listen to this article".
const READING_LABEL = /^(\d+[ -]?min(ute)?s?( read| to read)|(estimated )?reading time:? \d+[ -]?min(ute)?s?|listen to (this|the) (article|story)( \d+[ -]?min(ute)?s?)?)$/iu;

// A prompt to sign in before taking part ("Join to see EXIF info", "Create an account or sign in to comment", "You
// must be logged in to post a comment").
const SIGN_IN_PROMPT = new RegExp(
  `^(${[
    // ("or Register to comment" when its "Sign In" button already went as a control)
    '((or|and) )?(please )?(join|sign in|sign up|log in|login|register|create an account)( (or|and) (sign in|sign up|log in|register|create an account))?( now)? (to|in order to) (see|view|read|reply|comment|post|join|continue|download|access|vote|like|participate|leave)\\b.{0,80}',
    'you (must|need to|have to) (be )?(logged in|log in|signed in|sign in|registered|register)\\b.{0,80}',
    'you are not logged in\\.?',
  ].join('|')})$`,
  'iu',
);

// A post's or a thread's figures: labels and short values with a number ("Registered: 2016-07-02 Posts: 3,456",
// "Replies 1 Views 1.9k Created 1 yr"), nothing else. Not "Joined" (a seller's profile on an item page) nor "Last
// edited" (a post's own note).
const STAT_WORDS = 'registered|member since|posts|messages|reaction score|points|likes received|replies|views|created|last reply|last post|last activity';
const STAT_LABEL = new RegExp(`(${STAT_WORDS})\\s*:?`, 'giu');
// Most blocks: one anchored test.
const STAT_OPENING = new RegExp(`^(${STAT_WORDS})`, 'iu');
const MAX_STAT_VALUE_WORDS = 5;

// A link alone in its block that opens the rest of this or another page ("Continue reading", "Learn more").
const MORE_LINK = new RegExp(
  `^(${[
    'continue reading', 'read more', 'read (the )?(full|whole|rest of the) (story|article|post)', 'read the rest',
    'learn more', 'find out more', 'mehr erfahren', 'en savoir plus', 'más información', 'scopri di più', 'saiba mais',
    'show more', 'see more', 'view more', 'load more', 'weiterlesen', 'mehr lesen', 'lire la suite', 'leer más',
    'seguir leyendo', 'continua a leggere', 'leggi (di più|tutto)', 'leia mais', 'lees meer', 'läs mer',
    'czytaj (dalej|więcej)', 'читать (далее|полностью)', '阅读全文', '続きを読む', '더 보기',
  ].join('|')})( →| »| ›|\\.\\.\\.|…)?$`,
  'iu',
);

// A share or follow bar: only these words, with a verb ("Share on Facebook", "Follow us on Instagram"), or at least
// three names of networks all linked ("Facebook Twitter Email" icons with their names; "Facebook Messenger" alone is
// a product, and a list of platforms in the text is no row of links).
const SHARE_VERBS = new Set(['share', 'sharing', 'tweet', 'pin', 'follow', 'teilen', 'partager', 'compartir', 'condividi', 'compartilhar', 'delen', 'dela']);
const NETWORKS = new Set([
  'facebook', 'twitter', 'x', 'linkedin', 'whatsapp', 'pinterest', 'reddit', 'telegram', 'messenger', 'tumblr',
  'flipboard', 'bluesky', 'threads', 'mastodon', 'instagram', 'youtube', 'tiktok', 'email', 'e', 'mail', 'print',
]);
const MIN_LINKED_NETWORKS = 3;
const SHARE_FILLER = new Set(['this', 'the', 'article', 'story', 'post', 'page', 'on', 'via', 'by', 'with', 'to', 'us', 'it', 'copy', 'link', 'and', 'or', 'sur', 'en', 'auf', 'su', 'no', 'op', 'na']);

/** Drops the interface labels inside nodes[core]; returns how many. */
export function dropUiLabels(model: PageModel, core: number): number {
  const { nodes, parent, words, linkWords, dropped } = model;
  let count = 0;
  // Furniture inside a label (a screen-reader-only ": The 6 Best Tents" after "Read full article") is no part of
  // what it shows; it is still in the tree until the content is detached.
  const gone = new Set<DomNode>();
  for (let i = core + 1; i < nodes.length && parent[i] >= core; i++) if (dropped[i] === 1) gone.add(nodes[i] as DomElement);
  const inside = new Uint8Array(nodes.length);
  // A block read and kept says what its only element says (same text, same words and links): that one is kept too,
  // unread, and so on down a chain of wrappers.
  const kept = new Uint8Array(nodes.length);
  inside[core] = 1;
  for (let i = core + 1; i < nodes.length && inside[parent[i]]; i++) {
    inside[i] = 1;
    if (kept[i]) {
      keepOnly(model, i, gone, kept);
      continue;
    }
    if (dropped[i] || words[i] === 0 || words[i] > MAX_LABEL_WORDS) continue;
    const el = nodes[i] as DomElement;
    if (!BLOCKS.has(el.name)) continue;
    const text = shortText(el, gone);
    if (text === null) continue;
    const allLinked = linkWords[i] >= words[i];
    const label = AD_LABEL.test(text) || READING_LABEL.test(text) || SIGN_IN_PROMPT.test(text) || isStatsBlock(text);
    if (!label && !(allLinked && MORE_LINK.test(text)) && !isShareBar(text, allLinked)) {
      keepOnly(model, i, gone, kept);
      continue;
    }
    dropSubtree(model, i);
    count++;
  }
  return count;
}

/** Marks as kept the only element of nodes[i] when all else in it is whitespace or gone. */
function keepOnly(model: PageModel, i: number, gone: ReadonlySet<DomNode>, kept: Uint8Array): void {
  let only: DomElement | null = null;
  for (const child of (model.nodes[i] as DomElement).children) {
    if (child.type === 'text') {
      if (/\S/.test(child.data)) return;
    } else if (isElement(child) && !gone.has(child)) {
      if (only !== null) return;
      only = child;
    }
  }
  if (only === null) return;
  // Its index: the next of nodes[i]'s children in pre-order, past the subtrees of gone ones.
  for (let j = i + 1; j < model.nodes.length && model.parent[j] >= i; j++) {
    if (model.nodes[j] === only) {
      kept[j] = 1;
      return;
    }
  }
}

function isStatsBlock(text: string): boolean {
  if (!STAT_OPENING.test(text)) return false;
  const values: string[] = [];
  let last = -1;
  for (const match of text.matchAll(STAT_LABEL)) {
    if (last < 0 && match.index !== 0) return false; // the block opens with a label
    if (last >= 0) values.push(text.slice(last, match.index));
    last = match.index + match[0].length;
  }
  if (last < 0) return false;
  values.push(text.slice(last));
  return values.every((value) => /\d/.test(value) && value.trim().split(/\s+/).length <= MAX_STAT_VALUE_WORDS);
}

// Most short blocks name no network: one native search spares splitting them into words.
const ANY_NETWORK = /facebook|twitter|\bx\b|linkedin|whatsapp|pinterest|reddit|telegram|messenger|tumblr|flipboard|bluesky|threads|mastodon|instagram|youtube|tiktok|mail|print/i;

function isShareBar(text: string, allLinked: boolean): boolean {
  if (!ANY_NETWORK.test(text)) return false;
  const found = text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
  let networks = 0;
  let verbs = 0;
  for (const word of found) {
    if (NETWORKS.has(word)) networks++;
    else if (SHARE_VERBS.has(word)) verbs++;
    else if (!SHARE_FILLER.has(word)) return false;
  }
  return networks >= 1 && (verbs >= 1 || (networks >= MIN_LINKED_NETWORKS && allLinked));
}

/**
 * The element's whole text (a space between elements: "Share on Facebook" and "Share on Twitter" are two links),
 * collapsed and its edges trimmed; null when it runs past MAX_LABEL_CHARS or MAX_LABEL_NODES.
 */
function shortText(el: DomElement, gone: ReadonlySet<DomNode>): string | null {
  let text = '';
  const stack: DomNode[] = [el];
  for (let seen = 0; stack.length > 0; seen++) {
    if (seen > MAX_LABEL_NODES) return null;
    const node = stack.pop()!;
    if (node.type === 'text') {
      text += node.data;
      if (text.length > MAX_LABEL_CHARS * 4) return null;
    } else if (isElement(node) && !gone.has(node)) {
      text += ' ';
      for (let c = node.children.length - 1; c >= 0; c--) stack.push(node.children[c]);
    }
  }
  const label = collapse(text).replace(LABEL_EDGES, '');
  return label !== '' && label.length <= MAX_LABEL_CHARS ? label : null;
}
