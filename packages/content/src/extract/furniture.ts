import { furnitureOf, isArticleLandmark, isContentLandmark, type FurnitureMark } from './boilerplate.ts';
import { isSignUpForm } from './forms.ts';
import { textContent, type DomDocument, type DomElement } from '../dom.ts';

// Furniture is dropped only while it holds less than this share of the page's estimated content (a tag or role
// is a firmer hint than a class word), or when it is mostly links whatever its size.
const STRUCTURE_SHARE = 0.5;
const NAME_SHARE = 0.3;
const MAX_LINK_DENSITY = 0.6;
// A landmark (<main>, <article>...) protects the furniture-marked element around it only when it holds this
// share of the page's estimated content: small <article> cards in a "related" rail do not count.
const LANDMARK_SHARE = 0.25;

// Class words that inside the page's content landmark name a part of the content (see isFurniture).
const SECTION_WORDS = new Set(['banner']);

// Class/id words of a consent or cookie note: never content, however long (see chromeWords).
const CONSENT_WORDS = new Set(['cookie', 'cookies', 'consent', 'gdpr', 'onetrust']);

// A cookie or consent note known by its text (consent-notes.ts): site chrome, like one marked by its name.
const CONSENT_NOTE: FurnitureMark = { kind: 'structure', words: ['consent'] };

// A tree of links (page-model.ts linkTrees): a menu or an archive however it is named, dropped while it holds less
// than half of the page's estimated content (a sitemap or a contents page is its tree).
const LINK_TREE: FurnitureMark = { kind: 'structure', words: [] };

// On one product's page (page-hints.ts) a block named as its reviews is what buyers said, not the product: it goes
// however long (a widget whose heading sits in another column than its reviews opens no section to drop), as long
// as this many estimated content words of the page stay outside it.
const REVIEW_WORDS = new Set(['review', 'reviews']);
const MIN_PRODUCT_GOOD = 20;

/** Each subtree's figures before any drop, indexed like nodes. */
export interface RawFigures {
  words: Float64Array;
  linkWords: Float64Array;
  /** Estimated content words (page-model.ts blockQuality). */
  good: Float64Array;
  /** Words in prose blocks (sentences, few links). */
  prose: Float64Array;
}

// Class words that name a list of links. An element so named that holds paragraphs (a tab strip whose panels hold
// an FAQ's answers) is not one: judged as content when prose makes up this share of it and links little of it.
const NAVIGATION_WORDS = new Set(['nav', 'navbar', 'navigation', 'menu', 'menubar', 'megamenu', 'toolbar', 'topbar']);
const NAVIGATION_PROSE_SHARE = 0.5;
const NAVIGATION_PROSE_LINKS = 0.2;
const NAVIGATION_PROSE_WORDS = 100;

// A pager ("1 2 3 … Next", "Load more") holds a few words. An element so named that holds this many, on a page that
// is no article, is an infinite-scroll component wrapping the very cards it pages through (a shop's product grid);
// on an article such a component holds teasers of other posts.
const PAGER_WORDS = new Set(['pagination', 'pager']);
const PAGED_CONTENT_WORDS = 100;

/** What the page says it is (page-hints.ts), as far as furniture is judged by it. */
export interface PageKind {
  /** One product's page: a block named as its reviews is the buyers'. */
  product: boolean;
  /** The page declares itself an article. */
  article: boolean;
  /** The page is a discussion (page-hints.ts): its replies are its content. */
  discussion: boolean;
}

export const NO_KIND: PageKind = { product: false, article: false, discussion: false };

// Comments beside an article: class words that name them, and how much prose makes an <article> (or articleBody)
// landmark the page's article rather than a card or one comment's body.
const COMMENT_WORDS = new Set(['comment', 'comments', 'commentlist', 'respond', 'commentform', 'disqus']);
const ARTICLE_PROSE = 100;
// A note named "comments" in every one of many alike items, opening with its label (arXiv's "Comments: 10 pages, 4
// figures" under each paper): the items' own field, beside their other text. A comment section is one block, and a
// comment does not open with a label.
const ITEM_NOTE_GROUP = 3;
const ITEM_NOTE_WORDS = { min: 4, max: 40 };
const ITEM_NOTE_LABEL = /^\s*\p{L}[\p{L} ]{0,20}:\s*\S/u;

// A newsletter box: its heading, a line of pitch and the form. An ancestor with more words holds content too.
const SIGN_UP_BOX_WORDS = 50;
const SIGN_UP_BOX: FurnitureMark = { kind: 'structure', words: [] };

export interface FurnitureVerdict {
  /** 1 for a dropped element, 2 for the elements inside it, 0 otherwise, indexed like nodes (pre-order). */
  dropped: Uint8Array;
  /**
   * Words inside site chrome whatever its size: elements marked by tag or role (navigation, header, footer...)
   * and consent notes. What is left of a page without them tells an app shell from a page (a menu and a long
   * cookie note are not content a script has yet to draw).
   */
  chromeWords: number;
}

/**
 * Decides which elements marked as furniture are dropped, given each subtree's words, link words and estimated
 * content words before any drop. Marks: boilerplate.ts by tag, role and names; `consent`, cookie notes known by
 * their text (consent-notes.ts); `trees`, trees of links (page-model.ts). A marked element holding much of the
 * page's content is more likely a badly named wrapper than a sidebar, unless it is mostly links.
 */
export function markFurniture(
  nodes: (DomElement | DomDocument)[],
  parent: Int32Array,
  raw: RawFigures,
  kind: PageKind = NO_KIND,
  declared = -1,
  consent: Uint8Array | null = null,
  trees: Uint8Array | null = null,
): FurnitureVerdict {
  const { words: rawWords, linkWords: rawLinkWords, good: rawGood, prose: rawProse } = raw;
  const n = nodes.length;
  const landmark = new Uint8Array(n);
  for (let i = 1; i < n; i++) if (isContentLandmark(nodes[i] as DomElement)) landmark[i] = 1;
  const totalGood = Math.max(1, rawGood[0]);
  // A marked element wrapping the page's main landmark (a <main> inside a badly named wrapper) is not furniture;
  // small <article> cards in a "related" rail do not count.
  const holdsLandmark = new Uint8Array(n);
  for (let i = n - 1; i > 0; i--) {
    if (holdsLandmark[i] || (landmark[i] && rawGood[i] >= LANDMARK_SHARE * totalGood)) holdsLandmark[parent[i]] = 1;
  }
  // The text the structured data declares as the page's own (a product's description in a slide-out sheet or a
  // drawer, marked as a dialog or an aside) is content, and so is what holds it.
  for (let i = declared; i > 0; i = parent[i]) holdsLandmark[i] = 1;
  const signUpBox = signUpBoxes(nodes, parent, rawWords, landmark);
  const marks: (FurnitureMark | null)[] = new Array(n).fill(null);
  // Elements marked alike (every post of a thread classed "comment") are judged together: their share of the
  // page decides, not each one's.
  const groupGood = new Map<string, number>();
  const groupSize = new Map<string, number>();
  const siblingGood = new Map<string, number>();
  // Inside <pre> and <code> classes are a highlighter's tokens ("token comment", "hljs-meta"): code, never furniture.
  const inCode = new Uint8Array(n);
  for (let i = 1; i < n; i++) {
    const name = (nodes[i] as DomElement).name;
    inCode[i] = inCode[parent[i]] || (name === 'pre' || name === 'code' ? 1 : 0);
    if (inCode[parent[i]]) continue;
    const hinted = signUpBox[i] ? SIGN_UP_BOX : consent?.[i] ? CONSENT_NOTE : furnitureOf(nodes[i] as DomElement);
    const mark = hinted ?? (trees?.[i] ? LINK_TREE : null);
    if (mark === null) continue;
    marks[i] = mark;
    const key = groupKey(nodes[i] as DomElement, i);
    groupGood.set(key, (groupGood.get(key) ?? 0) + rawGood[i]);
    groupSize.set(key, (groupSize.get(key) ?? 0) + 1);
    const siblings = siblingKey(nodes[i] as DomElement, i, parent[i], mark);
    siblingGood.set(siblings, (siblingGood.get(siblings) ?? 0) + rawGood[i]);
  }
  // Inside <main>, <article> or another content landmark, a <footer> or <header> is the article's own (byline,
  // tags): judged by its size like other furniture. At page level, the site's footer is never content, however
  // much text it holds (testimonial sliders, long "about us" blurbs).
  const inLandmark = new Uint8Array(n);
  for (let i = 1; i < n; i++) inLandmark[i] = inLandmark[parent[i]] || landmark[parent[i]];
  // Which elements hold a top-level heading (h1, h2): an article's own <header> is its title block.
  const titled = new Uint8Array(n);
  for (let i = n - 1; i > 0; i--) {
    const name = (nodes[i] as DomElement).name;
    if (titled[i] || name === 'h1' || name === 'h2') titled[parent[i]] = 1;
  }
  const outsideArticle = commentsOutsideArticle(nodes, parent, rawProse, marks, kind);
  const holdsProse = (i: number, linkDensity: number): boolean =>
    rawWords[i] >= NAVIGATION_PROSE_WORDS && rawProse[i] >= NAVIGATION_PROSE_SHARE * rawWords[i] && linkDensity < NAVIGATION_PROSE_LINKS;
  const isItemNote = (i: number, linkDensity: number): boolean =>
    (groupSize.get(groupKey(nodes[i] as DomElement, i)) ?? 0) >= ITEM_NOTE_GROUP &&
    rawWords[i] >= ITEM_NOTE_WORDS.min &&
    rawWords[i] <= ITEM_NOTE_WORDS.max &&
    rawWords[parent[i]] >= 2 * rawWords[i] &&
    linkDensity <= 0.5 &&
    ITEM_NOTE_LABEL.test(textContent(nodes[i]));
  const isFurniture = (i: number): boolean => {
    if (!inLandmark[i] && (nodes[i] as DomElement).name === 'footer') return true;
    if (marks[i] === LINK_TREE) return rawGood[i] < STRUCTURE_SHARE * totalGood;
    const linkDensity = rawWords[i] > 0 ? rawLinkWords[i] / rawWords[i] : 1;
    // Inside the content a <header> holding the title (h1/h2) is the article's title block: its dek and byline stay.
    if (inLandmark[i] && (nodes[i] as DomElement).name === 'header' && titled[i]) return linkDensity > MAX_LINK_DENSITY;
    // Inside the content, "banner" names a hero section (the page's title and pitch), not an advert: kept unless
    // mostly links. ("header" was tried too: it kept thread and product headers that references leave out.)
    if (inLandmark[i] && marks[i]!.kind === 'name' && marks[i]!.words.every((w) => SECTION_WORDS.has(w))) return linkDensity > MAX_LINK_DENSITY;
    const named = marks[i]!.kind === 'name' ? marks[i]!.words : null;
    // Comments outside the page's article go however long they run: a long thread must not outweigh a short story.
    if (outsideArticle[i]) return true;
    if (named !== null && named.some((w) => COMMENT_WORDS.has(w)) && isItemNote(i, linkDensity)) return false;
    if (named !== null && named.every((w) => NAVIGATION_WORDS.has(w)) && holdsProse(i, linkDensity)) return false;
    if (named !== null && !kind.article && named.every((w) => PAGER_WORDS.has(w)) && rawWords[i] >= PAGED_CONTENT_WORDS) return false;
    if (named !== null && kind.product && named.some((w) => REVIEW_WORDS.has(w)) && totalGood - rawGood[i] >= MIN_PRODUCT_GOOD) return true;
    const group = Math.max(groupGood.get(groupKey(nodes[i] as DomElement, i)) ?? 0, siblingGood.get(siblingKey(nodes[i] as DomElement, i, parent[i], marks[i]!)) ?? 0);
    const share = Math.max(rawGood[i], group) / totalGood;
    return share < (marks[i]!.kind === 'structure' ? STRUCTURE_SHARE : NAME_SHARE) || linkDensity > MAX_LINK_DENSITY;
  };
  // A class word on a kept element names content inside it too: the "comment-author" and "comment-body" parts of
  // a thread's posts (kept as a group) stay, while a "comment" section elsewhere on the page still goes.
  const keptWords: (ReadonlySet<string> | null)[] = new Array(n).fill(null);
  const dropped = new Uint8Array(n);
  const inChrome = new Uint8Array(n);
  let chromeWords = 0;
  for (let i = 1; i < n; i++) {
    const mark = marks[i];
    if (inChrome[parent[i]]) inChrome[i] = 1;
    else if (mark !== null && (mark.kind === 'structure' || mark.words.some((w) => CONSENT_WORDS.has(w)))) {
      inChrome[i] = 1;
      chromeWords += rawWords[i];
    }
  }
  for (let i = 1; i < n; i++) {
    if (dropped[parent[i]]) {
      dropped[i] = 2; // inside a dropped element: gone with it
      continue;
    }
    const inherited = keptWords[parent[i]];
    keptWords[i] = inherited;
    const mark = marks[i];
    if (mark === null || holdsLandmark[i]) continue;
    if (mark.kind === 'name' && inherited !== null && mark.words.every((word) => inherited.has(word))) continue;
    if (isFurniture(i)) dropped[i] = 1;
    else if (mark.kind === 'name') keptWords[i] = new Set([...(inherited ?? []), ...mark.words]);
  }
  return { dropped, chromeWords };
}

/**
 * The elements named as comments that lie outside the page's article and do not hold it: its first <article> or
 * articleBody landmark holding ARTICLE_PROSE words of prose that is not itself inside comments, or on a page that
 * declares itself an article and has no such landmark, its first <h1> outside comments (the story's title: a
 * thread of comments never holds it). None on a discussion, where the replies are the content.
 */
function commentsOutsideArticle(
  nodes: (DomElement | DomDocument)[],
  parent: Int32Array,
  prose: Float64Array,
  marks: readonly (FurnitureMark | null)[],
  kind: PageKind,
): Uint8Array {
  const n = nodes.length;
  const outside = new Uint8Array(n);
  if (kind.discussion) return outside;
  const named = (i: number) => marks[i]?.kind === 'name' && marks[i]!.words.some((w) => COMMENT_WORDS.has(w));
  const inComments = new Uint8Array(n);
  let article = -1;
  let title = -1;
  for (let i = 1; i < n; i++) {
    inComments[i] = inComments[parent[i]] || (named(i) ? 1 : 0);
    if (inComments[i]) continue;
    if (article < 0 && prose[i] >= ARTICLE_PROSE && isArticleLandmark(nodes[i] as DomElement)) article = i;
    if (title < 0 && kind.article && (nodes[i] as DomElement).name === 'h1') title = i;
  }
  if (article < 0) article = title;
  if (article < 0) return outside;
  const holdsArticle = new Uint8Array(n);
  for (let a = article; a > 0; a = parent[a]) holdsArticle[a] = 1;
  const inArticle = new Uint8Array(n);
  inArticle[article] = 1;
  for (let i = article + 1; i < n && inArticle[parent[i]]; i++) inArticle[i] = 1;
  for (let i = 1; i < n; i++) if (named(i) && !inArticle[i] && !holdsArticle[i]) outside[i] = 1;
  return outside;
}

/**
 * The blocks around sign-up forms (prepare-page.ts): from the form up to the largest ancestor still holding at most
 * SIGN_UP_BOX_WORDS words (its heading and pitch), short of a content landmark.
 */
function signUpBoxes(nodes: (DomElement | DomDocument)[], parent: Int32Array, words: Float64Array, landmark: Uint8Array): Uint8Array {
  const box = new Uint8Array(nodes.length);
  for (let i = 1; i < nodes.length; i++) {
    if (!isSignUpForm(nodes[i] as DomElement)) continue;
    let top = i;
    while (parent[top] > 0 && !landmark[parent[top]] && words[parent[top]] <= SIGN_UP_BOX_WORDS) top = parent[top];
    box[top] = 1;
  }
  return box;
}

/**
 * Siblings of one tag marked by the same class words ("contact-section navSource", "pricing-section navSource").
 * An element marked by its tag or role is a group of one.
 */
function siblingKey(el: DomElement, index: number, parentIndex: number, mark: FurnitureMark): string {
  return mark.kind === 'name' ? `${parentIndex} ${el.name} ${mark.words.join(' ')}` : `#${index}`;
}

/** Same tag, class and id pattern (digits ignored: comment-17, comment-18): one group. Else a group of one. */
function groupKey(el: DomElement, index: number): string {
  const { class: className, id } = el.attribs;
  const idPattern = id !== undefined && /\d/.test(id) ? id.replace(/\d+/g, '#') : '';
  return className || idPattern ? `${el.name} ${className ?? ''} ${idPattern}` : `#${index}`;
}
