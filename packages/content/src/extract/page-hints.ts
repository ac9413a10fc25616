import type { PreparedPage } from './prepare-page.ts';
import { withoutTags } from '../text.ts';

/** What the page says about itself in structured data and Open Graph, as extraction uses it. */
export interface PageHints {
  /** The page declares itself an article (Article, NewsArticle, BlogPosting... or og:type article). */
  article: boolean;
  /** The page is a discussion (a forum thread, Q&A, social posting): its replies are its content. */
  discussion: boolean;
  /**
   * The page is one product: schema.org Product or ProductGroup as its main entity, og:type product, or one to
   * MAX_PURCHASE_CONTROLS buy buttons.
   */
  product: boolean;
  /** The article body as the structured data gives it (a cross-check of which container is the article). */
  articleBody: string | null;
  /** Descriptions of the people the structured data names (an author's bio): never the article's own text. */
  personDescriptions: string[];
  /** The description of the product the page is about, as the structured data gives it (a cross-check of which
   * block is the product's own text, wherever the page's layout puts it). */
  productDescription: string | null;
}

const ARTICLE_TYPES = /^(article|newsarticle|blogposting|posting|report|scholarlyarticle|techarticle|opinionnewsarticle|analysisnewsarticle|reportagenewsarticle|backgroundnewsarticle|reviewnewsarticle|advertisercontentarticle|satiricalarticle|medicalscholarlyarticle)$/;
const DISCUSSION_TYPES = /^(discussionforumposting|qapage|question|socialmediaposting|comment)$/;
// Where the page's own main entity sits: at the top, in the @graph, or as the page's mainEntity.
const ENTITY_KEYS = new Set(['', '@graph', 'mainEntity', 'mainEntityOfPage']);
// Walk at most this many objects of the structured data (hostile pages nest and repeat).
const MAX_OBJECTS = 2000;
// Buy buttons on one product's page (the main one, a sticky bar's, a bundle's): more is a grid of products.
const MAX_PURCHASE_CONTROLS = 4;
// People described in the structured data kept per page (authors, editors, reviewers).
const MAX_PEOPLE = 8;

// A discussion by its address: forums, boards, threads, Q&A (the words, not any site's name), and a topic or a
// Discourse-style /t/ path only with the thread's number: "/topic/cloud/" is a news section, "/t/shoe-name" a shop.
const DISCUSSION_URL = /(^|[./_-])(forums?|community|discuss(ions?)?|boards?|bbs|threads?|questions|viewtopic|showthread)([./_?=-]|$)|\/topics?\/\d|\/t\/([^/]+\/)?\d+(\/|$)/i;

export function pageHints(page: PreparedPage, url = ''): PageHints {
  const hints: PageHints = { article: false, discussion: false, product: false, articleBody: null, personDescriptions: [], productDescription: null };
  try {
    const u = new URL(url);
    if (/forum|bbs/i.test(u.hostname) || DISCUSSION_URL.test(u.hostname) || DISCUSSION_URL.test(u.pathname)) hints.discussion = true;
  } catch {
    // No address to judge.
  }
  const ogType = page.meta.get('og:type')?.toLowerCase();
  if (ogType === 'article') hints.article = true;
  if (ogType === 'product' || ogType === 'product.item' || ogType === 'og:product') hints.product = true;
  let budget = MAX_OBJECTS;
  const visit = (value: unknown, depth: number, inFaq: boolean, key: string): void => {
    if (budget-- <= 0 || depth > 8 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1, inFaq, key);
      return;
    }
    const obj = value as Record<string, unknown>;
    const types = Array.isArray(obj['@type']) ? obj['@type'] : [obj['@type']];
    for (const t of types) {
      if (typeof t !== 'string') continue;
      const name = t.replace(/^.*[/#:]/, '').toLowerCase();
      // The questions of an FAQ block (shops, guides and service pages carry one) are the site's own answers,
      // not a thread of replies.
      if (name === 'faqpage') inFaq = true;
      // Only the page's own main entity speaks for the page: a Comment inside an Article does not make it a forum.
      if (depth <= 2 && ARTICLE_TYPES.test(name)) hints.article = true;
      // A product the page is about (not one a review or an article names as its subject).
      if (depth <= 2 && ENTITY_KEYS.has(key) && (name === 'product' || name === 'productgroup')) {
        hints.product = true;
        // (Some shops write it as HTML: its tags are no words of it.)
        if (typeof obj.description === 'string' && obj.description.length > (hints.productDescription?.length ?? 0)) hints.productDescription = withoutTags(obj.description);
      }
      if (depth <= 2 && !inFaq && DISCUSSION_TYPES.test(name) && name !== 'comment') hints.discussion = true;
    }
    if (types.some((t) => typeof t === 'string' && /(^|[/#:])person$/i.test(t)) && typeof obj.description === 'string' && hints.personDescriptions.length < MAX_PEOPLE) {
      hints.personDescriptions.push(obj.description);
    }
    if (typeof obj.articleBody === 'string' && obj.articleBody.length > (hints.articleBody?.length ?? 0)) hints.articleBody = obj.articleBody;
    for (const [name, child] of Object.entries(obj)) if (name !== 'articleBody') visit(child, name === '@graph' ? depth : depth + 1, inFaq, name);
  };
  for (const text of page.structuredData) {
    try {
      visit(JSON.parse(text), 0, false, '');
    } catch {
      // Broken structured data says nothing.
    }
  }
  // A shop's item page has one buy button (and its sticky copy); a category page has one per card, and a review
  // article may carry one too (it declares itself an article).
  if (!hints.article && page.purchaseControls > 0 && page.purchaseControls <= MAX_PURCHASE_CONTROLS) hints.product = true;
  return hints;
}
